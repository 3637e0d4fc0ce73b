"""The `Store` facade: one connection, reopened on demand, shared by small repositories."""

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .audit import AuditLog
from .beacon import Beacon
from .blocked import BlockedCalls
from .clock import Clock, stamp, system_clock
from .connection import StoreUnavailable, close_quietly, connect, file_id, write_transaction
from .decisions import Decisions
from .directories import Directories
from .modes import Mode
from .paths import resolve_store_path
from .pins import Pins
from .proxies import RunningProxies
from .quarantine import Quarantine
from .sessions import Sessions
from .tools import ToolClassifications

if TYPE_CHECKING:
    from .review import Review
    from .station.writer import SharedWriter

BEACON_TRUST_SECONDS = 1.0
"""How long `data_version` takes an unmoved beacon for an unchanged store before it asks SQLite
anyway: a beacon file replaced, or a write made around this class, shows no later than this."""


class Store:
    """The quarantine store of every proxy, hook and review pane of a user.

    Opening is lazy and retried: when the file cannot be opened or written, each call
    raises `StoreUnavailable`, and the next call tries again, so decisions resume once
    the store is back. A store file deleted after it was opened is not silently recreated:
    that would forget every taint, so calls fail until the file exists again. When the file, its
    `-wal` or its `-shm` is deleted or replaced under a running process, that process is the only
    witness of what was lost: it marks every session it served as tainted in the store it finds.

    This is embedded mode: any process of the user can open the same file and act as the user.
    """

    mode = Mode.EMBEDDED

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        memory: bool = False,
        clock: Clock = system_clock,
        busy_timeout: float = 5.0,
        beacon_path: Path | None = None,
        checkpoint_taint: bool = True,
        writer: "SharedWriter | None" = None,
    ) -> None:
        self.path: Path | None = None if memory else resolve_store_path(path)
        self.clock = clock
        self.busy_timeout = busy_timeout
        self._conn: sqlite3.Connection | None = None
        self._file_id: tuple[int, int] | None = None  # (device, inode) of the file last opened
        self._opened_read_only = False
        self._opens = 0  # connections made so far: part of data_version, see there
        self.write_failure: str | None = None  # why the last write failed, until one succeeds
        self.commits = 0  # write transactions committed through this object
        self.live_sessions: set[str] = set()
        """Sessions this process served: tainted again if the store is lost under it (see above)."""
        self.checkpoint_taint = checkpoint_taint
        """Copy a new taint from the WAL into the main file at once (embedded mode, see `durable`)."""
        self._side_ids: tuple | None = None  # (device, inode) of -wal and -shm when last opened
        self._sides = () if self.path is None else (f"{self.path}-wal", f"{self.path}-shm")
        self._witness_due: str | None = None
        self._writer = writer
        """The station's one write connection, which this store's writes go through; None: its own."""
        # What data_version last read from SQLite, and the beacon, own commits and opens then.
        self._version_seen: tuple[bytes, int, int, int, float] | None = None
        # One connection is shared by the proxy's two relay threads.
        self._lock = threading.RLock()
        self._reading = _Reading()  # see one_reading
        self._one_reading = _OneReading(self._reading)
        self.sessions = Sessions(self)
        self.tools = ToolClassifications(self)
        self.blocked = BlockedCalls(self)
        self.quarantine = Quarantine(self)
        self.pins = Pins(self)
        self.audit = AuditLog(self)
        self.decisions = Decisions(self)
        self.directories = Directories(self)
        self.proxies = RunningProxies(self)
        self._review: Review | None = None  # see `review`
        self.beacon = Beacon(
            self.path, path=beacon_path, mode=0o600 if beacon_path is None else 0o644
        )

    @property
    def review(self) -> "Review":
        """What the review app lists and shows: loaded by the first listing (a proxy or a hook
        never lists)."""
        if self._review is None:
            from .review import Review

            self._review = Review(self)
        return self._review

    # -- the API's transport-level methods, as StationStore has them -------------------

    def describe(self) -> str:
        """Where decisions are kept, for headers and messages."""
        return f"the store at {self.path}" if self.path else "an in-memory store"

    def with_proof(self, proof: str | dict) -> "Store":
        """Embedded mode takes no proof: any process of the user could open the file anyway."""
        return self

    def begin(self, op: str, subject: object) -> None:
        """Embedded mode has no station to tell: the typed challenge is checked in this process."""

    def withdraw(self) -> None:
        """Embedded mode has nothing begun to withdraw."""

    def unlock(self, passphrase: str) -> None:
        """Embedded mode has nothing to unlock: the file is the user's to read."""

    # -- connection -------------------------------------------------------------------

    def _connection(self, writing: bool = False) -> sqlite3.Connection:
        if self.path is None:
            if self._conn is None:
                self._conn = connect(None, self.busy_timeout)
            return self._conn
        current = file_id(self.path)
        if self._conn is not None:
            if current != self._file_id:
                # Deleted or replaced: the open handle would write where nobody reads.
                self._witness_due = "was deleted or replaced"
                self._drop()
            elif self._side_ids is not None and _side_ids(self._sides) != self._side_ids:
                # What was committed to the lost WAL is gone for every process opening it anew.
                self._witness_due = "lost its -wal or -shm file"
                self._drop()
            elif writing and self._opened_read_only:
                # Opened while the file was read-only: SQLite fell back to reading only.
                self._drop()
        if self._conn is None:
            if current is None and self._file_id is not None:
                raise StoreUnavailable(
                    f"the store at {self.path} was deleted; waiting for it to come back"
                )
            conn = connect(self.path, self.busy_timeout)
            self._opens += 1
            self._file_id = file_id(self.path)
            self._side_ids = _side_ids(self._sides)
            self._opened_read_only = not os.access(self.path, os.W_OK)
            if self._witness_due is not None:
                self._witness(conn, self._witness_due)
            self._conn = conn
        return self._conn

    def _witness(self, conn: sqlite3.Connection, what: str) -> None:
        """Taint every session this process served, in the store that replaced the lost one."""
        reason = f"the store {what} while this session was running: what it read before may be lost"
        with write_transaction(conn, self.busy_timeout):
            for key in sorted(self.live_sessions):
                conn.execute(
                    "INSERT INTO taint_events (session, server, tool, method, reason, at)"
                    " VALUES (?, 'lazaretto', NULL, 'store', ?, ?)",
                    (key, reason, self.now()),
                )
                self.audit.append(
                    conn, "proxy", "taint", session=key, subject="lazaretto/store", reason=reason
                )
        self._witness_due = None

    def durable(self) -> None:
        """Copy committed pages from the WAL into the main file now (a lost WAL keeps them then).

        Costs a sync of the file, so it is asked for only where losing a row would let something
        through: a session's first taint.
        """
        if not self.checkpoint_taint or self.path is None:
            return
        with self._lock:
            try:
                self._connection().execute("PRAGMA wal_checkpoint(PASSIVE)")
            except (sqlite3.Error, StoreUnavailable):
                pass  # the row is committed to the WAL; a checkpoint later copies it

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        close_quietly(conn)

    def close(self) -> None:
        """Close the connection; the next call reopens it."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            self.beacon.close()

    def now(self) -> str:
        """The store's clock as a timestamp."""
        return stamp(self.clock())

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE); failures surface as StoreUnavailable."""
        with self._lock:
            try:
                if self._writer is not None:
                    with self._writer.transaction() as conn:
                        yield conn
                else:
                    conn = self._connection(writing=True)
                    with write_transaction(conn, self.busy_timeout):
                        yield conn
            except sqlite3.IntegrityError:
                # A random id that collided: the caller retries with another; the store is fine.
                raise
            except sqlite3.Error as exc:
                self._drop_after(exc)
                self.write_failure = f"cannot write the store at {self.path}: {exc}"
                raise StoreUnavailable(self.write_failure) from exc
            except StoreUnavailable as exc:
                self.write_failure = str(exc)
                raise
            self.write_failure = None
            self.commits += 1
            self.beacon.ring()  # committed: other processes' caches are behind (see data_version)

    def writable(self) -> bool:
        """Whether writes work: free while the last one succeeded, else a small real write is tried."""
        if self.write_failure is None:
            return True
        try:
            with self.write() as conn:
                # Rewriting the same schema version appends a page, so a full disk shows too.
                conn.execute(
                    f"PRAGMA user_version = {conn.execute('PRAGMA user_version').fetchone()[0]}"
                )
        except StoreUnavailable:
            return False
        return True

    def query(self, sql: str, params: Any = ()) -> list[dict]:
        """Rows as dicts; failures surface as StoreUnavailable."""
        with self._lock:
            try:
                return [dict(row) for row in self._connection().execute(sql, params)]
            except sqlite3.Error as exc:
                self._drop_after(exc)
                raise StoreUnavailable(f"cannot read the store at {self.path}: {exc}") from exc

    def one_reading(self) -> "_OneReading":
        """Within the block, this thread reads data_version from SQLite once: the caches consulted while
        handling one message share one view of what other processes changed (each reading costs a lock
        round trip on the file, the largest part of a small message's handling). Blocks do not nest."""
        return self._one_reading

    def data_version(self) -> int:
        """Changes whenever anything commits (another connection or this one), or the store was
        reopened: a cheap poll for caches.

        SQLite's counter is per connection and starts afresh on each, so the number of opens
        is folded in: a cache keyed by it never mistakes a new (maybe replaced) file for the old one.
        """
        reading = self._reading
        if reading.active:
            if reading.version is None:
                reading.version = self._read_data_version()
            return reading.version
        return self._read_data_version()

    def _read_data_version(self) -> int:
        """The version, from SQLite only when the beacon moved since it was last read there.

        Every commit through this class rings the beacon (see `write`), so while its bytes, this
        object's own commits and its connection are those of the last reading (and no write
        failed since), nothing was committed since: one `pread` answers, where SQLite's counter costs a file lock round trip
        and the connection's check three `stat` calls, most of a small message's handling. The
        answer is taken from the beacon for BEACON_TRUST_SECONDS at most.
        """
        with self._lock:
            beacon = self.beacon.read()
            now = time.monotonic()
            seen = self._version_seen
            if (
                beacon is not None
                and seen is not None
                and self.write_failure is None
                and seen[0] == beacon
                and seen[1] == self.commits
                and seen[2] == self._opens
                and now - seen[4] < BEACON_TRUST_SECONDS
            ):
                return seen[3]
            try:
                version = self._connection().execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.Error as exc:
                self._drop_after(exc)
                raise StoreUnavailable(f"cannot read the store at {self.path}: {exc}") from exc
            # SQLite's counter moves only for other connections' commits: this object's own are
            # folded in, so a cache keyed by the version sees a decision taken through it too.
            version = (((self._opens << 32) + self.commits) << 32) + version
            if beacon is not None:
                self._version_seen = (beacon, self.commits, self._opens, version, now)
            return version

    def _drop_after(self, exc: sqlite3.Error) -> None:
        # A deleted, replaced or corrupted file needs a fresh connection; a busy or
        # locked store keeps its connection for the next try.
        if not isinstance(exc, sqlite3.OperationalError) or "locked" not in str(exc):
            self._drop()


def _side_ids(paths: tuple[str, ...]) -> tuple | None:
    """The identity of the WAL and shared-memory files beside an open store, None outside WAL mode."""
    ids = tuple(file_id(path) for path in paths)
    return ids if ids and all(ids) else None


class _Reading(threading.local):
    """One thread's reading of data_version within `Store.one_reading`. The class's values are
    every thread's until it sets its own: a thread that never opened a block (the client's, in a
    proxy) finds `active` without an AttributeError raised and caught on every message."""

    active = False
    version: int | None = None


class _OneReading:
    """The context manager of `Store.one_reading` (a class: it runs once per message). It keeps
    nothing of its own, so one serves every thread and every block."""

    __slots__ = ("_reading",)

    def __init__(self, reading: _Reading) -> None:
        self._reading = reading

    def __enter__(self) -> None:
        self._reading.active, self._reading.version = True, None

    def __exit__(self, *_exc) -> None:
        self._reading.active, self._reading.version = False, None
