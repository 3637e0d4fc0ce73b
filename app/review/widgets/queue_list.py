"""One kind of queue row as a scrolling list that asks for the next page as the person nears its end."""

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from lazaretto.app.human import short_ago, visible
from lazaretto.store.clock import parse_stamp

from ..queue import QueueItem
from .detail_views import StateStyles

if TYPE_CHECKING:
    from ..tabs import Tab

PREFETCH_ROWS = 30
"""Ask for the next page when the cursor or the scroll position comes this close to the end."""

ROW_LINES = 2
"""Lines per row (see `row_prompt`): how many rows a list of a given height shows."""


def row_prompt(item: QueueItem, age: str, styles: StateStyles) -> Content:
    """Two lines: state, server/tool and age; then the one-line reason."""
    style = styles.get(item.state, "")
    return Content.assemble(
        ("● ", style),
        (f"{item.state:<9}", style),
        " ",
        (visible(item.source), "bold"),
        (f"  {age}", "$text-muted"),
        "\n  ",
        (visible(item.reason), "$text-muted"),
    )


class QueueList(OptionList):
    """The rows of one feed, newest first, grown a page at a time by its screen."""

    BINDINGS = [Binding("enter", "select", "Show in full")]
    """Enter on a row opens it in full (the screen answers the OptionSelected message)."""

    @dataclass
    class ItemHighlighted(Message):
        """The cursor moved onto a row; the detail pane should follow."""

        queue: "QueueList"
        item: QueueItem

        @property
        def control(self) -> "QueueList":
            """The list the row is in."""
            return self.queue

    @dataclass
    class MoreWanted(Message):
        """The person is near the end of what is loaded; the screen should load the next page."""

        queue: "QueueList"

        @property
        def control(self) -> "QueueList":
            """The list that wants more rows."""
            return self.queue

    def __init__(self, tab: "Tab", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tab = tab
        self.kind = tab.kind
        self.items: list[QueueItem] = []
        self._drawn: list[tuple[datetime, str]] = []
        """Each row's time and the age its prompt shows, so only rows whose age moved are redrawn."""
        self.exhausted = False
        """True once a page came back short: there is nothing older to load."""
        self.loading = False
        """True while a page is being read, so scrolling does not ask twice."""

    @property
    def current(self) -> QueueItem | None:
        """The highlighted row, if any."""
        index = self.highlighted
        return self.items[index] if index is not None and index < len(self.items) else None

    def show_items(
        self, items: list[QueueItem], *, now: datetime, replace: bool, exhausted: bool
    ) -> None:
        """Append a page, or replace every row while keeping the cursor on the same item."""
        keep = self.current.key if replace and self.current else None
        if replace:
            self.items = []
            self._drawn = []
            self.clear_options()
        self.items.extend(items)
        drawn = [(at := parse_stamp(item.at), short_ago(now - at)) for item in items]
        self._drawn.extend(drawn)
        self.add_options(
            Option(row_prompt(item, age, self.tab.styles), id=item.key)
            for item, (_, age) in zip(items, drawn, strict=True)
        )
        self.exhausted = exhausted
        self.loading = False
        if replace:
            keys = [item.key for item in self.items]
            self.highlighted = keys.index(keep) if keep in keys else (0 if self.items else None)
        elif self.highlighted is None and self.items:
            self.highlighted = 0

    def move_ages(self, now: datetime) -> None:
        """Redraw the rows whose age reads differently at `now`."""
        for index, (item, (at, shown)) in enumerate(zip(self.items, self._drawn, strict=True)):
            age = short_ago(now - at)
            if age != shown:
                self._drawn[index] = (at, age)
                self.replace_option_prompt_at_index(index, row_prompt(item, age, self.tab.styles))

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        item = self.current
        if item is not None:
            self.post_message(self.ItemHighlighted(self, item))
            if highlighted is not None and highlighted >= len(self.items) - PREFETCH_ROWS:
                self._want_more()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self.max_scroll_y - new_value < PREFETCH_ROWS:
            self._want_more()

    def _want_more(self) -> None:
        if not self.exhausted and not self.loading and self.items:
            self.loading = True
            self.post_message(self.MoreWanted(self))
