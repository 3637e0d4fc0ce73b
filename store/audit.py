"""The audit log: append-only, each row hashed together with the one before it."""

import json
import os
import sqlite3
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, NamedTuple

from .canonical import canonical_json, sha256_hex
from .consistency import cross_check

if TYPE_CHECKING:
    from .store import Store

GENESIS = "0" * 64

AUDIT_PEER: ContextVar[dict | None] = ContextVar("audit_peer", default=None)
"""The credentials of the station client a request came from: every row it writes records them."""
_FIELDS = ("id", "at", "actor", "action", "session", "subject", "reason", "detail")


def row_hash(prev_hash: str, row: dict) -> str:
    """The chain link: sha256 over the previous hash and this row's canonical fields.

    The account (`uid`) is one of them where the row has one: rows from before it was recorded
    keep the hashes they were made with, and blanking a row's account breaks its link.
    """
    fields = {k: row.get(k) for k in _FIELDS}
    if row.get("uid") is not None:
        fields["uid"] = row["uid"]
    return sha256_hex(prev_hash + canonical_json(fields))


def _own_uid() -> int | None:
    """This process's account, where the platform has such numbers."""
    getuid = getattr(os, "getuid", None)
    return getuid() if getuid else None


class Verification(NamedTuple):
    """The outcome of `lazaretto log --verify`."""

    ok: bool
    rows: int
    first_bad_id: int | None = None
    problem: str = ""
    findings: tuple[str, ...] = ()
    """State the log does not account for (a cleared taint with no untaint row, ...), one line each."""


class AuditLog:
    """Appends and verifies audit rows; every decision, human or automatic, lands here."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def append(
        self,
        conn: sqlite3.Connection,
        actor: str,
        action: str,
        *,
        session: str | None = None,
        subject: str | None = None,
        reason: str | None = None,
        detail: Any = None,
    ) -> int:
        """Append one row inside the caller's write transaction (so the chain never forks)."""
        peer = AUDIT_PEER.get()
        if peer is not None:
            detail = {**(detail or {}), "peer": peer}
        # Who asked: a station's client as the kernel reported it, else this process itself.
        uid = peer.get("uid") if peer is not None else _own_uid()
        head = conn.execute("SELECT last_id, last_hash FROM audit_head WHERE id = 1").fetchone()
        prev_id, prev_hash = (head[0], head[1]) if head else (0, GENESIS)
        row = {
            "id": prev_id + 1,
            "at": self._store.now(),
            "actor": actor,
            "action": action,
            "session": session,
            "subject": subject,
            "reason": reason,
            "detail": None if detail is None else canonical_json(detail),
            "uid": uid,
        }
        row["prev_hash"] = prev_hash
        row["hash"] = row_hash(prev_hash, row)
        conn.execute(
            "INSERT INTO audit (id, at, actor, action, session, subject, reason, detail, uid,"
            " prev_hash, hash) VALUES (:id, :at, :actor, :action, :session, :subject, :reason,"
            " :detail, :uid, :prev_hash, :hash)",
            row,
        )
        conn.execute(
            "INSERT INTO audit_head (id, last_id, last_hash) VALUES (1, ?, ?)"
            " ON CONFLICT(id) DO UPDATE SET last_id = excluded.last_id, last_hash = excluded.last_hash",
            (row["id"], row["hash"]),
        )
        return row["id"]

    def record(
        self,
        actor: str,
        action: str,
        *,
        session: str | None = None,
        subject: str | None = None,
        reason: str | None = None,
        detail: Any = None,
    ) -> int:
        """Append one row in a write transaction of its own (raises StoreUnavailable)."""
        with self._store.write() as conn:
            return self.append(
                conn, actor, action, session=session, subject=subject, reason=reason, detail=detail
            )

    def rows(self, limit: int | None = None, *, newest_first: bool = False) -> list[dict]:
        """Audit rows with `detail` decoded."""
        order = "DESC" if newest_first else "ASC"
        sql = f"SELECT * FROM audit ORDER BY id {order}"
        params: tuple = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (limit,)
        return _decoded(self._store.query(sql, params))

    def get(self, audit_id: int) -> dict | None:
        """One row by id, `detail` decoded."""
        rows = _decoded(self._store.query("SELECT * FROM audit WHERE id = ?", (audit_id,)))
        return rows[0] if rows else None

    def verify(self) -> Verification:
        """Walk the chain from the start; name the first row that does not fit."""
        expected_prev = GENESIS
        expected_id = 1
        count = 0
        for row in self._store.query("SELECT * FROM audit ORDER BY id"):
            count += 1
            if row["id"] != expected_id:
                return Verification(False, count, row["id"], f"row {expected_id} is missing")
            if row["prev_hash"] != expected_prev:
                return Verification(
                    False, count, row["id"], "its link to the previous row is broken"
                )
            if row_hash(row["prev_hash"], row) != row["hash"]:
                return Verification(False, count, row["id"], "its content does not match its hash")
            expected_prev = row["hash"]
            expected_id += 1
        head = self._store.query("SELECT last_id, last_hash FROM audit_head WHERE id = 1")
        last_id, last_hash = (head[0]["last_id"], head[0]["last_hash"]) if head else (0, GENESIS)
        if last_id != count or last_hash != expected_prev:
            return Verification(
                False, count, max(last_id, count), "the log ends early: later rows were removed"
            )
        findings = tuple(cross_check(self._store))
        if findings:
            return Verification(
                False, count, None, "the state tables and the log disagree", findings
            )
        return Verification(True, count)


def _decoded(rows: list[dict]) -> list[dict]:
    """Rows with their `detail` JSON decoded."""
    for row in rows:
        row["detail"] = json.loads(row["detail"]) if row["detail"] else None
    return rows
