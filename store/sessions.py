"""Sessions and their taint: which untrusted reads exposed which agent client, and when."""

import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, NamedTuple

from .clients import client_gone, client_label
from .clock import parse_stamp
from .states import Action, Actor, SessionState

if TYPE_CHECKING:
    from .store import Store


class TaintState(NamedTuple):
    """Whether a session is tainted, and the reads that tainted it (oldest first)."""

    tainted: bool
    reasons: list[dict]

    def summary(self) -> str:
        """One line naming the read that started the taint."""
        if not self.reasons:
            return "not tainted"
        first = self.reasons[0]
        others = len(self.reasons) - 1
        more = f" (and {others} other source{'s' if others > 1 else ''})" if others else ""
        return f"{first['reason']} at {first['at']}{more}"


class Sessions:
    """One row per agent client; taint events hang off it until a person clears them."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def ensure(
        self,
        key: str,
        *,
        client_pid: int | None = None,
        client_name: str | None = None,
        client_session_id: str | None = None,
        client_started: int | None = None,
    ) -> None:
        """Record the session on first sight; later callers only add the client's own id."""
        self._store.live_sessions.add(key)
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO sessions (key, created_at, client_pid, client_name, client_session_id,"
                " client_started) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET"
                " client_session_id = coalesce(excluded.client_session_id,"
                " sessions.client_session_id)",
                (
                    key,
                    self._store.now(),
                    client_pid,
                    client_name,
                    client_session_id,
                    client_started,
                ),
            )

    def label_nonce(self, key: str) -> str:
        """The session's random nonce for provenance tags, made on first use and shared by its proxies."""
        candidate = secrets.token_hex(6)
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO sessions (key, created_at) VALUES (?, ?) ON CONFLICT(key) DO NOTHING",
                (key, self._store.now()),
            )
            conn.execute(
                "UPDATE sessions SET label_nonce = ? WHERE key = ? AND label_nonce IS NULL",
                (candidate, key),
            )
            return conn.execute(
                "SELECT label_nonce FROM sessions WHERE key = ?", (key,)
            ).fetchone()[0]

    def taint(
        self,
        key: str,
        *,
        server: str,
        tool: str | None,
        method: str,
        reason: str,
        request_id: str | None = None,
    ) -> bool:
        """Record an untrusted read; return True if it newly tainted the session."""
        self._store.live_sessions.add(key)
        with self._store.write() as conn:
            already = conn.execute(
                "SELECT 1 FROM taint_events WHERE session = ? AND cleared_at IS NULL LIMIT 1",
                (key,),
            ).fetchone()
            conn.execute(
                "INSERT INTO taint_events (session, server, tool, method, request_id, reason, at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, server, tool, method, request_id, reason, self._store.now()),
            )
            if already:
                return False
            self._store.audit.append(
                conn,
                Actor.PROXY,
                Action.TAINT,
                session=key,
                subject=f"{server}/{tool or method}",
                reason=reason,
            )
        # The first taint decides what every later proxy and hook of the session does.
        self._store.durable()
        return True

    def has_open_taint(self, key: str, server: str, tool: str | None) -> bool:
        """Whether this source already has an open taint event in the session."""
        return bool(
            self._store.query(
                "SELECT 1 FROM taint_events WHERE session = ? AND cleared_at IS NULL AND server = ? AND tool IS ?"
                " LIMIT 1",
                (key, server, tool),
            )
        )

    def state(self, key: str, *, idle_expiry_minutes: float | None = None) -> TaintState:
        """The session's taint; with an opt-in idle expiry, old taint is cleared (and audited)."""
        rows = self._store.query(
            "SELECT id, server, tool, method, reason, at FROM taint_events"
            " WHERE session = ? AND cleared_at IS NULL ORDER BY id",
            (key,),
        )
        if rows and idle_expiry_minutes is not None:
            newest = parse_stamp(rows[-1]["at"])
            if self._store.clock() - newest > timedelta(minutes=idle_expiry_minutes):
                self.clear(
                    key, Actor.IDLE_EXPIRY, f"no untrusted read for {idle_expiry_minutes:g} minutes"
                )
                return TaintState(False, [])
        return TaintState(bool(rows), rows)

    def clear(
        self,
        key: str,
        actor: Actor,
        reason: str,
        note: str | None = None,
        *,
        up_to: int | None = None,
    ) -> int:
        """Clear the session's open taint events (those up to event id `up_to`) and audit it."""
        with self._store.write() as conn:
            cleared = conn.execute(
                "UPDATE taint_events SET cleared_at = ?, cleared_by = ? WHERE session = ? AND cleared_at IS NULL"
                " AND id <= ?",
                (self._store.now(), actor, key, up_to if up_to is not None else 2**62),
            ).rowcount
            if cleared:
                self._store.audit.append(
                    conn,
                    actor,
                    Action.UNTAINT,
                    session=key,
                    reason=reason,
                    detail={"events": cleared, "note": note},
                )
            return cleared

    def all(self) -> list[dict]:
        """Every session, newest first, with its open taint events."""
        sessions = self._store.query("SELECT * FROM sessions ORDER BY created_at DESC")
        events = self._store.query(
            "SELECT session, server, tool, method, reason, at FROM taint_events"
            " WHERE cleared_at IS NULL ORDER BY id"
        )
        by_session: dict[str, list[dict]] = {}
        for event in events:
            by_session.setdefault(event["session"], []).append(event)
        known = {row["key"] for row in sessions}
        # Taint recorded by a writer that never registered the session still counts.
        for key in by_session.keys() - known:
            sessions.append({"key": key, "created_at": by_session[key][0]["at"]})
        for row in sessions:
            row["reasons"] = by_session.get(row["key"], [])
            row["tainted"] = bool(row["reasons"])
            row["ended"] = client_gone(row.get("client_pid"), row.get("client_started"))
            row["label"] = session_label(row)
        return sessions

    def ended(self, keys: set[str]) -> set[str]:
        """Those of `keys` whose session's client has exited."""
        if not keys:
            return set()
        marks = ", ".join("?" for _ in keys)
        rows = self._store.query(
            f"SELECT key, client_pid, client_started FROM sessions WHERE key IN ({marks})",
            tuple(keys),
        )
        return {row["key"] for row in rows if client_gone(row["client_pid"], row["client_started"])}


def session_state(row: dict) -> SessionState:
    """How a session is labelled wherever sessions are listed (`lazaretto status`, the review app),
    from its row of `Sessions.all()`: an ended session needs nothing from a person, tainted or not."""
    if row.get("ended"):
        return SessionState.ENDED
    return SessionState.TAINTED if row["tainted"] else SessionState.CLEAN


def session_label(row: dict) -> str:
    """The one name a session goes by wherever it is shown (status, the review app, the hooks)."""
    return client_label(
        row.get("client_name"), row.get("client_pid"), row.get("client_started"), row["key"]
    )
