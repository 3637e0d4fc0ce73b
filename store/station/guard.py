"""Checks the proof of each decision and unlock; wrong guesses lock every clearance.

A decision needs a one-time code from the reviewer's authenticator app, typed for a decision its
connection began (`pending`), accepted once (`onetime`). Reading withheld content needs the
reviewer passphrase. Both kinds of wrong guess count towards one lock (`lockout`).
"""

import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ..clock import Clock, stamp, system_clock
from .lockout import Lockout
from .onetime import OneTimeCodes, step_start
from .passphrase import hash_record, matches
from .pending import PendingDecisions
from .protocol import ErrorCode, ProofError
from .state_files import read_state, write_state


@dataclass(frozen=True)
class GuardStatus:
    """Whether clearances are locked, until when, the wrong guesses in a row so far, and which
    secrets are set."""

    locked: bool
    locked_until: str | None
    failures: int
    passphrase_set: bool
    enrolled: bool
    """An authenticator app was enrolled: without one every decision is refused."""


@dataclass(frozen=True)
class StatePaths:
    """The files in the station's state directory that the guard keeps."""

    passphrase: Path
    secret: Path
    spent: Path
    lockout: Path

    @classmethod
    def under(cls, state_dir: Path) -> "StatePaths":
        """The files' names in a station's state directory."""
        return cls(
            state_dir / "passphrase.json",
            state_dir / "authenticator.json",
            state_dir / "spent-codes.json",
            state_dir / "lockout.json",
        )


class ProofGuard:
    """The one place proofs are compared. Checks run one at a time (a passphrase costs a scrypt
    hash), so guessing in parallel is no faster; the count and the lock survive a restart."""

    def __init__(
        self,
        paths: StatePaths,
        *,
        attempts: int = 5,
        lockout: timedelta = timedelta(minutes=15),
        clock: Clock = system_clock,
    ) -> None:
        self.paths = paths
        self.clock = clock
        self.codes = OneTimeCodes(paths.secret, paths.spent)
        self.lockout = Lockout(paths.lockout, attempts=attempts, lockout=lockout, clock=clock)
        self.pending = PendingDecisions()
        self._lock = threading.Lock()

    # -- decisions: a code for a decision begun on the same connection ----------------------

    def begin(self, owner: int, op: str, subject: object, peer: dict) -> str:
        """A person's client is about to ask for a code for this decision; its id, for the proof."""
        with self._lock:
            now = self.clock().timestamp()
            return self.pending.begin(owner, op, subject, peer, now).id

    def withdraw(self, owner: int) -> None:
        """The connection's decision no longer waits (the person cancelled, or it closed)."""
        with self._lock:
            self.pending.withdraw(owner, self.clock().timestamp())

    def check_code(self, owner: int, op: str, subject: object, proof: object) -> None:
        """Return if `proof` carries a fresh code for the decision `owner` began as `op` on
        `subject`; else raise ProofError (the station audits the refusal it answers with)."""
        with self._lock:
            error = self._judge_code(owner, op, subject, proof)
        if error is not None:
            raise error

    def _judge_code(self, owner: int, op: str, subject: object, proof: object) -> ProofError | None:
        now = self.clock()
        locked = self._locked(now)
        if locked is not None:
            return locked
        code, decision = (
            (proof.get("code"), proof.get("decision")) if isinstance(proof, dict) else (None, None)
        )
        if not isinstance(code, str) or not code:
            return ProofError(
                "this needs a one-time code from the reviewer's authenticator app, typed by a "
                "person for this decision",
                ErrorCode.PROOF_REQUIRED,
            )
        if self.codes.enrolment() is None:
            return ProofError(
                "no authenticator app is enrolled: run `sudo lazaretto station enrol`",
                ErrorCode.NOT_ENROLLED,
            )
        step = self.codes.match(code, now)
        if step is None:
            return self._wrong("code")
        seconds = now.timestamp()
        pending = self.pending.waiting(owner, decision)
        fresh = not self.codes.spent(step, now)
        if fresh:
            self.codes.spend(step, now)  # used up from here on, whatever is refused next
        if pending is not None and pending.alarm is not None:
            self.pending.spend(pending, seconds)
            return ProofError(pending.alarm, ErrorCode.CODE_CONFLICT)
        if not fresh:
            # Not a guess (it was right once), so it does not count; nor does it reset the count.
            return ProofError(
                "this code was used already: each code proves one decision, once. Wait for the "
                "next code your app shows",
                ErrorCode.CODE_USED,
            )
        if pending is None:
            return ProofError(
                "the code did not come with a decision begun on this connection; it is used up",
                ErrorCode.NOT_BEGUN,
            )
        self.pending.spend(pending, seconds)
        if (pending.op, pending.subject) != (op, subject):
            return ProofError(
                f"the code was typed for {pending.op} on {pending.subject!r}, not for this "
                "decision; it is used up",
                ErrorCode.NOT_BEGUN,
            )
        rivals = self.pending.rivals(owner, step_start(step))
        if rivals:
            alarm = (
                f"while this decision waited for its code, a code was presented for "
                f"{pending.who()} on another connection: what you type may be read; if that was "
                "not you, find that process"
            )
            for rival in rivals:
                if rival.closed is None:
                    rival.alarm = alarm
            return ProofError(_conflict(rivals), ErrorCode.CODE_CONFLICT)
        self.lockout.succeeded()
        return None

    # -- reading withheld content, changing the passphrase: the passphrase -----------------

    def check_passphrase(self, passphrase: object) -> None:
        """Return if `passphrase` is the reviewer's and clearances are not locked; else raise
        ProofError."""
        with self._lock:
            error = self._judge_passphrase(passphrase)
        if error is not None:
            raise error

    def change(self, current: object, new: str) -> None:
        """Replace the passphrase, after checking the current one."""
        self.check_passphrase(current)
        with self._lock:
            write_state(self.paths.passphrase, hash_record(new))

    def _judge_passphrase(self, passphrase: object) -> ProofError | None:
        locked = self._locked(self.clock())
        if locked is not None:
            return locked
        if not isinstance(passphrase, str) or not passphrase:
            return ProofError(
                "this needs the reviewer passphrase, typed by a person", ErrorCode.PROOF_REQUIRED
            )
        record = read_state(self.paths.passphrase)
        if record is None:
            return ProofError(
                "no reviewer passphrase is set: run `sudo lazaretto station install` (or "
                "`lazaretto station passphrase`)",
                ErrorCode.NO_PASSPHRASE,
            )
        if matches(passphrase, record):
            self.lockout.succeeded()
            return None
        return self._wrong("passphrase")

    # -- the lock --------------------------------------------------------------------------

    def status(self) -> GuardStatus:
        """The lock as it stands now, and which secrets are set."""
        with self._lock:
            state = self.lockout.state()
            until = self.lockout.locked_until()
            return GuardStatus(
                until is not None,
                stamp(until) if until else None,
                0 if state.until is not None and until is None else state.failures,
                read_state(self.paths.passphrase) is not None,
                self.codes.enrolment() is not None,
            )

    def _locked(self, now: datetime) -> ProofError | None:
        until = self.lockout.locked_until()
        if until is None:
            return None
        return ProofError(
            f"clearances are locked until {stamp(until)} after {self.lockout.attempts} wrong "
            "codes or passphrases in a row; nothing was checked",
            ErrorCode.LOCKED,
            stamp(until),
        )

    def _wrong(self, what: str) -> ProofError:
        state = self.lockout.failed()
        if state.until is not None:
            return ProofError(
                f"wrong {what} ({state.failures} in a row): clearances are locked until "
                f"{stamp(state.until)}",
                ErrorCode.LOCKED,
                stamp(state.until),
            )
        left = self.lockout.attempts - state.failures
        return ProofError(
            f"wrong {what} ({state.failures} in a row; {left} more and clearances lock)",
            ErrorCode.WRONG_CODE if what == "code" else ErrorCode.WRONG_PASSPHRASE,
        )


def _conflict(rivals: list) -> str:
    """The refusal of a code met by other decisions waiting, saying which and until when."""
    named = "; ".join(rival.describe() for rival in rivals)
    ends = [rival.counts_until() for rival in rivals]
    when = (
        f"; if those were yours (a command you cancelled), codes shown after "
        f"{stamp(datetime.fromtimestamp(max(ends), tz=UTC))} are not affected"
        if all(end is not None for end in ends)
        else ""
    )
    return (
        f"another decision was waiting for a code while this code could have been typed ({named}):"
        f" the code may have been read off the person's terminal, and is used up{when}"
    )
