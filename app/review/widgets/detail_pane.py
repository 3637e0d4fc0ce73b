"""The right-hand pane: the selected item as received beside the reasons it was stopped."""

from datetime import datetime

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from ..details import Detail
from .detail_views import describe

EMPTY_HINT = (
    "Nothing selected.\n\n"
    "Withheld fields, removed hidden content, blocked calls, sessions and the audit log appear on the "
    "left as agents work through the proxy. Try `lazaretto demo` for an example."
)


class DetailPane(Vertical):
    """Shows one `Detail`; set by its screen, it posts nothing."""

    def compose(self) -> ComposeResult:
        yield Static(id="detail-title")
        with Horizontal(id="detail-body"):
            with VerticalScroll(id="detail-item"):
                yield Static(id="detail-item-text")
            with VerticalScroll(id="detail-why"):
                yield Static(id="detail-why-text")

    def on_mount(self) -> None:
        self.show(None, now=None)

    def show(self, detail: Detail | None, *, now: datetime | None) -> None:
        """Render `detail`, or the empty hint for None."""
        item_box = self.query_one("#detail-item", VerticalScroll)
        why_box = self.query_one("#detail-why", VerticalScroll)
        if detail is None or now is None:
            self.query_one("#detail-title", Static).update(Content.styled("Lazaretto review", "bold"))
            item_box.border_title = "Item"
            why_box.border_title = "Why"
            self.query_one("#detail-item-text", Static).update(Content(EMPTY_HINT))
            self.query_one("#detail-why-text", Static).update("")
            return
        view = describe(detail, now)
        self.query_one("#detail-title", Static).update(view.title)
        item_box.border_title = view.body_title
        why_box.border_title = view.side_title
        self.query_one("#detail-item-text", Static).update(view.body)
        self.query_one("#detail-why-text", Static).update(view.side)
        item_box.scroll_home(animate=False)
        why_box.scroll_home(animate=False)
