"""Decisions a person began and that wait for a code: what binds a code to one decision.

A person's command or dialog names its decision (the operation and what it acts on) before it asks
for the code. A code then counts only for the decision begun on the connection it arrives on, and
not at all if a decision of another connection was waiting for a code at any moment the code could
have been typed: a process that read the code off the person's terminal, before or after the
person's own process had it, presents it while the person's decision is (or just was) waiting, and
is refused. Kept in the station's memory: a restart closes every connection, and their decisions.
"""

import secrets
from dataclasses import dataclass

from .onetime import PERIOD, WINDOW

DRIFT = (WINDOW + 1) * PERIOD
"""Seconds before its step a code may have been on the person's screen: a phone whose clock runs
ahead shows a code early (one further step ahead, the station would not take its codes at all)."""

REMEMBERED = 2 * DRIFT + PERIOD
"""Seconds a decision that ended without a code is remembered: longer than a code typed while it
waited stays valid (the drift before its step, the step, the window after it)."""

MOST_KEPT = 1024
"""Decisions kept at once (waiting, or remembered), over every connection: memory stays bounded
whatever clients do; past it no decision can begin until older ones are forgotten."""


class TooManyWaiting(RuntimeError):
    """More decisions began lately than the station keeps."""


@dataclass
class Pending:
    """One decision begun on one connection."""

    id: str
    owner: int
    """The connection it was begun on."""
    op: str
    subject: object
    peer: dict
    opened: float
    closed: float | None = None
    spent: bool = False
    """A code was presented for it and used up (whether or not the decision was then taken)."""
    alarm: str | None = None
    """Set when another connection presented a code while this decision waited: its own code is
    refused with this, since it may have been read on its way."""

    def who(self) -> str:
        """What it decides and who began it, for a refusal the person reads."""
        return f"{self.op} begun by uid {self.peer.get('uid')}, pid {self.peer.get('pid')}"

    def describe(self) -> str:
        """`who`, and whether it still waits."""
        return f"{self.who()} ({'waiting' if self.closed is None else 'ended without a code'})"

    def counts_until(self) -> float | None:
        """From when codes no longer meet this one (None while it still waits): a code's step
        must begin more than the drift after it ended."""
        if self.closed is None:
            return None
        return self.closed + DRIFT


class PendingDecisions:
    """The decisions waiting for a code, and those that stopped waiting without one, lately."""

    def __init__(self) -> None:
        self._all: list[Pending] = []

    def begin(self, owner: int, op: str, subject: object, peer: dict, now: float) -> Pending:
        """Start a decision on `owner`'s connection; an earlier one still waiting there ends."""
        self.withdraw(owner, now)
        self._forget_old(now)
        if len(self._all) >= MOST_KEPT:
            # Refused rather than forgetting one early: a forgotten one could be the person's.
            raise TooManyWaiting(
                f"{MOST_KEPT} decisions began in the last {REMEMBERED} seconds; try again later"
            )
        pending = Pending(secrets.token_hex(8), owner, op, subject, peer, now)
        self._all.append(pending)
        return pending

    def withdraw(self, owner: int, now: float) -> None:
        """`owner`'s decision stops waiting (cancelled, or its connection closed), without a code."""
        for pending in self._all:
            if pending.owner == owner and pending.closed is None:
                pending.closed = now

    def waiting(self, owner: int, decision: object) -> Pending | None:
        """The decision `decision` names, if it is `owner`'s and still waits for a code."""
        for pending in self._all:
            if pending.id == decision and pending.owner == owner and pending.closed is None:
                return pending
        return None

    def rivals(self, owner: int, step_began: float) -> list[Pending]:
        """Decisions of other connections that waited for a code, without using one, while a code
        of the step that began at `step_began` could have been on the person's screen."""
        since = step_began - DRIFT
        return [
            p
            for p in self._all
            if p.owner != owner and not p.spent and (p.closed is None or p.closed >= since)
        ]

    def spend(self, pending: Pending, now: float) -> None:
        """A code was presented for `pending` and used up: it no longer waits, nor rivals others."""
        pending.spent = True
        pending.closed = now

    def _forget_old(self, now: float) -> None:
        self._all = [p for p in self._all if p.closed is None or now - p.closed <= REMEMBERED]
