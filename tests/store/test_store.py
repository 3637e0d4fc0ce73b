"""The store on a real SQLite file: taint, approvals, the audit chain, many writers at once."""

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from sqlite_utils import Database

from lazaretto.store import Store
from lazaretto.store.connection import SCHEMA_VERSION
from lazaretto.store.decisions import DecisionError
from lazaretto.store.schema import migrations


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def test_schema_version_counts_the_migrations():
    assert len(migrations.pending(Database(memory=True))) == SCHEMA_VERSION


def test_reopening_a_current_store_skips_migrations(store_path):
    Store(store_path).sessions.ensure("a")
    conn = sqlite3.connect(store_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_taint_is_recorded_once_in_the_audit_and_cleared_by_untaint(store):
    assert store.sessions.taint(
        "s", server="web", tool="fetch", method="tools/call", reason="first"
    )
    assert not store.sessions.taint(
        "s", server="web", tool="fetch", method="tools/call", reason="second"
    )
    state = store.sessions.state("s")
    assert state.tainted and [r["reason"] for r in state.reasons] == ["first", "second"]
    assert store.decisions.untaint("s", note="read it") == 2
    assert not store.sessions.state("s").tainted
    assert [row["action"] for row in store.audit.rows()] == ["taint", "untaint"]
    with pytest.raises(DecisionError):
        store.decisions.untaint("s")


def test_idle_expiry_is_opt_in(store_path):
    clock = FakeClock()
    store = Store(store_path, clock=clock)
    store.sessions.taint("s", server="web", tool="fetch", method="tools/call", reason="r")
    clock.now += timedelta(minutes=90)
    assert store.sessions.state("s").tainted
    assert store.sessions.state("s", idle_expiry_minutes=120).tainted
    assert not store.sessions.state("s", idle_expiry_minutes=60).tainted
    assert store.audit.rows()[-1]["actor"] == "idle-expiry"


def block(store, arguments=None) -> str:
    return store.blocked.record(
        session="s",
        server="slack",
        tool="post",
        arguments=arguments or {"text": "hi", "n": [1, 2]},
        reason_code="tainted_outbound",
        reason="r",
    )


def test_approval_is_single_use_and_bound_to_the_exact_arguments(store):
    token = block(store)
    row = store.blocked.by_token(token)
    assert row["status"] == "pending" and row["token_hint"] == token[:4] + "-····"
    assert token not in str(store.query("SELECT * FROM blocked_calls"))
    store.decisions.approve(row["id"])
    same = {"n": [1, 2], "text": "hi"}  # key order does not matter: arguments are canonical
    assert (
        store.blocked.consume_approved(
            session="s", server="slack", tool="post", arguments={"text": "other"}
        )
        is None
    )
    assert (
        store.blocked.consume_approved(session="other", server="slack", tool="post", arguments=same)
        is None
    )
    assert store.blocked.consume_approved(session="s", server="slack", tool="post", arguments=same)
    assert (
        store.blocked.consume_approved(session="s", server="slack", tool="post", arguments=same)
        is None
    )
    with pytest.raises(DecisionError):
        store.decisions.approve(row["id"])


def test_tokens_expire(store_path):
    clock = FakeClock()
    store = Store(store_path, clock=clock)
    token = block(store)
    clock.now += timedelta(minutes=16)
    row = store.blocked.by_token(token)
    assert row is not None
    assert row["status"] == "expired" and store.blocked.pending() == []
    with pytest.raises(DecisionError):
        store.decisions.approve(row["id"])


def test_approval_window_restarts_at_approval(store_path):
    clock = FakeClock()
    store = Store(store_path, clock=clock)
    row = store.blocked.by_token(block(store))
    assert row is not None
    clock.now += timedelta(minutes=14)
    store.decisions.approve(row["id"])
    clock.now += timedelta(minutes=10)
    assert store.blocked.consume_approved(
        session="s", server="slack", tool="post", arguments=row["arguments"]
    )


def test_token_spellings_are_forgiven(store):
    token = block(store)
    assert store.blocked.by_token(token.lower().replace("-", " "))["id"]


def tamper(path, sql: str) -> None:
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER audit_no_update")
    conn.execute("DROP TRIGGER audit_no_delete")
    conn.execute(sql)
    conn.commit()
    conn.close()


def fill_audit(store, rows: int = 5) -> None:
    for n in range(rows):
        store.sessions.taint(
            f"s{n}", server="web", tool="fetch", method="tools/call", reason=f"r{n}"
        )


def test_audit_rows_cannot_be_edited_through_sql(store, store_path):
    fill_audit(store, 1)
    conn = sqlite3.connect(store_path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE audit SET reason = 'x'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM audit")


@pytest.mark.parametrize(
    "sql, bad_row",
    [
        ("UPDATE audit SET reason = 'nothing happened' WHERE id = 3", 3),
        ("DELETE FROM audit WHERE id = 2", 3),
        ("DELETE FROM audit WHERE id = 5", 5),
    ],
)
def test_verify_names_the_first_tampered_row(store, store_path, sql, bad_row):
    fill_audit(store)
    assert store.audit.verify().ok
    tamper(store_path, sql)
    result = store.audit.verify()
    assert not result.ok and result.first_bad_id == bad_row


WRITER = """
import sys
from lazaretto.store import Store
store = Store(sys.argv[1])
for n in range(int(sys.argv[3])):
    store.sessions.taint(sys.argv[2], server="web", tool="fetch", method="tools/call", reason=f"r{n}")
    store.blocked.record(session=sys.argv[2], server="s", tool="t", arguments={"n": n},
                         reason_code="c", reason="r")
"""


@pytest.mark.slow
def test_many_processes_write_at_once_without_losing_a_row(store_path):
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(store_path), f"w{i}", "40"])
        for i in range(8)
    ]
    assert [w.wait(60) for w in writers] == [0] * 8
    store = Store(store_path)
    assert store.query("SELECT count(*) AS n FROM taint_events")[0]["n"] == 8 * 40
    assert store.query("SELECT count(*) AS n FROM blocked_calls")[0]["n"] == 8 * 40
    result = store.audit.verify()
    # One taint row per session and one refusal per blocked call.
    assert result.ok and result.rows == 8 + 8 * 40


def test_quarantine_ids_are_found_in_any_spelling(store):
    from lazaretto.store.quarantine import normalize_quarantine_id

    for spelled in ("Q-QEBNVS", "q-qebnvs", "QQEBNVS", "qebnvs"):
        assert normalize_quarantine_id(spelled) == "Q-QEBNVS"


def test_data_version_moves_on_other_commits_and_holds_still_within_one_reading(tmp_path):
    path = tmp_path / "s.db"
    mine, other = Store(path), Store(path)
    mine.sessions.ensure("s")
    before = mine.data_version()
    other.sessions.taint(
        "s", server="web", tool="fetch", method="tools/call", reason="r", request_id="1"
    )
    moved = mine.data_version()
    assert moved != before
    with mine.one_reading():
        first = mine.data_version()
        other.sessions.taint(
            "s", server="mail", tool="read", method="tools/call", reason="r", request_id="2"
        )
        assert mine.data_version() == first  # one message, one view
    assert mine.data_version() != first


def test_a_writer_waits_for_another_writers_lock_and_gives_up_after_its_busy_timeout(tmp_path):
    import threading

    from lazaretto.store import StoreUnavailable

    path = tmp_path / "s.db"
    holder, waiter = Store(path), Store(path, busy_timeout=5.0)
    waiter.sessions.ensure("s")
    taken, done = threading.Event(), threading.Event()

    def hold_briefly() -> None:
        with holder.write():
            taken.set()
            done.wait(0.3)

    thread = threading.Thread(target=hold_briefly)
    thread.start()
    taken.wait()
    waiter.sessions.ensure("u")  # waits for the lock, then writes
    thread.join()
    assert {row["key"] for row in waiter.query("SELECT key FROM sessions")} >= {"s", "u"}
    impatient = Store(path, busy_timeout=0.05)
    with holder.write(), pytest.raises(StoreUnavailable, match="locked"):
        impatient.sessions.ensure("v")
    # The busy handler is back for reads once the write attempt is over.
    assert impatient._connection().execute("PRAGMA busy_timeout").fetchone()[0] == 50


def test_a_decided_row_gone_from_the_store_is_an_error_not_none(store, store_path):
    # A trigger stands in for the store file being replaced between the decision and its re-read.
    row = store.blocked.by_token(block(store))
    sqlite3.connect(store_path).executescript(
        "CREATE TRIGGER gone AFTER UPDATE ON blocked_calls"
        " BEGIN DELETE FROM blocked_calls WHERE id = NEW.id; END;"
    )
    with pytest.raises(DecisionError, match=f"blocked call {row['id']} is no longer in the store"):
        store.decisions.approve(row["id"])


def test_a_recorded_drift_gone_from_the_store_fails_closed(store, store_path):
    from lazaretto.store import StoreUnavailable

    assert store.pins.pending() == []  # opens (and creates) the store file
    sqlite3.connect(store_path).executescript(
        "CREATE TRIGGER gone AFTER INSERT ON pin_drift"
        " BEGIN DELETE FROM pin_drift WHERE id = NEW.id; END;"
    )
    with pytest.raises(StoreUnavailable, match="pin drift just recorded"):
        store.pins.drift("web", "cmd", {"kind": "tool", "name": "fetch"}, "new", None)


def test_fingerprints_stored_before_anchor_words_read_back_without_one(store_path):
    db = Database(store_path)
    migrations.apply(db, stop_before="add_fingerprint_anchor_words")
    db.execute(
        "INSERT INTO fingerprints (fingerprint, anchor, quarantine_id) VALUES (7, 8, 'Q-AAAAAA')"
    )
    db.close()
    store = Store(store_path)
    try:
        [(rowid, *old)] = store.quarantine.fingerprints_since(0)
        assert old == [7, 8, None]  # the index then codes every line's words, as it did
        store.quarantine.withhold(
            session="s",
            server="web",
            tool="fetch",
            method="tools/call",
            request_id="1",
            path="content[0].text",
            content_hash="h",
            fingerprint=None,
            payload_fingerprints=[(9, 10, "assistant")],
            original="o",
            cleaned="c",
            score=1.0,
            signals=[],
            decoded=[],
            removed=[],
        )
        assert [row[1:] for row in store.quarantine.fingerprints_since(rowid)] == [
            (9, 10, "assistant")
        ]
        # Words of withheld content: left out for a reader who may not read it.
        assert [row[3] for row in store.quarantine.fingerprints_since(0, unlocked=False)] == [
            None,
            None,
        ]
    finally:
        store.close()
