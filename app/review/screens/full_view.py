"""The whole of one item, scrollable, when the detail pane shows only its start."""

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static


class FullView(ModalScreen[None]):
    """Shows a title and a body in full; escape, enter or q closes it."""

    BINDINGS = [
        Binding("escape,enter,q", "close", "Close"),
    ]

    def __init__(self, title: Content, body: Content) -> None:
        super().__init__()
        self._title = title
        self._body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="full-view") as box:
            box.border_title = "Press escape to close"
            yield Static(self._title, id="full-title")
            yield Static(self._body, id="full-body")

    def action_close(self) -> None:
        """Back to the queue."""
        self.dismiss(None)
