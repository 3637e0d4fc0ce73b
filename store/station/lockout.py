"""Wrong proofs in a row lock every clearance; each lock that follows another without a right proof
between them lasts twice as long (up to a day), so guessing six digits stays hopeless for years."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from ..clock import Clock, parse_stamp, stamp
from .state_files import read_state, write_state

LONGEST_LOCK = timedelta(days=1)
"""The cap on a lock's length, however many came before it."""


@dataclass(frozen=True)
class LockState:
    """Wrong proofs in a row, the locks in a row since the last right proof, the current lock."""

    failures: int = 0
    locks: int = 0
    until: datetime | None = None


class Lockout:
    """The count of wrong proofs and the lock, kept in the station's state so a restart keeps them.

    Not thread-safe on its own: `ProofGuard` calls it under its lock.
    """

    def __init__(self, path: Path, *, attempts: int, lockout: timedelta, clock: Clock) -> None:
        self.path = path
        self.attempts = attempts
        self.lockout = lockout
        self.clock = clock

    def state(self) -> LockState:
        """The state as it stands now (a lock that ran out keeps its place in the count of locks)."""
        try:
            record = read_state(self.path)
        except (OSError, ValueError):
            # An unreadable count is not a clean slate: it becomes a fresh lock, which runs out.
            return self._lock(LockState(self.attempts, 0))
        if not record:
            return LockState()
        until = record.get("locked_until")
        return LockState(
            int(record.get("failures", 0)),
            int(record.get("locks", 1 if until else 0)),
            parse_stamp(until) if until else None,
        )

    def locked_until(self) -> datetime | None:
        """When the current lock ends, or None while clearances are not locked."""
        until = self.state().until
        return until if until is not None and self.clock() < until else None

    def failed(self) -> LockState:
        """Count one wrong proof; the one that reaches the limit starts a lock."""
        state = self.state()
        if state.until is not None:
            state = LockState(0, state.locks)  # the last lock ran out: a fresh count of wrong ones
        state = LockState(state.failures + 1, state.locks)
        if state.failures >= self.attempts:
            return self._lock(state)
        self._write(state)
        return state

    def succeeded(self) -> None:
        """A right proof: the count of wrong ones and of locks starts again."""
        if self.state() != LockState():
            self._write(LockState())

    def _lock(self, state: LockState) -> LockState:
        # Doubling stops at the cap (and the exponent with it, so the product cannot overflow).
        longest = max(self.lockout, LONGEST_LOCK)
        length = min(self.lockout * 2 ** min(state.locks, 20), longest)
        locked = LockState(state.failures, state.locks + 1, self.clock() + length)
        self._write(locked)
        return locked

    def _write(self, state: LockState) -> None:
        write_state(
            self.path,
            {
                "failures": state.failures,
                "locks": state.locks,
                "locked_until": stamp(state.until) if state.until else None,
            },
        )
