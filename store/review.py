"""What the review app lists and shows: paged queues over each table, counts, and detail reads."""

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .clients import client_gone
from .states import CallStatus, DriftStatus, FieldStatus

if TYPE_CHECKING:
    from .store import Store

CHAIN_LIMIT = 50
"""Taint events and related rows shown per item; a session that read thousands needs no more."""


class _Now:
    """Stands in a condition's parameters for the store's time when the page is read."""


NOW = _Now()


MARKUP_KINDS = ("hidden-html", "html-comment")
"""Removals of markup (the sanitizer's kinds): one that decoded to no text is not listed."""


@dataclass(frozen=True)
class Condition:
    """A SQL condition on a listed table, with its parameters (`NOW` for the time of reading)."""

    sql: str
    params: tuple = ()


@dataclass(frozen=True)
class Listing:
    """How one queue reads its table: columns, searchable columns, and the order it pages in."""

    table: str
    columns: str
    searchable: tuple[str, ...]
    time_column: str | None = "created_at"
    """Ordered by (time, rowid) when set, else by rowid alone (rowid grows with time there)."""
    content: tuple[str, ...] = ()
    """Searchable columns that hold withheld content: searched only by an unlocked reviewer."""
    waiting: Condition | None = None
    """The rows that wait for a person's decision; None when no row of the table ever does."""
    listed: Condition | None = None
    """The rows worth listing at all; None lists every row."""


LISTINGS: dict[str, Listing] = {
    # Never `original`: a page must not drag megabytes of payload into the list.
    "withheld": Listing(
        "quarantine",
        "id, session, server, tool, method, path, score, signals, status, released_as, created_at,"
        " reviewed_at",
        ("id", "server", "tool", "path", "signals", "session"),
        content=("signals", "path"),
        waiting=Condition("status = ? AND reviewed_at IS NULL", (FieldStatus.WITHHELD,)),
    ),
    "stripped": Listing(
        "stripped",
        # The field's state now, beside the removal: a release shows on this tab at once.
        "id, session, server, tool, method, path, kind, count, quarantine_id, created_at,"
        " (SELECT status FROM quarantine WHERE quarantine.id = quarantine_id) AS field_status,"
        " (SELECT reviewed_at FROM quarantine WHERE quarantine.id = quarantine_id) AS field_reviewed_at",
        ("server", "tool", "path", "kind", "decoded", "session"),
        content=("decoded", "path"),
        # Markup that carried no text (a doctype, an empty head) is no hidden payload to a person.
        listed=Condition("decoded IS NOT NULL OR kind NOT IN (?, ?)", MARKUP_KINDS),
    ),
    "blocked": Listing(
        "blocked_calls",
        "id, session, server, tool, reason, reason_code, status, created_at, expires_at, reviewed_at,"
        # The session's client, to tell a call whose client exited (lapsed) as it is listed.
        " (SELECT client_pid FROM sessions WHERE sessions.key = session) AS client_pid,"
        " (SELECT client_started FROM sessions WHERE sessions.key = session) AS client_started",
        ("server", "tool", "reason", "reason_code", "arguments", "session"),
        time_column=None,
        # NULL-safe, so that a row is either waiting or not, never neither.
        waiting=Condition(
            "status = ? AND reviewed_at IS NULL AND ifnull(expires_at > ?, 0)",
            (CallStatus.PENDING, NOW),
        ),
    ),
    "audit": Listing(
        "audit",
        "id, at, actor, action, session, subject, reason",
        ("actor", "action", "session", "subject", "reason"),
        time_column=None,
    ),
    # Never the canonical surfaces: the list needs names, the detail reads the rest.
    "pins": Listing(
        "pin_drift",
        "id, server, kind, name, change, status, created_at",
        ("server", "kind", "name", "change", "new_canonical"),
        time_column=None,
        content=("new_canonical",),
        waiting=Condition("status = ?", (DriftStatus.PENDING,)),
    ),
}


_NEVER = Condition("0")


def _like(text: str) -> str:
    # The person's text is matched literally: % and _ are not wildcards for them.
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def page_sql(
    listing: Listing,
    *,
    after_at: str | None = None,
    after_order: int | None = None,
    text: str = "",
    limit: int = 100,
    unlocked: bool = True,
    waiting: bool | None = None,
    now: str = "",
) -> tuple[str, tuple]:
    """The page query and its parameters: a keyset on indexed columns, so 100,000 rows cost no more than ten.

    `waiting` True reads only the rows that wait for a person, False only the others, None all.
    """
    clauses: list[str] = []
    params: list[object] = []
    conditions = [(listing.listed, True)]
    if waiting is not None:
        # A table whose rows never wait has none waiting: all of its rows are the others.
        conditions.append((listing.waiting or _NEVER, waiting))
    for condition, holds in conditions:
        if condition is not None:
            clauses.append(f"({condition.sql})" if holds else f"NOT ({condition.sql})")
            params += [now if param is NOW else param for param in condition.params]
    if after_order is not None:
        if listing.time_column:
            clauses.append(f"({listing.time_column}, rowid) < (?, ?)")
            params += [after_at, after_order]
        else:
            clauses.append("rowid < ?")
            params.append(after_order)
    searched = [c for c in listing.searchable if unlocked or c not in listing.content]
    if text.strip():
        clauses.append("(" + " OR ".join(f"{col} LIKE ? ESCAPE '\\'" for col in searched) + ")")
        params += [_like(text.strip())] * len(searched)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    order = f"{listing.time_column} DESC, rowid DESC" if listing.time_column else "rowid DESC"
    sql = f"SELECT rowid AS _order, {listing.columns} FROM {listing.table} {where} ORDER BY {order} LIMIT ?"
    return sql, (*params, limit)


class Review:
    """The reads behind the review app's queue and detail pane (the app itself holds no SQL)."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def page(
        self,
        kind: str,
        *,
        after_at: str | None = None,
        after_order: int | None = None,
        text: str = "",
        limit: int = 100,
        unlocked: bool = True,
        waiting: bool | None = None,
    ) -> list[dict]:
        """Up to `limit` rows of one queue older than (after_at, after_order), matching `text`;
        with `waiting`, only the rows that wait for a person (True) or only the others (False)."""
        listing = LISTINGS.get(kind)
        if listing is None:
            raise ValueError(f"no queue {kind!r}")
        sql, params = page_sql(
            listing,
            after_at=after_at,
            after_order=after_order,
            text=text,
            limit=max(1, min(int(limit), 10_000)),
            unlocked=unlocked,
            waiting=waiting,
            now=self._store.now(),
        )
        rows = self._store.query(sql, params)
        if kind == "blocked":
            # A call whose session's client exited has lapsed: told here, where the process
            # table is looked at, so every listing agrees with `blocked.pending`.
            for row in rows:
                row["session_ended"] = client_gone(row.pop("client_pid"), row.pop("client_started"))
        return rows

    def newest_blocked(self) -> int:
        """The id of the newest refused call, 0 when there is none."""
        return self._store.query("SELECT max(id) AS id FROM blocked_calls")[0]["id"] or 0

    def blocked_since(self, after_id: int, limit: int = 5) -> list[dict]:
        """Refused calls newer than `after_id`, oldest first: what the app announces."""
        return self._store.query(
            "SELECT id, server, tool, reason FROM blocked_calls WHERE id > ? ORDER BY id LIMIT ?",
            (after_id, limit),
        )

    def newest_withheld(self) -> int:
        """The rowid of the newest withheld field, 0 when there is none."""
        return self._store.query("SELECT max(rowid) AS n FROM quarantine")[0]["n"] or 0

    def withheld_since(self, after_rowid: int, limit: int = 5) -> list[dict]:
        """Fields withheld after `after_rowid`, oldest first: what the app announces (no content)."""
        return self._store.query(
            "SELECT id, server, tool, method, path FROM quarantine WHERE rowid > ? ORDER BY rowid"
            " LIMIT ?",
            (after_rowid, limit),
        )

    def taint_chain(self, session: str, limit: int = CHAIN_LIMIT) -> list[dict]:
        """The session's taint events, oldest first, cleared ones included (they are history)."""
        return self._store.query(
            "SELECT id, server, tool, method, reason, at, cleared_at, cleared_by FROM taint_events"
            " WHERE session = ? ORDER BY id LIMIT ?",
            (session, limit),
        )

    def stripped(self, stripped_id: int) -> dict | None:
        """One logged removal, with the state of the field it was withheld with, if any."""
        rows = self._store.query(
            "SELECT s.*, q.status AS field_status, q.released_as AS field_released_as,"
            " q.reviewed_at AS field_reviewed_at FROM stripped s"
            " LEFT JOIN quarantine q ON q.id = s.quarantine_id WHERE s.id = ?",
            (int(stripped_id),),
        )
        return rows[0] if rows else None

    def session(self, key: str) -> dict:
        """A session's row (`record`, None if never registered) and its refused `calls`, newest first."""
        rows = self._store.query("SELECT * FROM sessions WHERE key = ?", (key,))
        # The blocked_calls index starts with session.
        calls = self._store.query(
            "SELECT id, server, tool, status, reason, created_at, expires_at, reviewed_at"
            " FROM blocked_calls WHERE session = ? ORDER BY id DESC LIMIT ?",
            (key, CHAIN_LIMIT),
        )
        ended = bool(rows) and client_gone(rows[0]["client_pid"], rows[0]["client_started"])
        for call in calls:
            call["session_ended"] = ended
        return {"record": rows[0] if rows else None, "calls": calls}

    def audit_row(self, audit_id: int) -> dict | None:
        """One audit row, its detail decoded."""
        return self._store.audit.get(int(audit_id))

    def pinned(self, server: str, command: str, kind: str, name: str) -> list[dict]:
        """What is pinned now for one entry: after an accept it is the drift's new version."""
        return self._store.query(
            "SELECT sha256, pinned_at FROM pins WHERE server = ? AND command = ? AND kind = ? AND name = ?",
            (server, command, kind, name),
        )

    def stripped_count(self, session: str) -> int:
        """How many removals were logged for a session."""
        return self._store.query(
            "SELECT count(*) AS n FROM stripped WHERE session = ?", (session,)
        )[0]["n"]
