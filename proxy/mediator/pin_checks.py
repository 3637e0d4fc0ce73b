"""Pins in the message flow: lists and instructions screened, and tools re-listed when they change."""

import threading
from collections.abc import Callable

from lazaretto.store import StoreUnavailable

from ..pins.guard import INSTRUCTIONS, LISTS, PinGuard
from .correlation import Pending


class CallHold:
    """Tool calls wait while a `tools/list` is in flight, the client's or the proxy's own, so pins
    judge each call against the newest list: a call sent right behind a list that reveals drift
    is refused, not raced past it. A `notifications/tools/list_changed` waits too, until the
    proxy's re-list of the tools it announces has been screened."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lists = 0  # tools/list requests sent and not yet answered
        self._rechecking = False
        self._notices: list[bytes] = []
        self._deferred: list[bytes] = []

    def started(self) -> None:
        """A tools/list went to the server."""
        with self._lock:
            self._lists += 1

    def ended(self) -> None:
        """A tools/list was answered, failed or given up on."""
        with self._lock:
            self._lists = max(0, self._lists - 1)

    def recheck(self, notice: bytes) -> bool:
        """Hold a list_changed notice for a re-list; False when one is under way (pass it on)."""
        with self._lock:
            if self._rechecking:
                return False
            self._rechecking = True
            self._notices.append(notice)
            return True

    def hold(self, raw: bytes) -> bool:
        """Keep a client line that may call a tool while a list is in flight."""
        with self._lock:
            if (self._lists or self._rechecking) and b'"tools/call"' in raw:
                self._deferred.append(raw)
                return True
        return False

    def release(self, *, everything: bool = False) -> tuple[list[bytes], list[bytes]]:
        """The notices and client lines to pass on now: all of them once no list is in flight
        (or `everything`, when the server is gone); none while one is."""
        with self._lock:
            if self._lists and not everything:
                return [], []
            self._rechecking = False
            notices, deferred = self._notices, self._deferred
            self._notices, self._deferred = [], []
            return notices, deferred


def screen_result(
    pins: PinGuard | None, pending: Pending, result: dict, log: Callable[[str], None]
) -> dict | None:
    """A list or `initialize` result with what drifted hidden, or None when nothing changes."""
    if pins is None:
        return None
    try:
        if pending.method in LISTS:
            complete = pending.first_page and not result.get("nextCursor")
            return pins.screen_list(pending.method, result, complete)
        if pending.method in ("initialize", "server/discover"):
            return pins.screen_instructions(result)
    except StoreUnavailable as exc:
        # Without the store nothing can be compared: show no entry that is not known good.
        log(f"pin check impossible, list withheld: {exc}")
        return _emptied(pending.method, result)
    return None


def _emptied(method: str, result: dict) -> dict:
    """A list result with every entry withheld, or instructions withheld."""
    if method in LISTS:
        return {**result, LISTS[method][1]: []}
    return {
        **result,
        INSTRUCTIONS[0]: "[lazaretto: instructions withheld: the pin store is unavailable.]",
    }
