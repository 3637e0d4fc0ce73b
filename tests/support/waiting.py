"""Waiting for a state another process or thread reaches, never for a time.

The condition is checked again and again until it holds; the bound only stops a test whose state
never comes, and is generous (READ_TIMEOUT) so that a loaded machine is slow, not failing.
"""

import time
from collections.abc import Callable

from support.terminal import READ_TIMEOUT

_POLL = 0.02


def wait_for(
    condition: Callable[[], object], what: str, seen: Callable[[], object] | None = None
) -> None:
    """Return once `condition()` is true; fail saying `what` never happened (and `seen()` if given)."""
    deadline = time.monotonic() + READ_TIMEOUT
    while not condition():
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what} never happened" + (f": {seen()!r}" if seen else ""))
        time.sleep(_POLL)
