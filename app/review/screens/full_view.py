"""The whole of one item beside the reasons it was stopped, when the detail pane shows only its start."""

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from ..keys import DECISIONS
from ..widgets.detail_pane import DetailPane
from ..widgets.detail_views import DetailView
from ..widgets.footer import ReviewFooter


class FullView(Screen[str | None]):
    """Shows a view uncut; closes with nothing chosen, or with the decision the person picked.

    Its footer offers only what applies here: closing, and the decisions that apply to the item.
    """

    BINDINGS = [
        Binding("escape,q,enter", "close", "Close", tooltip="Back to the queue."),
        *(
            Binding(b.key, f"pick('{b.action}')", b.description, tooltip=b.tooltip)
            for b in DECISIONS
        ),
    ]
    """Closing, and the queue's decision keys: each closes this view and takes its decision."""

    def __init__(self, view: DetailView, offered: Mapping[str, bool | None]) -> None:
        super().__init__()
        self._view = view
        self.offered = dict(offered)
        """Each decision the queue offers for the item: True applies, None greyed, absent hidden."""

    def compose(self) -> ComposeResult:
        yield DetailPane(self._view, id="full-view")
        yield ReviewFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A decision key shows only where the queue offers it for this item."""
        if action == "pick":
            return self.offered.get(str(parameters[0]), False)
        return True

    def action_pick(self, action: str) -> None:
        """Back to the queue, which takes the decision (and asks for its confirmation)."""
        self.dismiss(action)

    def action_close(self) -> None:
        """Back to the queue."""
        self.dismiss(None)
