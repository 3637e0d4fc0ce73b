"""Checks the reviewer passphrase for each decision, and locks clearances after wrong guesses."""

import json
import os
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from ..clock import Clock, parse_stamp, stamp, system_clock
from .passphrase import hash_record, matches, read_record, write_record
from .protocol import ErrorCode, ProofError


@dataclass(frozen=True)
class GuardStatus:
    """Whether clearances are locked, until when, and the wrong guesses in a row so far."""

    locked: bool
    locked_until: str | None
    failures: int
    passphrase_set: bool


class ProofGuard:
    """The one place a passphrase is compared; wrong guesses in a row lock every clearance.

    Checks run one at a time (each costs a scrypt hash), so guessing in parallel is no faster.
    The count of wrong guesses and the lock survive a restart of the station.
    """

    def __init__(
        self,
        passphrase_path: Path,
        state_path: Path,
        *,
        attempts: int = 5,
        lockout: timedelta = timedelta(minutes=15),
        clock: Clock = system_clock,
    ) -> None:
        self.passphrase_path = passphrase_path
        self.state_path = state_path
        self.attempts = attempts
        self.lockout = lockout
        self.clock = clock
        self._lock = threading.Lock()

    def check(self, passphrase: object) -> None:
        """Return if `passphrase` is the reviewer's and clearances are not locked; else raise
        ProofError (the station audits the refusal it answers with)."""
        with self._lock:
            error = self._judge(passphrase)
        if error is not None:
            raise error

    def change(self, current: object, new: str) -> None:
        """Replace the passphrase, after checking the current one like any decision."""
        self.check(current)
        with self._lock:
            write_record(self.passphrase_path, hash_record(new))

    def status(self) -> GuardStatus:
        """The lock as it stands now."""
        with self._lock:
            failures, until = self._read_state()
            now = self.clock()
            locked = until is not None and now < until
            return GuardStatus(
                locked,
                stamp(until) if locked and until else None,
                failures,
                read_record(self.passphrase_path) is not None,
            )

    def _judge(self, passphrase: object) -> ProofError | None:
        failures, until = self._read_state()
        now = self.clock()
        if until is not None and now < until:
            return ProofError(
                f"clearances are locked until {stamp(until)} after {self.attempts} wrong passphrases "
                "in a row; nothing was checked",
                ErrorCode.LOCKED,
                stamp(until),
            )
        if until is not None:
            failures, until = 0, None  # the lock ran out: a fresh count
        if not isinstance(passphrase, str) or not passphrase:
            return ProofError(
                "this needs the reviewer passphrase, typed by a person", ErrorCode.PROOF_REQUIRED
            )
        record = read_record(self.passphrase_path)
        if record is None:
            return ProofError(
                "no reviewer passphrase is set: run `sudo lazaretto station install` (or "
                "`lazaretto station passphrase`)",
                ErrorCode.NO_PASSPHRASE,
            )
        if matches(passphrase, record):
            self._write_state(0, None)
            return None
        failures += 1
        if failures >= self.attempts:
            until = now + self.lockout
            self._write_state(failures, until)
            return ProofError(
                f"wrong passphrase ({failures} in a row): clearances are locked until {stamp(until)}",
                ErrorCode.LOCKED,
                stamp(until),
            )
        self._write_state(failures, None)
        return ProofError(
            f"wrong passphrase ({failures} in a row; {self.attempts - failures} more and clearances "
            f"lock for {int(self.lockout.total_seconds() // 60)} minutes)",
            ErrorCode.WRONG_PASSPHRASE,
        )

    def _read_state(self) -> tuple[int, datetime | None]:
        try:
            state = json.loads(self.state_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return 0, None
        except (OSError, ValueError):
            # An unreadable count is not a clean slate: it becomes a fresh lock, which runs out.
            until = self.clock() + self.lockout
            self._write_state(self.attempts, until)
            return self.attempts, until
        until = state.get("locked_until")
        return int(state.get("failures", 0)), parse_stamp(until) if until else None

    def _write_state(self, failures: int, until: datetime | None) -> None:
        temporary = self.state_path.with_name(self.state_path.name + ".new")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(
                {"failures": failures, "locked_until": stamp(until) if until else None}, handle
            )
        os.replace(temporary, self.state_path)
