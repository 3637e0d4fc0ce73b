"""The detail pane: the selected item as received, and the reasons it was stopped.

Side by side where each gets a readable line, else the reasons above the item in one scroll: a
reason wrapped into a strip a few letters wide cannot be read.
"""

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from .detail_views import DetailView

READABLE_LINE = 60
"""The fewest columns the reasons, a decoded payload or a call's arguments are wrapped to."""

SIDE_BY_SIDE_WIDTH = 2 * (READABLE_LINE + 5) + 2
"""The pane's width from which the item and its reasons fit side by side, each with a readable
line beside its border, padding and scroll bar."""


class DetailScroll(VerticalScroll):
    """A scrolling part of the detail, moved with j and k too."""

    BINDINGS = [
        Binding("j", "scroll_down", "Down", show=False),
        Binding("k", "scroll_up", "Up", show=False),
        Binding("g", "scroll_home", "Top", show=False),
        Binding("G", "scroll_end", "Bottom", show=False),
    ]


class DetailPane(Vertical):
    """Shows one rendered `DetailView`; set by its screen, it posts nothing."""

    side_by_side: reactive[bool] = reactive(False, recompose=True)
    """The item and its reasons beside each other (a wide pane), else one above the other."""

    def __init__(self, view: DetailView | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._view = view
        self._empty = ""

    def compose(self) -> ComposeResult:
        shown = _shown(self._view, self._empty)
        yield Static(shown.title, id="detail-title")
        item = Static(shown.body, id="detail-item-text")
        why = Static(shown.side, id="detail-why-text")
        if self.side_by_side:
            with Horizontal(id="detail-body"):
                with DetailScroll(id="detail-item", classes="detail-part") as part:
                    part.border_title = shown.body_title
                    yield item
                with DetailScroll(id="detail-why", classes="detail-part") as part:
                    part.border_title = shown.side_title
                    yield why
        else:
            # One scroll, the reasons first: what a person needs to decide comes before the item.
            with DetailScroll(id="detail-body"):
                with Vertical(id="detail-why", classes="detail-part") as part:
                    part.border_title = shown.side_title
                    yield why
                with Vertical(id="detail-item", classes="detail-part") as part:
                    part.border_title = shown.body_title
                    yield item

    def on_resize(self) -> None:
        self.side_by_side = self.size.width >= SIDE_BY_SIDE_WIDTH

    def show(self, view: DetailView | None, *, empty: str = "", keep_scroll: bool = False) -> None:
        """Show `view`, or the `empty` hint for None; `keep_scroll` for the same item shown afresh."""
        self._view, self._empty = view, empty
        if not self.query("#detail-title"):
            return  # not composed yet: compose shows it
        shown = _shown(view, empty)
        self.query_one("#detail-title", Static).update(shown.title)
        self.query_one("#detail-item-text", Static).update(shown.body)
        self.query_one("#detail-why-text", Static).update(shown.side)
        self.query_one("#detail-item").border_title = shown.body_title
        self.query_one("#detail-why").border_title = shown.side_title
        if not keep_scroll:
            for part in self.query(DetailScroll):
                part.scroll_home(animate=False)


def _shown(view: DetailView | None, empty: str) -> DetailView:
    """The view, or what the pane shows with nothing selected: its name and the `empty` hint."""
    if view is not None:
        return view
    return DetailView(
        Content.styled("Lazaretto review", "bold"), "Item", Content(empty), "Why", Content("")
    )
