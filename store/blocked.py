"""Refused calls and their approval tokens: single use, bound to the exact call, expiring."""

import json
import sqlite3
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from .canonical import canonical_json, sha256_hex
from .claims import claimant
from .clock import parse_stamp, stamp
from .states import Action, Actor, CallStatus
from .tokens import hash_token, new_token, token_hint

if TYPE_CHECKING:
    from .store import Store


def arguments_hash(arguments: Any) -> str:
    """What an approval is bound to: the canonical form of the call's arguments."""
    return sha256_hex(canonical_json(arguments))


def call_status(
    stored: str, expires_at: str | None, now: str, session_ended: bool = False
) -> CallStatus:
    """A call's status as of `now`: expiry and lapse are computed on read, so no writer sweeps
    old tokens or the calls of clients that exited."""
    status = CallStatus(stored)
    if status in (CallStatus.PENDING, CallStatus.APPROVED):
        if expires_at and expires_at <= now:
            return CallStatus.EXPIRED
        if session_ended:
            return CallStatus.LAPSED
    return status


class BlockedCalls:
    """Records refusals, and lets exactly one matching call through after a person approves."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def record(
        self,
        *,
        session: str,
        server: str,
        tool: str,
        arguments: Any,
        reason_code: str,
        reason: str,
        hosts: list[str] | None = None,
        outbound_reason: str | None = None,
        taint_reason: str | None = None,
        request_id: str | None = None,
        ttl_minutes: float = 15,
    ) -> str:
        """Store a refused call and return its approval token (the only time it exists in clear)."""
        now = self._store.clock()
        for _ in range(8):
            token = new_token()
            try:
                with self._store.write() as conn:
                    cursor = conn.execute(
                        "INSERT INTO blocked_calls (session, server, tool, request_id, arguments, args_hash,"
                        " reason_code, reason, hosts, outbound_reason, taint_reason, token_hash, token_hint,"
                        " status, created_at, expires_at, recorded_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
                        " ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            session,
                            server,
                            tool,
                            request_id,
                            canonical_json(arguments),
                            arguments_hash(arguments),
                            reason_code,
                            reason,
                            json.dumps(hosts or []),
                            outbound_reason,
                            taint_reason,
                            hash_token(token),
                            token_hint(token),
                            CallStatus.PENDING,
                            stamp(now),
                            stamp(now + timedelta(minutes=ttl_minutes)),
                            claimant(),
                        ),
                    )
                    self._store.audit.append(
                        conn,
                        Actor.PROXY,
                        Action.REFUSE,
                        session=session,
                        subject=f"blocked:{cursor.lastrowid}",
                        reason=reason,
                        detail={"server": server, "tool": tool, "code": reason_code},
                    )
                return token
            except sqlite3.IntegrityError:  # pragma: no cover - a 40-bit token collided
                continue
        raise RuntimeError("could not allocate a unique approval token")

    def consume_approved(
        self, *, session: str, server: str, tool: str, arguments: Any
    ) -> dict | None:
        """If a person approved exactly this call and it is unused and unexpired, use it up."""
        now = self._store.now()
        with self._store.write() as conn:
            row = conn.execute(
                "SELECT * FROM blocked_calls WHERE session = ? AND server = ? AND tool = ? AND args_hash = ?"
                " AND status = ? AND expires_at > ? ORDER BY id LIMIT 1",
                (session, server, tool, arguments_hash(arguments), CallStatus.APPROVED, now),
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "UPDATE blocked_calls SET status = ?, used_at = ? WHERE id = ?",
                (CallStatus.USED, now, row["id"]),
            )
            self._store.audit.append(
                conn,
                Actor.PROXY,
                Action.USE_APPROVAL,
                session=session,
                subject=f"blocked:{row['id']}",
                reason="the approved call went through once",
            )
            return dict(row)

    def by_token(self, token: str) -> dict | None:
        """The blocked call a token belongs to (raises TokenError for a malformed token)."""
        rows = self._store.query(
            "SELECT * FROM blocked_calls WHERE token_hash = ?", (hash_token(token),)
        )
        return self._with_status(rows)[0] if rows else None

    def get(self, blocked_id: int) -> dict | None:
        """One blocked call by id."""
        rows = self._store.query("SELECT * FROM blocked_calls WHERE id = ?", (blocked_id,))
        return self._with_status(rows)[0] if rows else None

    def pending(self) -> list[dict]:
        """Calls still waiting for a person, newest first: not expired, not lapsed (their session's
        client still runs), and not dismissed.

        A dismissed call can still be approved by its token; it no longer waits to be looked at.
        """
        rows = self._store.query(
            "SELECT * FROM blocked_calls WHERE status = ? AND expires_at > ? AND reviewed_at IS NULL"
            " ORDER BY id DESC",
            (CallStatus.PENDING, self._store.now()),
        )
        return [row for row in self._with_status(rows) if row["status"] == CallStatus.PENDING]

    def recent(self, limit: int = 200) -> list[dict]:
        """The newest blocked calls in any state."""
        rows = self._store.query("SELECT * FROM blocked_calls ORDER BY id DESC LIMIT ?", (limit,))
        return self._with_status(rows)

    def _with_status(self, rows: list[dict]) -> list[dict]:
        now = self._store.now()
        undecided = (CallStatus.PENDING, CallStatus.APPROVED)
        ended = self._store.sessions.ended(
            {row["session"] for row in rows if row["status"] in undecided}
        )
        for row in rows:
            row["status"] = call_status(
                row["status"], row["expires_at"], now, row["session"] in ended
            )
            row["arguments"] = json.loads(row["arguments"]) if row["arguments"] else None
            row["hosts"] = json.loads(row["hosts"]) if row["hosts"] else []
            row["recorded_by"] = json.loads(row["recorded_by"]) if row.get("recorded_by") else None
        return rows

    def approval_window(self, row: dict) -> timedelta:
        """How long an approval stays usable: the same span the token had."""
        return parse_stamp(row["expires_at"]) - parse_stamp(row["created_at"])
