"""The right-hand pane: the selected item as received beside the reasons it was stopped."""

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from .detail_views import DetailView


class DetailPane(Vertical):
    """Shows one rendered `DetailView`; set by its screen, it posts nothing."""

    def compose(self) -> ComposeResult:
        yield Static(id="detail-title")
        with Horizontal(id="detail-body"):
            with VerticalScroll(id="detail-item"):
                yield Static(id="detail-item-text")
            with VerticalScroll(id="detail-why"):
                yield Static(id="detail-why-text")

    def on_mount(self) -> None:
        self.show(None)

    def show(self, view: DetailView | None, *, empty: str = "", keep_scroll: bool = False) -> None:
        """Show `view`, or the `empty` hint for None; `keep_scroll` for the same item shown afresh."""
        item_box = self.query_one("#detail-item", VerticalScroll)
        why_box = self.query_one("#detail-why", VerticalScroll)
        if view is None:
            self.query_one("#detail-title", Static).update(
                Content.styled("Lazaretto review", "bold")
            )
            item_box.border_title = "Item"
            why_box.border_title = "Why"
            self.query_one("#detail-item-text", Static).update(Content(empty))
            self.query_one("#detail-why-text", Static).update("")
            return
        self.query_one("#detail-title", Static).update(view.title)
        item_box.border_title = view.body_title
        why_box.border_title = view.side_title
        self.query_one("#detail-item-text", Static).update(view.body)
        self.query_one("#detail-why-text", Static).update(view.side)
        if not keep_scroll:
            item_box.scroll_home(animate=False)
            why_box.scroll_home(animate=False)
