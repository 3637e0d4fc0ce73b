"""Opening the SQLite file: WAL, a busy timeout, migrations, and write transactions."""

import os
import random
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# The number of migrations in schema.py. A store whose user_version equals it opens
# without importing sqlite-utils, which keeps a proxy's start-up light.
SCHEMA_VERSION = 15


class StoreUnavailable(RuntimeError):
    """The store cannot be opened, read or written; callers fail closed."""


def connect(path: Path | None, busy_timeout: float) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the store at `path`, or an in-memory one for None."""
    try:
        if path is None:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        else:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            existed = path.exists()
            conn = sqlite3.connect(
                str(path), timeout=busy_timeout, isolation_level=None, check_same_thread=False
            )
            if not existed:
                # Withheld payloads may quote secrets: only the owner reads the store.
                os.chmod(path, 0o600)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        conn.row_factory = sqlite3.Row
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version < SCHEMA_VERSION:
            _migrate(conn, busy_timeout)
        return conn
    except (sqlite3.Error, OSError) as exc:
        raise StoreUnavailable(f"cannot open the store at {path}: {exc}") from exc


def file_id(path: Path | str) -> tuple[int, int] | None:
    """The file's identity (device, inode), or None when it is not there: a replaced store differs."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def close_quietly(conn: sqlite3.Connection | None) -> None:
    """Close a connection that is being given up; an error closing it changes nothing."""
    if conn is not None:
        try:
            conn.close()
        except sqlite3.Error:
            pass


def _migrate(conn: sqlite3.Connection, busy_timeout: float) -> None:
    # Imported here: only a new or older store pays for sqlite-utils.
    from sqlite_utils import Database

    from .schema import migrate

    # BEGIN IMMEDIATE serializes proxies that start at once on a fresh store; the
    # migrations' own transactions nest inside it as savepoints.
    with write_transaction(conn, busy_timeout):
        migrate(Database(conn))


@contextmanager
def write_transaction(
    conn: sqlite3.Connection, busy_timeout: float
) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE ... COMMIT: take the write lock up front, so no reader has to upgrade."""
    if conn.in_transaction:
        yield conn
        return
    begin_immediate(conn, busy_timeout)
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")


# Waiting for another writer: the first pause, and the longest (each pause is a random part of
# the current step, so writers that collided do not retry in step).
_FIRST_PAUSE = 0.0001
_LONGEST_PAUSE = 0.002


def begin_immediate(conn: sqlite3.Connection, busy_timeout: float) -> None:
    """BEGIN IMMEDIATE, waiting up to `busy_timeout` seconds for another writer in short steps.

    SQLite's own busy handler sleeps 1, 2, 5, 10, 15... ms between tries: with 16 proxies writing,
    a write waited some 20 ms at the 95th percentile for a lock that was free again within one.
    So it is off while the lock is taken (it stays on for reads), and the wait is polled here.
    """
    conn.execute("PRAGMA busy_timeout=0")
    try:
        deadline = time.monotonic() + busy_timeout
        step = _FIRST_PAUSE
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or time.monotonic() >= deadline:
                    raise
            time.sleep(random.uniform(0, step))
            step = min(step * 2, _LONGEST_PAUSE)
    finally:
        conn.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)
