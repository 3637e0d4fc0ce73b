"""The station's shared write connection: writes in turn, shared COMMITs, nothing answered early."""

import sqlite3
import threading

import pytest
from support.waiting import wait_for

from lazaretto.store import Store, StoreUnavailable
from lazaretto.store.station import writer as writer_module
from lazaretto.store.station.writer import SharedWriter


@pytest.fixture
def path(tmp_path):
    path = tmp_path / "station.db"
    Store(path).sessions.all()  # created and migrated, as the station's bind() does
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE probe (n INTEGER PRIMARY KEY, thread TEXT)")
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def writer(path):
    shared = SharedWriter(path, busy_timeout=5.0)
    yield shared
    shared.close()


def rows(path) -> set[int]:
    conn = sqlite3.connect(path)
    try:
        return {n for (n,) in conn.execute("SELECT n FROM probe")}
    finally:
        conn.close()


def test_every_write_is_committed_before_its_caller_returns(writer, path):
    seen_after_return: dict[int, bool] = {}
    start = threading.Barrier(24)

    def write(n: int) -> None:
        start.wait()
        with writer.transaction() as conn:
            conn.execute("INSERT INTO probe (n, thread) VALUES (?, ?)", (n, "w"))
        # Another connection sees it at once: its COMMIT is done, not merely queued.
        seen_after_return[n] = n in rows(path)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert rows(path) == set(range(24))
    assert seen_after_return == dict.fromkeys(range(24), True)


def test_writes_that_queue_up_share_a_commit(writer, path, monkeypatch):
    commits = []
    real = writer._commit

    def counting(batch):
        commits.append(batch.size)
        real(batch)

    monkeypatch.setattr(writer, "_commit", counting)
    holding = threading.Event()
    release = threading.Event()

    def first() -> None:
        with writer.transaction() as conn:
            conn.execute("INSERT INTO probe (n) VALUES (0)")
            holding.set()
            release.wait(10)

    def later(n: int) -> None:
        with writer.transaction() as conn:
            conn.execute("INSERT INTO probe (n) VALUES (?)", (n,))

    threads = [threading.Thread(target=first)]
    threads[0].start()
    holding.wait(10)
    threads += [threading.Thread(target=later, args=(n,)) for n in range(1, 6)]
    for thread in threads[1:]:
        thread.start()
    while writer._waiting < 5:
        threading.Event().wait(0.01)
    release.set()
    for thread in threads:
        thread.join(30)
    assert rows(path) == set(range(6))
    assert sum(commits) == 6 and len(commits) < 6  # fewer COMMITs than writes


def test_a_failed_write_is_undone_alone(writer, path):
    with writer.transaction() as conn:
        conn.execute("INSERT INTO probe (n) VALUES (1)")
    with pytest.raises(sqlite3.IntegrityError), writer.transaction() as conn:
        conn.execute("INSERT INTO probe (n) VALUES (2)")
        conn.execute("INSERT INTO probe (n) VALUES (1)")  # the key is taken
    with pytest.raises(RuntimeError), writer.transaction() as conn:
        conn.execute("INSERT INTO probe (n) VALUES (3)")
        raise RuntimeError("the caller's own failure")
    with writer.transaction() as conn:
        conn.execute("INSERT INTO probe (n) VALUES (4)")
    assert rows(path) == {1, 4}


def test_a_write_nested_in_one_of_the_same_thread_joins_it(writer, path):
    with writer.transaction() as outer:
        outer.execute("INSERT INTO probe (n) VALUES (1)")
        with writer.transaction() as inner:
            inner.execute("INSERT INTO probe (n) VALUES (2)")
        assert rows(path) == set()  # nothing committed until the outer write is
    assert rows(path) == {1, 2}


def test_a_commit_that_fails_fails_every_write_it_held(writer, path, monkeypatch):
    real = writer._commit

    def full_disk(batch):
        # The COMMIT finds the disk full: SQLite rolls the transaction back.
        writer._connection().execute("ROLLBACK")
        real(batch)

    monkeypatch.setattr(writer, "_commit", full_disk)
    with (
        pytest.raises(sqlite3.OperationalError, match="not committed"),
        writer.transaction() as conn,
    ):
        conn.execute("INSERT INTO probe (n) VALUES (1)")
    monkeypatch.setattr(writer, "_commit", real)
    with writer.transaction() as conn:
        conn.execute("INSERT INTO probe (n) VALUES (2)")
    assert rows(path) == {2}


def test_a_full_store_refuses_through_the_store_api_and_recovers(path):
    writer = SharedWriter(path, busy_timeout=5.0)
    store = Store(path, writer=writer, checkpoint_taint=False)
    try:
        store.sessions.ensure("before")
        pages = writer._connection().execute("PRAGMA page_count").fetchone()[0]
        writer._connection().execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(StoreUnavailable):
            store.quarantine.record_stripped(
                [
                    {
                        "session": "before",
                        "server": "s",
                        "tool": "t",
                        "method": "tools/call",
                        "request_id": str(n),
                        "path": "/" + "x" * 4000,
                        "kind": "zero-width",
                        "count": 1,
                    }
                    for n in range(50)
                ]
            )
        assert store.write_failure
        writer._connection().execute("PRAGMA max_page_count = 1073741823")
        assert store.writable()
        store.sessions.ensure("after")
        keys = {row["key"] for row in store.query("SELECT key FROM sessions")}
        assert {"before", "after"} <= keys
    finally:
        store.close()
        writer.close()


def test_the_checkpoint_thread_copies_the_wal_back(path, monkeypatch):
    monkeypatch.setattr(writer_module, "CHECKPOINT_SECONDS", 0.05)
    writer = SharedWriter(path, busy_timeout=5.0)
    before = path.stat().st_size
    try:
        for n in range(200):
            with writer.transaction() as conn:
                conn.execute("INSERT INTO probe (n, thread) VALUES (?, ?)", (n, "x" * 2000))
        assert writer._connection().execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        # The commits did not copy their pages into the store file; the checkpoint thread does.
        wait_for(lambda: path.stat().st_size > before + 300_000, "the checkpoint")
    finally:
        writer.close()
