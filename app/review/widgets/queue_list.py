"""One kind of queue row as a scrolling list that asks for the next page as the person nears its end."""

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from lazaretto.app.human import visible

from ..moments import Moments
from ..queue import QueueItem
from .detail_views import SETTLED_STYLE, StateStyles

if TYPE_CHECKING:
    from ..tabs import Tab

PREFETCH_ROWS = 30
"""Ask for the next page when the cursor or the scroll position comes this close to the end."""

WAITING_MARK = "●"
DECIDED_MARK = "○"
"""A row waiting for a person is marked full; a decided one hollow, and the rest of it greyed."""


Drawn = tuple[str, str]
"""A row's age and reason as its prompt says them: redrawn only when either reads differently."""


def row_prompt(
    item: QueueItem, drawn: Drawn, styles: StateStyles, *, decided: bool, one_line: bool
) -> Content:
    """State, server/tool and age, then the reason: on a second line, or after them on one."""
    age, reason = drawn
    style = styles.get(item.state, "")
    rest = SETTLED_STYLE if decided else ""
    return Content.assemble(
        (f"{DECIDED_MARK if decided else WAITING_MARK} ", style),
        (f"{item.state:<9}", style),
        " ",
        (visible(item.source), rest or "bold"),
        (f"  {age}", "$text-muted"),
        "  " if one_line else "\n  ",
        (visible(reason), "$text-muted"),
    )


class QueueList(OptionList):
    """The rows of one feed, waiting first, grown a page at a time by its screen."""

    BINDINGS = [
        Binding("enter", "select", "Full view", tooltip="Open the selected item in full."),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "first", "First", show=False),
        Binding("G", "last", "Last", show=False),
    ]
    """Enter opens a row in full (the screen answers the OptionSelected message); j, k, g and G
    move as in other terminal programs, beside the arrows, home and end."""

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
        self._drawn: list[Drawn] = []
        """What each row's prompt shows of time, so only rows whose time reads differently are redrawn."""
        self.one_line = False
        """One line per row (the list sits above the detail), else two (the list beside it)."""
        self.exhausted = False
        """True once a page came back short: there is nothing older to load."""
        self.loading = False
        """True while a page is being read, so scrolling does not ask twice."""

    @property
    def current(self) -> QueueItem | None:
        """The highlighted row, if any."""
        index = self.highlighted
        return self.items[index] if index is not None and index < len(self.items) else None

    def _prompt(self, item: QueueItem, drawn: Drawn) -> Content:
        decided = self.tab.feed.waits and not item.waiting
        return row_prompt(item, drawn, self.tab.styles, decided=decided, one_line=self.one_line)

    @staticmethod
    def _said(item: QueueItem, moments: Moments) -> Drawn:
        return moments.at(item.at), moments.in_text(item.reason)

    def show_items(
        self, items: list[QueueItem], *, moments: Moments, replace: bool, exhausted: bool
    ) -> None:
        """Append a page, or replace every row while keeping the cursor on the same item."""
        keep = self.current.key if replace and self.current else None
        if replace:
            self.items = []
            self._drawn = []
            self.clear_options()
        self.items.extend(items)
        drawn = [self._said(item, moments) for item in items]
        self._drawn.extend(drawn)
        self.add_options(
            Option(self._prompt(item, said), id=item.key)
            for item, said in zip(items, drawn, strict=True)
        )
        self.exhausted = exhausted
        self.loading = False
        if replace:
            self.select_key(keep)
        elif self.highlighted is None and self.items:
            self.highlighted = 0

    def select_key(self, key: str | None) -> None:
        """Put the cursor on the row with this key; on the first row when it is not listed."""
        keys = [item.key for item in self.items]
        self.highlighted = keys.index(key) if key in keys else (0 if self.items else None)

    def waiting_indexes(self) -> list[int]:
        """Where the rows waiting for a person are, in list order."""
        return [index for index, item in enumerate(self.items) if item.waiting]

    def move_ages(self, moments: Moments) -> None:
        """Redraw the rows whose age reads differently now (or in the other style of time)."""
        for index, (item, shown) in enumerate(zip(self.items, self._drawn, strict=True)):
            said = self._said(item, moments)
            if said != shown:
                self._drawn[index] = said
                self.replace_option_prompt_at_index(index, self._prompt(item, said))

    def set_one_line(self, one_line: bool) -> None:
        """One line per row or two: every row is drawn again, the cursor kept where it was."""
        if one_line == self.one_line:
            return
        self.one_line = one_line
        for index, (item, said) in enumerate(zip(self.items, self._drawn, strict=True)):
            self.replace_option_prompt_at_index(index, self._prompt(item, said))

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
