"""Pins in the message flow: lists and instructions screened, and tools re-listed when they change."""

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from lazaretto.store import StoreUnavailable

from ..pins.guard import INSTRUCTIONS, LISTS, PinGuard
from .correlation import Pending


@dataclass
class _Recheck:
    notice: bytes  # the server's notifications/tools/list_changed, passed on once screened
    deferred: list[bytes] = field(default_factory=list)  # client lines with a tools/call


class ToolRecheck:
    """While the proxy re-lists tools after the server said they changed, tool calls wait, and so
    does the server's notice; both go on once the new list has been screened."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: _Recheck | None = None

    def hold(self, raw: bytes) -> bool:
        """Keep a client line that may call a tool until the re-list is screened."""
        with self._lock:
            if self._waiting is not None and b'"tools/call"' in raw:
                self._waiting.deferred.append(raw)
                return True
        return False

    def start(self, notice: bytes) -> bool:
        """Begin a re-list for this notice; False when one is under way (the notice is dropped)."""
        with self._lock:
            if self._waiting is not None:
                return False
            self._waiting = _Recheck(notice)
            return True

    def finish(self) -> tuple[bytes, list[bytes]] | None:
        """End the re-list: the held notice and client lines, or None when none was under way."""
        with self._lock:
            waiting, self._waiting = self._waiting, None
        return None if waiting is None else (waiting.notice, waiting.deferred)


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
