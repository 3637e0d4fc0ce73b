"""The top line: what waits for the person, and what protects their decisions, whole at any width."""

from collections.abc import Sequence

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from lazaretto.store.modes import Mode
from lazaretto.store.opening import StoreAPI

TITLE = "⚓ Lazaretto"


class TopBar(Widget):
    """The app's name, the count of items waiting for a decision, and the store's protection.

    The protection is said in the longest of its wordings that fits, so a narrow pane shows a
    shorter sentence rather than half of a long one.
    """

    waiting: reactive[int | None] = reactive(None)
    """Items waiting for a decision, over every tab; None until counted."""

    def __init__(
        self, protection: Sequence[str], *, notice: str | None = None, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.protection = tuple(protection)
        """What protects decisions, longest wording first."""
        self.notice = notice
        """What the person must know before anything else (a broken policy), or None."""

    def render(self) -> Content:
        count = self.waiting
        if count is None:
            waiting = Content("")
        elif count:
            waiting = Content.styled(f"{count} waiting for you", "bold $text-warning")
        else:
            waiting = Content.styled("nothing waiting", "$text-success")
        alarm = Content.styled(f"{self.notice}  ", "bold $text-error") if self.notice else ""
        left = Content.assemble((TITLE, "bold"), "  ", alarm, waiting)
        room = self.size.width - left.cell_length - 2
        fits = [text for text in self.protection if Content(text).cell_length <= room]
        right = Content.styled(fits[0] if fits else "", "$text-muted")
        gap = max(2, self.size.width - left.cell_length - right.cell_length)
        return Content.assemble(left, " " * gap, right)


def protection(store: StoreAPI) -> tuple[str, ...]:
    """What protects decisions, for the top line: its wordings, longest first."""
    if store.mode is Mode.STATION:
        return (
            "station: every decision needs a code from your authenticator",
            "station: decisions need a code",
            "station",
        )
    where = store.path.name if store.path else "in-memory store"
    return (
        f"{where}, embedded: any process of your user can act as you",
        "embedded: any process of your user can act as you",
        "embedded: your processes can act as you",
        "embedded",
    )
