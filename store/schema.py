"""The store's schema, as sqlite-utils migrations; `SCHEMA_VERSION` marks a store that is current."""

from sqlite_utils import Database, Migrations

migrations = Migrations("lazaretto")
# Each migration records the schema as it was written, so status defaults stay the literal strings
# (the values of `states`' enums, which never change: they are on disk).


@migrations()
def create_sessions_and_taint(db: Database) -> None:
    db.table("sessions").create(
        {
            "key": str,
            "created_at": str,
            "client_pid": int,
            "client_name": str,
            "client_session_id": str,
        },
        pk="key",
    )
    db.table("taint_events").create(
        {
            "id": int,
            "session": str,
            "server": str,
            "tool": str,
            "method": str,
            "request_id": str,
            "reason": str,
            "at": str,
            "cleared_at": str,
            "cleared_by": str,
        },
        pk="id",
        not_null={"session", "server", "reason", "at"},
    )
    db.table("taint_events").create_index(["session", "cleared_at"])
    db.table("tools").create(
        {
            "server": str,
            "name": str,
            "outbound": int,
            "outbound_reason": str,
            "untrusted": int,
            "untrusted_reason": str,
            "annotations": str,
            "updated_at": str,
        },
        pk=("server", "name"),
    )


@migrations()
def create_blocked_calls(db: Database) -> None:
    db.table("blocked_calls").create(
        {
            "id": int,
            "session": str,
            "server": str,
            "tool": str,
            "request_id": str,
            "arguments": str,
            "args_hash": str,
            "reason_code": str,
            "reason": str,
            "hosts": str,
            "outbound_reason": str,
            "taint_reason": str,
            "token_hash": str,
            "token_hint": str,
            "status": str,
            "created_at": str,
            "expires_at": str,
            "decided_at": str,
            "used_at": str,
            "reviewed_at": str,
        },
        pk="id",
        not_null={"session", "server", "tool", "token_hash", "status", "created_at"},
        defaults={"status": "pending"},
    )
    db.table("blocked_calls").create_index(["token_hash"], unique=True)
    db.table("blocked_calls").create_index(["session", "server", "tool", "args_hash", "status"])
    db.table("blocked_calls").create_index(["status", "created_at"])


@migrations()
def create_audit_log(db: Database) -> None:
    db.table("audit").create(
        {
            "id": int,
            "at": str,
            "actor": str,
            "action": str,
            "session": str,
            "subject": str,
            "reason": str,
            "detail": str,
            "prev_hash": str,
            "hash": str,
        },
        pk="id",
        not_null={"at", "actor", "action", "prev_hash", "hash"},
    )
    db.table("audit_head").create({"id": int, "last_id": int, "last_hash": str}, pk="id")
    # Append-only: the log refuses edits and deletions through SQL.
    db.execute(
        "CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit "
        "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit "
        "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
    )


@migrations()
def create_quarantine(db: Database) -> None:
    db.table("quarantine").create(
        {
            "id": str,
            "session": str,
            "server": str,
            "tool": str,
            "method": str,
            "request_id": str,
            "path": str,
            "content_hash": str,
            "fingerprint": str,
            "original": str,
            "cleaned": str,
            "score": float,
            "signals": str,
            "decoded": str,
            "removed": str,
            "status": str,
            "created_at": str,
            "decided_at": str,
            "reviewed_at": str,
        },
        pk="id",
        not_null={"session", "server", "content_hash", "original", "status", "created_at"},
        defaults={"status": "withheld"},
    )
    db.table("quarantine").create_index(["created_at"])
    db.table("quarantine").create_index(["status", "created_at"])
    db.table("quarantine").create_index(["content_hash", "server", "tool"])
    db.table("quarantine").create_index(["fingerprint"])
    db.table("stripped").create(
        {
            "id": int,
            "session": str,
            "server": str,
            "tool": str,
            "method": str,
            "request_id": str,
            "path": str,
            "kind": str,
            "count": int,
            "decoded": str,
            "quarantine_id": str,
            "created_at": str,
        },
        pk="id",
        not_null={"session", "server", "kind", "created_at"},
    )
    db.table("stripped").create_index(["created_at"])


@migrations()
def add_fingerprints_and_label_nonce(db: Database) -> None:
    # Fingerprints of the instruction-shaped sentences of withheld fields: a payload that
    # comes back through another tool or server is recognized and withheld at once.
    db.table("fingerprints").create(
        {"fingerprint": int, "quarantine_id": str}, not_null={"fingerprint", "quarantine_id"}
    )
    db.table("fingerprints").create_index(["fingerprint"])
    db.table("sessions").add_column("label_nonce", str)


@migrations()
def create_pins(db: Database) -> None:
    # Each server's surface as first seen (or as accepted since), keyed by server id and
    # command, and every drift from it waiting for, or past, a person's decision.
    db.table("pins").create(
        {
            "server": str,
            "command": str,
            "kind": str,
            "name": str,
            "canonical": str,
            "sha256": str,
            "pinned_at": str,
        },
        pk=("server", "command", "kind", "name"),
        not_null={"canonical", "sha256", "pinned_at"},
    )
    db.table("pins").create_index(["command"])
    db.table("pin_drift").create(
        {
            "id": int,
            "server": str,
            "command": str,
            "kind": str,
            "name": str,
            "change": str,
            "old_canonical": str,
            "new_canonical": str,
            "old_sha256": str,
            "new_sha256": str,
            "status": str,
            "created_at": str,
            "decided_at": str,
        },
        pk="id",
        not_null={"server", "command", "kind", "name", "change", "status", "created_at"},
        defaults={"status": "pending"},
    )
    db.table("pin_drift").create_index(["server", "command", "kind", "name", "status"])
    db.table("pin_drift").create_index(["status", "created_at"])


@migrations()
def create_directories(db: Database) -> None:
    # Directories the agent cloned: what is read from them is untrusted until a person trusts
    # the directory. One row per absolute path; a new clone into a path makes it untrusted again.
    db.table("directories").create(
        {
            "path": str,
            "status": str,
            "session": str,
            "reason": str,
            "created_at": str,
            "decided_at": str,
            "note": str,
        },
        pk="path",
        not_null={"status", "created_at"},
    )


@migrations()
def add_fingerprint_anchors(db: Database) -> None:
    # The code of each window's longest word: a field holding none of these words is passed over
    # without hashing its windows. Rows from before have none (every window is then hashed).
    db.table("fingerprints").add_column("anchor", int)


@migrations()
def add_unreviewed_index(db: Database) -> None:
    # What waits for a person: withheld and not yet dismissed, counted from the index alone.
    db.table("quarantine").create_index(["status", "reviewed_at"])


@migrations()
def add_released_as(db: Database) -> None:
    # What a person released of a withheld field: its visible text, or the original with its
    # hidden payload. A field released before there was a choice is recorded as its visible
    # text, the smaller of the two: an older release never hands a hidden payload over.
    db.table("quarantine").add_column("released_as", str)
    db.execute("UPDATE quarantine SET released_as = 'visible' WHERE status = 'released'")


@migrations()
def add_audit_uid(db: Database) -> None:
    # The account of the process behind each row (a station's client, else the writer itself).
    # Older rows have none, and their hashes were made without it.
    db.table("audit").add_column("uid", int)


@migrations()
def add_client_started(db: Database) -> None:
    # When the session's client started: with its pid, what tells that the client exited (a
    # recycled pid is another process). Older sessions have none, and read as still running.
    db.table("sessions").add_column("client_started", int)


@migrations()
def add_recorded_by(db: Database) -> None:
    # The station's client that recorded a refused call (uid and pid as the kernel reported
    # them): what the row says is that client's claim, and a person is shown so. Rows written
    # without a station have none.
    db.table("blocked_calls").add_column("recorded_by", str)


@migrations()
def create_running_proxies(db: Database) -> None:
    # Each running proxy, as it records itself: what tells a hook that a server is proxied
    # (see proxies.py), where a command line would only tell what a process calls itself.
    db.table("running_proxies").create(
        {"pid": int, "started": int, "server": str, "session": str, "at": str},
        pk="pid",
        not_null={"started", "server", "session", "at"},
    )
    db.table("running_proxies").create_index(["session"])


@migrations()
def add_fingerprint_anchor_words(db: Database) -> None:
    # Each window's anchor word itself (as its code reads it, lower-cased), beside its code: a
    # line is ruled out by one literal search for the known words instead of coding each of its
    # words. Rows from before have none (every line's words are then coded, as before).
    db.table("fingerprints").add_column("word", str)


def migrate(db: Database) -> None:
    """Apply pending migrations and record how many ran in PRAGMA user_version."""
    # connection.SCHEMA_VERSION must equal the number of migrations (a test checks): the
    # fast open path compares it with user_version without importing sqlite-utils.
    migrations.apply(db)
    db.execute(f"PRAGMA user_version = {len(migrations.applied(db))}")
