"""The work one hook run may do, well inside the client's hook timeout: past it the hook refuses.

Every client lets a call through when its hook times out (Claude Code and Codex run the tool,
Cursor most events), so a hook must answer before that, whatever it is given. Two bounds hold:

- counted work, for the shell reader (bytes of shell text parsed, programs read): it grows with
  the input, so a crafted input meets it quickly and the answer does not depend on the machine's
  load;
- a deadline, for everything else (a slow store, a slow file, a step that does not count): the
  cooperative checks raise before it, and the hook process itself (see `watchdog`) answers the
  fail-closed way at it if the work has not.

A run over either bound raises OverBudget, which the client adapters answer as any failure: a
deny, or the output withheld, each with the reason.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

# Not dataclasses or typing: the thin hook reads its deadline from here, and those imports would
# be most of its start-up (annotations are not evaluated; the type variable is the checker's).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

CLIENT_TIMEOUT_SECONDS = 30
"""The timeout `lazaretto install` writes for each hook: the client kills the hook after it."""
BUDGET_SECONDS = 20.0
"""A hook run's deadline: two thirds of the client's timeout, so that a slow start (the
interpreter on a loaded machine) and the fail-closed answer fit in the last third, while a fresh
detector's first cleaning on that machine still fits before it."""
BUDGET_ENV = "LAZARETTO_HOOK_BUDGET_SECONDS"
"""Lowers the deadline (never raises it past BUDGET_SECONDS)."""
COOPERATIVE_SHARE = 0.8
"""The share of the deadline after which counted work stops on its own, leaving the rest to answer."""

MAX_SHELL_BYTES = 512 * 1024
"""Shell text one hook run parses, counting each re-reading (a script run twice is read twice)."""
MAX_PROGRAMS = 20_000
"""Programs one hook run reads on its command lines and in the scripts they run."""
MAX_WORDS = 100_000
"""Words one hook run reads, counted as they are read and again for each program that holds them
(a wrapper's command counts with the wrapper and again on its own)."""


class OverBudget(RuntimeError):
    """The hook run used up its work or its time: refuse or withhold, saying so."""


def budget_seconds(environ: Mapping[str, str] | None = None) -> float:
    """The deadline of a hook run, in seconds from its start."""
    raw = (os.environ if environ is None else environ).get(BUDGET_ENV)
    try:
        chosen = float(raw) if raw else BUDGET_SECONDS
    except ValueError:
        chosen = BUDGET_SECONDS
    return min(chosen, BUDGET_SECONDS) if chosen > 0 else BUDGET_SECONDS


class Budget:
    """What is left of one hook run's work, and what it already worked out (done once per run)."""

    __slots__ = ("deadline", "programs", "readings", "shell_bytes", "words")

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.shell_bytes = MAX_SHELL_BYTES
        self.programs = MAX_PROGRAMS
        self.words = MAX_WORDS
        self.readings: dict[object, object] = {}
        """What the run already worked out, by what it is of: a command line's reading, the
        places the checks guard (see `remembered`)."""

    def remembered(self, key: object, compute: Callable[[], T]) -> T:
        """`compute()`, worked out once per hook run."""
        if key not in self.readings:
            self.readings[key] = compute()
        return self.readings[key]  # type: ignore[return-value]

    def parse(self, size: int) -> None:
        """Spend `size` bytes of shell text."""
        self.shell_bytes -= size
        if self.shell_bytes < 0:
            raise OverBudget(
                f"the command line and the scripts it runs hold more than {MAX_SHELL_BYTES} bytes"
                " of shell for the hook to read"
            )
        self.clock()

    def program(self) -> None:
        """Spend one program read."""
        self.programs -= 1
        if self.programs < 0:
            raise OverBudget(
                f"the command line and the scripts it runs hold more than {MAX_PROGRAMS} programs"
                " for the hook to read"
            )
        if not self.programs % 256:
            self.clock()

    def words_read(self, count: int) -> None:
        """Spend `count` words (read from the line, or recorded as a program's arguments)."""
        self.words -= count
        if self.words < 0:
            raise OverBudget(
                f"the command line and the scripts it runs hold more than {MAX_WORDS} words for"
                " the hook to read"
            )
        if not self.words % 4096:
            self.clock()

    def seconds_left(self) -> float:
        """The time left before the run's work must stop."""
        return self.deadline - time.monotonic()

    def clock(self) -> None:
        """Raise OverBudget once the run's share of its deadline is spent."""
        if time.monotonic() > self.deadline:
            raise OverBudget("the hook ran out of time before it could decide")


_CURRENT: ContextVar[Budget | None] = ContextVar("hook_budget", default=None)


def current() -> Budget:
    """The budget of the hook run in progress; outside one, a fresh budget for one reading."""
    found = _CURRENT.get()
    if found is not None:
        return found
    return Budget(time.monotonic() + BUDGET_SECONDS * COOPERATIVE_SHARE)


@contextmanager
def running(seconds: float | None = None) -> Iterator[Budget]:
    """One hook run's budget, from now."""
    total = budget_seconds() if seconds is None else seconds
    budget = Budget(time.monotonic() + total * COOPERATIVE_SHARE)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)
