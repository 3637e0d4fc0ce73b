"""The one API for human decisions (approve, untaint, ...), shared by the CLI and the review app."""

from datetime import timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from .clock import stamp
from .states import (
    CLEARING_ACTIONS,
    Action,
    Actor,
    CallStatus,
    DriftChange,
    DriftStatus,
    FieldStatus,
    ReleasedAs,
)

if TYPE_CHECKING:
    from .store import Store


class DecisionError(RuntimeError):
    """A decision that cannot be taken (unknown id, already used, expired)."""


def _reread(row: dict | None, what: str) -> dict:
    """The row as the decision left it; gone only if the store file was replaced meanwhile."""
    if row is None:
        raise DecisionError(f"{what} is no longer in the store (was the store file replaced?)")
    return row


class Decisions:
    """Each method changes state and writes its audit row in one transaction."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def approve(self, blocked_id: int, *, note: str | None = None) -> dict:
        """Let exactly this blocked call through once, within the token's time window."""
        row = self._store.blocked.get(blocked_id)
        if row is None:
            raise DecisionError(f"no blocked call {blocked_id}")
        if row["status"] != CallStatus.PENDING:
            raise DecisionError(f"blocked call {blocked_id} is {row['status']}, not pending")
        window = self._store.blocked.approval_window(row)
        now = self._store.clock()
        with self._store.write() as conn:
            changed = conn.execute(
                "UPDATE blocked_calls SET status = ?, decided_at = ?, expires_at = ?"
                " WHERE id = ? AND status = ?",
                (
                    CallStatus.APPROVED,
                    stamp(now),
                    stamp(now + window),
                    blocked_id,
                    CallStatus.PENDING,
                ),
            ).rowcount
            if not changed:
                raise DecisionError(f"blocked call {blocked_id} was decided meanwhile")
            self._store.audit.append(
                conn,
                Actor.HUMAN,
                Action.APPROVE,
                session=row["session"],
                subject=f"blocked:{blocked_id}",
                reason=row["reason"],
                detail={
                    "server": row["server"],
                    "tool": row["tool"],
                    "taint": row["taint_reason"],
                    "note": note,
                },
            )
        return _reread(self._store.blocked.get(blocked_id), f"blocked call {blocked_id}")

    def untaint(
        self, session: str, *, seen_up_to: int | None = None, note: str | None = None
    ) -> int:
        """Clear a session's taint; return how many taint events were cleared.

        `seen_up_to` is the newest taint event the person was shown: a read that arrived
        while they were deciding stays, so nothing is cleared unseen.
        """
        state = self._store.sessions.state(session)
        if not state.tainted:
            raise DecisionError(f"session {session} is not tainted")
        return self._store.sessions.clear(
            session, Actor.HUMAN, f"cleared by a person: {state.summary()}", note, up_to=seen_up_to
        )

    def release(
        self,
        quarantine_id: str,
        *,
        released_as: ReleasedAs = ReleasedAs.VISIBLE,
        note: str | None = None,
    ) -> dict:
        """Let the agent read a withheld field on its next read of the same content: its visible
        text (hidden content removed) or, when `released_as` says so, the original."""
        try:
            what = ReleasedAs(released_as)
        except ValueError:
            raise DecisionError(
                f"a field is released as {' or '.join(ReleasedAs)}, not {released_as!r}"
            ) from None
        row = self._store.quarantine.get(quarantine_id)
        if row is None:
            raise DecisionError(f"no withheld field {quarantine_id}")
        if row["status"] != FieldStatus.WITHHELD:
            raise DecisionError(f"{row['id']} is already {row['status']}")
        with self._store.write() as conn:
            changed = conn.execute(
                "UPDATE quarantine SET status = ?, released_as = ?, decided_at = ?"
                " WHERE id = ? AND status = ?",
                (FieldStatus.RELEASED, what, self._store.now(), row["id"], FieldStatus.WITHHELD),
            ).rowcount
            if not changed:
                raise DecisionError(f"{row['id']} was decided meanwhile")
            names = ", ".join(sorted({s["name"] for s in row["signals"]})) or "hidden content"
            self._store.audit.append(
                conn,
                Actor.HUMAN,
                Action.RELEASE,
                session=row["session"],
                subject=row["id"],
                reason=f"{row['server']}/{row['tool'] or row['method']}: {names}",
                detail={"released_as": what, "note": note},
            )
        return _reread(self._store.quarantine.get(row["id"]), f"withheld field {row['id']}")

    def accept_drift(self, drift_id: int, *, note: str | None = None) -> dict:
        """Pin the new version of a drifted entry (a removal unpins it); the proxy shows it again."""
        drift = self._pending_drift(drift_id)
        with self._store.write() as conn:
            if drift["change"] == DriftChange.REMOVED:
                conn.execute(
                    "DELETE FROM pins WHERE server = ? AND command = ? AND kind = ? AND name = ?",
                    (drift["server"], drift["command"], drift["kind"], drift["name"]),
                )
            else:
                conn.execute(
                    "INSERT INTO pins (server, command, kind, name, canonical, sha256, pinned_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(server, command, kind, name) DO UPDATE SET"
                    " canonical = excluded.canonical, sha256 = excluded.sha256, pinned_at = excluded.pinned_at",
                    (
                        drift["server"],
                        drift["command"],
                        drift["kind"],
                        drift["name"],
                        drift["new_canonical"],
                        drift["new_sha256"],
                        self._store.now(),
                    ),
                )
            self._decide_drift(conn, drift, DriftStatus.ACCEPTED, note)
        return _reread(self._store.pins.get(drift_id), f"pin drift {drift_id}")

    def reject_drift(self, drift_id: int, *, note: str | None = None) -> dict:
        """Keep the pinned version: the drifted entry stays hidden and refused."""
        drift = self._pending_drift(drift_id)
        with self._store.write() as conn:
            self._decide_drift(conn, drift, DriftStatus.REJECTED, note)
        return _reread(self._store.pins.get(drift_id), f"pin drift {drift_id}")

    def _pending_drift(self, drift_id: int) -> dict:
        drift = self._store.pins.get(drift_id)
        if drift is None:
            raise DecisionError(f"no pin drift {drift_id}")
        if drift["status"] != DriftStatus.PENDING:
            raise DecisionError(f"pin drift {drift_id} is already {drift['status']}")
        return drift

    def _decide_drift(self, conn, drift: dict, status: DriftStatus, note: str | None) -> None:
        changed = conn.execute(
            "UPDATE pin_drift SET status = ?, decided_at = ? WHERE id = ? AND status = ?",
            (status, self._store.now(), drift["id"], DriftStatus.PENDING),
        ).rowcount
        if not changed:
            raise DecisionError(f"pin drift {drift['id']} was decided meanwhile")
        action = Action.ACCEPT_DRIFT if status == DriftStatus.ACCEPTED else Action.REJECT_DRIFT
        self._store.audit.append(
            conn,
            Actor.HUMAN,
            action,
            subject=f"drift:{drift['id']}",
            reason=f"{drift['server']}: {drift['kind']} {drift['name']} {drift['change']}",
            detail={"note": note},
        )

    def dismiss_field(self, quarantine_id: str, *, note: str | None = None) -> None:
        """Mark a withheld field reviewed; it stays withheld."""
        self._dismiss("quarantine", quarantine_id, quarantine_id, "withheld field", note)

    def dismiss_call(self, blocked_id: int, *, note: str | None = None) -> None:
        """Mark a blocked call reviewed; it stays refused."""
        self._dismiss("blocked_calls", blocked_id, f"blocked:{blocked_id}", "blocked call", note)

    def undismiss_field(self, quarantine_id: str, *, note: str | None = None) -> None:
        """Take a dismissal back: the field, still withheld, waits for a decision again."""
        self._undismiss(
            "quarantine", quarantine_id, quarantine_id, FieldStatus.WITHHELD, "withheld field", note
        )

    def undismiss_call(self, blocked_id: int, *, note: str | None = None) -> None:
        """Take a dismissal back: the call, still pending, waits for a decision again."""
        self._undismiss(
            "blocked_calls",
            blocked_id,
            f"blocked:{blocked_id}",
            CallStatus.PENDING,
            "blocked call",
            note,
        )

    def _dismiss(
        self, table: str, item_id: str | int, subject: str, what: str, note: str | None
    ) -> None:
        with self._store.write() as conn:
            changed = conn.execute(
                f"UPDATE {table} SET reviewed_at = ? WHERE id = ? AND reviewed_at IS NULL",
                (self._store.now(), item_id),
            ).rowcount
            if not changed:
                raise DecisionError(f"no unreviewed {what} {item_id}")
            self._store.audit.append(
                conn,
                Actor.HUMAN,
                Action.DISMISS,
                subject=subject,
                reason="reviewed; kept withheld",
                detail={"note": note},
            )

    def _undismiss(
        self,
        table: str,
        item_id: str | int,
        subject: str,
        status: StrEnum,
        what: str,
        note: str | None,
    ) -> None:
        with self._store.write() as conn:
            changed = conn.execute(
                f"UPDATE {table} SET reviewed_at = NULL WHERE id = ? AND reviewed_at IS NOT NULL"
                " AND status = ?",
                (item_id, status),
            ).rowcount
            if not changed:
                raise DecisionError(f"no dismissed {what} {item_id} that is still {status}")
            self._store.audit.append(
                conn,
                Actor.HUMAN,
                Action.UNDISMISS,
                subject=subject,
                reason=f"dismissal taken back; {status} and waiting again",
                detail={"note": note},
            )

    def clearances(self, *, within: timedelta) -> int:
        """How many clearing decisions people took recently: friction grows with this."""
        since = stamp(self._store.clock() - within)
        marks = ",".join("?" for _ in CLEARING_ACTIONS)
        rows = self._store.query(
            f"SELECT count(*) AS n FROM audit WHERE actor = ? AND action IN ({marks}) AND at >= ?",
            (Actor.HUMAN, *CLEARING_ACTIONS, since),
        )
        return rows[0]["n"]
