"""The filter line: shown while it is typed into or holds a filter, gone (no row spent) otherwise."""

from dataclasses import dataclass

from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input

FILTER_DELAY = 0.3
"""Seconds of quiet typing before the filter runs: a rare word scans the whole table."""


class FilterLine(Input):
    """One line of text every list is filtered by; posts `Applied` once the text settles."""

    BINDINGS = [Binding("escape", "clear", "Clear filter", tooltip="Show every row again.")]

    @dataclass
    class Applied(Message):
        """The filter text changed and settled (typing paused, enter or escape)."""

        text: str
        done: bool
        """The person left the line (enter or escape): the list takes the keys again."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder="filter: server, tool, path, signal, id (enter keeps it, escape clears it)",
            id=id,
            compact=True,
        )
        self.applied = ""
        """The filter every list shows now."""
        self._timer: Timer | None = None

    def open(self) -> None:
        """Show the line and type into it."""
        self.add_class("-active")
        self.focus()

    @on(Input.Changed)
    def _typed(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(FILTER_DELAY, self._apply)

    @on(Input.Submitted)
    def _entered(self) -> None:
        self._apply(done=True)

    def action_clear(self) -> None:
        """Empty the filter (every row shows again) and hide the line."""
        self.value = ""
        self._apply(done=True)

    def on_blur(self) -> None:
        self.set_class(bool(self.value), "-active")

    def _apply(self, *, done: bool = False) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        changed = self.value != self.applied
        self.applied = self.value
        if changed or done:
            self.post_message(self.Applied(self.value, done))
