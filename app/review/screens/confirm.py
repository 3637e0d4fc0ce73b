"""The confirmation a person types before anything is released, approved or untainted.

Embedded, it is a short code shown in the dialog. With a station it is a one-time code from the
reviewer's authenticator app, for the decision the app began with the station before the dialog
opened, typed into a hidden field and checked by the station with the decision: keys sent into
an open pane (tmux send-keys) cannot produce it, and a code read on its way clears nothing else.

Every dialog repeats what it clears (a call's exact arguments, every taint source, the text a
release gives), scrolls that part when the screen is short, and keeps its input in view.
"""

from collections.abc import Callable

import humanize
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.events import Resize
from textual.screen import ModalScreen
from textual.widgets import Input, RadioButton, RadioSet, Static

from lazaretto.app.human import Confirmation, visible
from lazaretto.store.states import ReleasedAs
from lazaretto.store.station.protocol import code_proof
from lazaretto.store.tokens import challenge_matches

from ..asks import ClearanceRequest, Confirmed
from ..widgets.detail_pane import READABLE_LINE
from ..widgets.footer import ReviewFooter

WARNING_STYLE = "bold $text-warning"

SIDE_BY_SIDE_RELEASE = 2 * (READABLE_LINE + 4) + 8
"""Screen columns from which a release's two texts sit side by side, each keeping a readable line
inside its own border and padding, and the dialog's."""


class ConfirmClearance(ModalScreen[Confirmed | None]):
    """Repeats the decision, what it clears and its reason; only the typed challenge or code (and
    note, if asked) confirms it."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        request: ClearanceRequest,
        new_challenge: Callable[[], str],
        *,
        decision: str | None = None,
    ) -> None:
        super().__init__()
        self.request = request
        self.decision = decision
        """With a station: the decision begun there, proven by a code from the authenticator app
        (the station checks it) instead of the challenge shown here."""
        self._new_challenge = new_challenge
        self.challenge = new_challenge()
        self.released_as = ReleasedAs.VISIBLE
        """What a release gives the agent, as chosen in the dialog."""

    def compose(self) -> ComposeResult:
        request = self.request
        release = request.release
        with VerticalScroll(id="dialog", classes="-release" if release else ""):
            yield Static(
                Content.styled(f"{request.verb.capitalize()} {visible(request.subject)}?", "bold"),
                id="dialog-title",
            )
            # What it clears comes first: the call, the taint, the text, in view on a short screen.
            if request.shows is not None:
                with Vertical(id="dialog-shows", classes="dialog-part") as part:
                    part.border_title = request.shows_title
                    yield Static(request.shows)
            if release is not None:
                with Vertical(id="release-texts"):
                    with Vertical(id="release-visible", classes="dialog-part") as part:
                        part.border_title = "The visible text"
                        yield Static(release.visible)
                    with Vertical(id="release-original", classes="dialog-part") as part:
                        part.border_title = "The original, hidden content marked"
                        yield Static(release.original)
            yield Static(Content(request.effect), id="dialog-effect")
            yield Static(
                Content.assemble(("Why it was stopped: ", "bold"), visible(request.reason)),
                classes="dialog-reason",
            )
            with Vertical(id="dialog-controls"):
                if release is not None and release.hidden:
                    with RadioSet(id="release-choice", compact=True):
                        yield RadioButton(
                            "release the visible text (hidden content removed)",
                            value=True,
                            id="choose-visible",
                        )
                        yield RadioButton(
                            "release the original, hidden content included", id="choose-original"
                        )
                    yield Static(id="choice-warning")
                if request.needs_note:
                    ordinal = humanize.ordinal(request.earlier + 1)
                    yield Static(
                        Content.styled(
                            f"This would be the {ordinal} clearance in the last hour. Clearing often "
                            "is how a worm gets through: say why this one is safe.",
                            WARNING_STYLE,
                        ),
                        id="friction",
                    )
                    yield Input(placeholder="Note (required), saved to the audit log", id="note")
                yield Static(id="challenge-prompt")
                if self.decision is not None:
                    yield Input(placeholder="code", password=True, max_length=12, id="challenge")
                else:
                    yield Input(placeholder="type the code", max_length=12, id="challenge")
                yield Static(id="dialog-error", classes="-empty")
        yield ReviewFooter()

    def on_mount(self) -> None:
        self._show_choice()
        self._to_next_input()

    def on_resize(self, event: Resize) -> None:
        for texts in self.query("#release-texts"):
            texts.set_class(event.size.width >= SIDE_BY_SIDE_RELEASE, "-side")

    def _to_next_input(self) -> None:
        """Focus what is left to type: the note while it is asked for and empty, else the code."""
        notes = self.query("#note").results(Input)
        note = next(notes, None)
        self.query_one("#challenge" if note is None or note.value.strip() else "#note").focus()

    @on(RadioSet.Changed, "#release-choice")
    def choice_changed(self, event: RadioSet.Changed) -> None:
        """The effect, the warning and the prompt follow what the release gives."""
        chosen = event.radio_set.pressed_button
        original = chosen is not None and chosen.id == "choose-original"
        self.released_as = ReleasedAs.ORIGINAL if original else ReleasedAs.VISIBLE
        self._show_choice()
        self._to_next_input()

    def _show_choice(self) -> None:
        release = self.request.release
        if release is not None:
            self.query_one("#dialog-effect", Static).update(
                Content(release.effects[self.released_as])
            )
        for warning in self.query("#choice-warning").results(Static):
            assert release is not None and release.hidden is not None
            warning.update(
                Content.styled(
                    f"⚠ The agent also reads what was hidden: {release.payloads}.", WARNING_STYLE
                )
                if self.released_as == ReleasedAs.ORIGINAL
                else Content.styled(
                    f"Not given to the agent: {release.hidden} (shift+tab to choose the original).",
                    "$text-muted",
                )
            )
        self._show_challenge()

    def _what(self) -> str:
        """The decision as the prompt names it: a release says what it gives."""
        if self.request.release is None:
            return self.request.verb
        return f"{self.request.verb} the {self.released_as} text"

    def _show_challenge(self) -> None:
        if self.decision is not None:
            self.query_one("#challenge-prompt", Static).update(
                Content(
                    f"Type the code from your authenticator app to {self._what()}, or press "
                    "escape to cancel."
                )
            )
            return
        self.query_one("#challenge-prompt", Static).update(
            Content.assemble(
                "Type ",
                (self.challenge, "bold reverse $text-accent"),
                f" to {self._what()}, or press escape to cancel.",
            )
        )

    @on(Input.Submitted, "#note")
    def note_given(self) -> None:
        """Enter in the note moves on to the challenge."""
        self.query_one("#challenge", Input).focus()

    @on(Input.Submitted, "#challenge")
    def challenge_typed(self, event: Input.Submitted) -> None:
        """Confirm only when the code matches and any required note is there."""
        note = self.query_one("#note", Input).value.strip() if self.request.needs_note else ""
        if self.request.needs_note and not note:
            self._error("A note is required. Nothing was changed.")
            self.query_one("#note", Input).focus()
            return
        if self.decision is not None:
            if not event.value:
                self._error("Type the code, or escape.")
                return
            proof = code_proof(event.value, self.decision)
            self.dismiss(Confirmed(Confirmation(note or None, proof), self.released_as))
            return
        if not challenge_matches(self.challenge, event.value):
            # A fresh code each time: the person reads it again instead of retyping from memory.
            self.challenge = self._new_challenge()
            self._show_challenge()
            event.input.clear()
            self._error("The code did not match. Nothing was changed; type the new code.")
            return
        self.dismiss(Confirmed(Confirmation(note or None), self.released_as))

    def _error(self, text: str) -> None:
        error = self.query_one("#dialog-error", Static)
        error.update(Content.styled(text, "$text-error"))
        error.remove_class("-empty")

    def action_cancel(self) -> None:
        """Leave without deciding anything."""
        self.dismiss(None)


class UnlockDialog(ModalScreen[str | None]):
    """Asks for the reviewer passphrase to read withheld content for the rest of this review session."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(Content.styled("Unlock withheld content?", "bold"), id="dialog-title")
            yield Static(
                Content(
                    "The station keeps withheld originals, decoded payloads and drifted surfaces from "
                    "every connection until the reviewer passphrase unlocks them, for this review "
                    "session only. Anyone who can see this pane can read them once unlocked."
                ),
                id="dialog-effect",
            )
            with Vertical(id="dialog-controls"):
                yield Input(placeholder="reviewer passphrase", password=True, id="passphrase")
        yield ReviewFooter()

    def on_mount(self) -> None:
        self.query_one("#passphrase", Input).focus()

    @on(Input.Submitted, "#passphrase")
    def typed(self, event: Input.Submitted) -> None:
        """The station checks it; an empty one cancels."""
        self.dismiss(event.value or None)

    def action_cancel(self) -> None:
        """Leave it locked."""
        self.dismiss(None)
