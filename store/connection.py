"""Opening the SQLite file: WAL, a busy timeout, migrations, and write transactions."""

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

# The number of migrations in schema.py. A store whose user_version equals it opens
# without importing sqlite-utils, which keeps a proxy's start-up light.
SCHEMA_VERSION = 8


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
            _migrate(conn)
        return conn
    except (sqlite3.Error, OSError) as exc:
        raise StoreUnavailable(f"cannot open the store at {path}: {exc}") from exc


def _migrate(conn: sqlite3.Connection) -> None:
    # Imported here: only a new or older store pays for sqlite-utils.
    from sqlite_utils import Database

    from .schema import migrate

    # BEGIN IMMEDIATE serializes proxies that start at once on a fresh store; the
    # migrations' own transactions nest inside it as savepoints.
    with write_transaction(conn):
        migrate(Database(conn))


@contextmanager
def write_transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE ... COMMIT: take the write lock up front, so no reader has to upgrade."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")
