"""The station's one write connection: client writes take turns on it and share their COMMITs.

With a SQLite connection of its own per client, every write raced the others for the file's lock
and polled for it while it was taken. Here the writes of all clients run one after the other on
one connection, in arrival order, with no lock to poll. A write that finds others waiting when it
is done leaves the transaction open for them, and the last of the run commits for all (group
commit). Each write is its own SAVEPOINT, so one that fails is undone alone; and each caller
returns only after the COMMIT holding its write succeeded, so no client hears of a write before it
is in the store. A COMMIT that fails (a full disk) fails every write it held.
"""

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..connection import StoreUnavailable, begin_immediate, close_quietly, connect, file_id

MAX_BATCH = 16
"""Writes one COMMIT holds at most: the first of them waits for the others' work, so not too many."""

CHECKPOINT_SECONDS = 0.5
"""How often committed pages are copied from the WAL into the store file, away from the writes."""


class _Batch:
    """The writes of one open transaction, and how its COMMIT went."""

    __slots__ = ("committed", "error", "size")

    def __init__(self) -> None:
        self.committed = threading.Event()
        self.error: BaseException | None = None
        self.size = 0


class SharedWriter:
    """One write connection to the station's store, its writes in turn, their COMMITs shared."""

    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path = path
        self.busy_timeout = busy_timeout
        self._conn: sqlite3.Connection | None = None
        self._file_id: tuple[int, int] | None = None
        self._turn = threading.Condition(threading.Lock())
        self._owner: int | None = None  # the thread whose write runs now
        self._waiting = 0
        self._batch = _Batch()
        self._committed = threading.Event()  # something was committed since the last checkpoint
        self._stopping = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, name="lazaretto-checkpoint", daemon=True
        )
        self._checkpointer.start()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write: the block runs in a savepoint; returns once a COMMIT holds it (or raises)."""
        me = threading.get_ident()
        if self._owner == me:
            # A write nested in this thread's own: part of the outer one.
            assert self._conn is not None
            yield self._conn
            return
        self._take_turn(me)
        batch = self._batch
        try:
            try:
                conn = self._begin(batch)
            except (sqlite3.Error, StoreUnavailable) as exc:
                self._fail(batch, exc)
                raise
            try:
                yield conn
            except BaseException:
                self._undo(conn, batch)
                raise
            try:
                conn.execute("RELEASE client_write")
            except sqlite3.Error as exc:
                self._fail(batch, exc)
                raise
            batch.size += 1
        finally:
            self._pass_turn(batch)
        batch.committed.wait()
        if batch.error is not None:
            raise sqlite3.OperationalError(f"the write was not committed: {batch.error}")

    def _take_turn(self, me: int) -> None:
        with self._turn:
            self._waiting += 1
            while self._owner is not None:
                self._turn.wait()  # woken in arrival order: Condition keeps its waiters in a queue
            self._waiting -= 1
            self._owner = me

    def _begin(self, batch: _Batch) -> sqlite3.Connection:
        conn = self._connection()
        if not conn.in_transaction:
            if batch.size:
                # Rolled back under the writes already made (SQLite does on some errors).
                raise sqlite3.OperationalError("the transaction holding earlier writes was lost")
            begin_immediate(conn, self.busy_timeout)
        conn.execute("SAVEPOINT client_write")
        return conn

    def _undo(self, conn: sqlite3.Connection, batch: _Batch) -> None:
        """Take back one failed write, leaving the others in the transaction."""
        try:
            conn.execute("ROLLBACK TO client_write")
            conn.execute("RELEASE client_write")
        except sqlite3.Error as exc:
            self._fail(batch, exc)

    def _fail(self, batch: _Batch, error: BaseException) -> None:
        """The transaction cannot go on: every write it held fails."""
        if batch.error is None:
            batch.error = error
        conn = self._conn
        if conn is not None and conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # dropped right after
        self._drop()

    def _pass_turn(self, batch: _Batch) -> None:
        """Hand the open transaction to the next write, or commit it when nobody waits."""
        with self._turn:
            if (
                self._waiting
                and batch.error is None
                and batch.size < MAX_BATCH
                and self._conn is not None
                and self._conn.in_transaction
            ):
                self._owner = None
                self._turn.notify()
                return
        self._commit(batch)
        with self._turn:
            self._owner = None
            self._turn.notify()

    def _commit(self, batch: _Batch) -> None:
        conn = self._conn
        if batch.error is None and batch.size:
            try:
                if conn is None or not conn.in_transaction:
                    raise sqlite3.OperationalError("the transaction was rolled back")
                conn.execute("COMMIT")
                self._committed.set()
            except sqlite3.Error as exc:
                self._fail(batch, exc)
        elif conn is not None and conn.in_transaction:
            try:
                conn.execute("ROLLBACK")  # every write of it failed and was undone: nothing to keep
            except sqlite3.Error:
                self._drop()
        self._batch = _Batch()
        batch.committed.set()

    def _connection(self) -> sqlite3.Connection:
        current = file_id(self.path)
        if self._conn is not None and current != self._file_id:
            self._drop()  # deleted or replaced: the handle would write where nobody reads
        if self._conn is None:
            if current is None and self._file_id is not None:
                raise StoreUnavailable(
                    f"the store at {self.path} was deleted; waiting for it to come back"
                )
            conn = connect(self.path, self.busy_timeout)
            # A COMMIT that crosses SQLite's threshold would copy the WAL back and sync the file
            # while every other write waits: the checkpoint thread does that instead.
            conn.execute("PRAGMA wal_autocheckpoint=0")
            self._conn = conn
            self._file_id = file_id(self.path)
        return self._conn

    def _checkpoint_loop(self) -> None:
        conn: sqlite3.Connection | None = None
        while not self._stopping.wait(CHECKPOINT_SECONDS):
            if not self._committed.is_set():
                continue
            self._committed.clear()
            try:
                if conn is None:
                    if not self.path.exists():
                        continue  # deleted: never created again here (the writes say why)
                    conn = connect(self.path, self.busy_timeout)
                # PASSIVE: copies what no reader still needs, never waits for the writes.
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except (sqlite3.Error, StoreUnavailable):
                # The pages stay in the WAL, committed; the next round tries again.
                self._committed.set()
                if conn is not None:
                    conn.close()
                    conn = None
        if conn is not None:
            conn.close()

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        close_quietly(conn)

    def close(self) -> None:
        """Close the connection (after the last write; the station is stopping)."""
        self._stopping.set()
        self._checkpointer.join()
        with self._turn:
            while self._owner is not None:
                self._turn.wait()
            self._drop()
