"""The confirmation a person types before anything is released, approved or untainted.

Embedded, it is a short code shown in the dialog. With a station it is the reviewer passphrase,
typed into a password field beside the reason and checked by the station with the decision:
keys sent into an open pane (tmux send-keys) cannot produce it, and nothing is cached.
"""

from collections.abc import Callable
from dataclasses import dataclass

import humanize
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from lazaretto.app.human import FRICTION_AFTER, Confirmation, visible
from lazaretto.store.tokens import challenge_matches


@dataclass(frozen=True)
class ClearanceRequest:
    """What the person is asked to confirm: the decision, what it does, and why the item was stopped."""

    verb: str
    subject: str
    effect: str
    reason: str
    earlier: int
    """Clearances people took within the friction window, before this one."""
    clears: bool = True
    """False for a decision that keeps something stopped (reject): the code is asked, friction is not."""

    @property
    def needs_note(self) -> bool:
        """Past a few clearances in the window, a note saying why is required too."""
        return self.clears and self.earlier >= FRICTION_AFTER


class ConfirmClearance(ModalScreen[Confirmation | None]):
    """Repeats the decision and its reason; only the typed challenge or passphrase (and note, if
    asked) confirms it."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        request: ClearanceRequest,
        new_challenge: Callable[[], str],
        *,
        passphrase: bool = False,
    ) -> None:
        super().__init__()
        self.request = request
        self.passphrase = passphrase
        """Ask for the reviewer passphrase (a station checks it) instead of a code."""
        self._new_challenge = new_challenge
        self.challenge = new_challenge()

    def compose(self) -> ComposeResult:
        request = self.request
        with Vertical(id="dialog"):
            yield Static(
                Content.styled(f"{request.verb.capitalize()} {visible(request.subject)}?", "bold"),
                id="dialog-title",
            )
            yield Static(Content(request.effect), classes="dialog-effect")
            yield Static(
                Content.assemble(("Why it was stopped: ", "bold"), visible(request.reason)),
                classes="dialog-reason",
            )
            if request.needs_note:
                ordinal = humanize.ordinal(request.earlier + 1)
                yield Static(
                    Content.styled(
                        f"This would be the {ordinal} clearance in the last hour. Clearing often is how a worm "
                        "gets through: say why this one is safe.",
                        "bold $text-warning",
                    ),
                    id="friction",
                )
                yield Input(placeholder="Note (required), saved to the audit log", id="note")
            yield Static(id="challenge-prompt")
            if self.passphrase:
                yield Input(placeholder="reviewer passphrase", password=True, id="challenge")
            else:
                yield Input(placeholder="type the code", max_length=12, id="challenge")
            yield Static(id="dialog-error")

    def on_mount(self) -> None:
        self._show_challenge()
        self.query_one("#note" if self.request.needs_note else "#challenge", Input).focus()

    def _show_challenge(self) -> None:
        if self.passphrase:
            self.query_one("#challenge-prompt", Static).update(
                Content(
                    f"Type the reviewer passphrase to {self.request.verb}, or press escape to cancel."
                )
            )
            return
        self.query_one("#challenge-prompt", Static).update(
            Content.assemble(
                "Type ",
                (self.challenge, "bold reverse $text-accent"),
                f" to {self.request.verb}, or press escape to cancel.",
            )
        )

    @on(Input.Submitted, "#note")
    def note_given(self) -> None:
        """Enter in the note moves on to the challenge."""
        self.query_one("#challenge", Input).focus()

    @on(Input.Submitted, "#challenge")
    def challenge_typed(self, event: Input.Submitted) -> None:
        """Confirm only when the code matches and any required note is there."""
        error = self.query_one("#dialog-error", Static)
        note = self.query_one("#note", Input).value.strip() if self.request.needs_note else ""
        if self.request.needs_note and not note:
            error.update(Content.styled("A note is required. Nothing was changed.", "$text-error"))
            self.query_one("#note", Input).focus()
            return
        if self.passphrase:
            if not event.value:
                error.update(Content.styled("Type the passphrase, or escape.", "$text-error"))
                return
            self.dismiss(Confirmation(note or None, passphrase=event.value))
            return
        if not challenge_matches(self.challenge, event.value):
            # A fresh code each time: the person reads it again instead of retyping from memory.
            self.challenge = self._new_challenge()
            self._show_challenge()
            event.input.clear()
            error.update(
                Content.styled(
                    "The code did not match. Nothing was changed; type the new code.", "$text-error"
                )
            )
            return
        self.dismiss(Confirmation(note or None))

    def action_cancel(self) -> None:
        """Leave without deciding anything."""
        self.dismiss(None)


class UnlockDialog(ModalScreen[str | None]):
    """Asks for the reviewer passphrase to read withheld content for the rest of this review session."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Content.styled("Unlock withheld content?", "bold"), id="dialog-title")
            yield Static(
                Content(
                    "The station keeps withheld originals, decoded payloads and drifted surfaces from "
                    "every connection until the reviewer passphrase unlocks them, for this review "
                    "session only. Anyone who can see this pane can read them once unlocked."
                ),
                classes="dialog-effect",
            )
            yield Input(placeholder="reviewer passphrase", password=True, id="passphrase")

    def on_mount(self) -> None:
        self.query_one("#passphrase", Input).focus()

    @on(Input.Submitted, "#passphrase")
    def typed(self, event: Input.Submitted) -> None:
        """The station checks it; an empty one cancels."""
        self.dismiss(event.value or None)

    def action_cancel(self) -> None:
        """Leave it locked."""
        self.dismiss(None)
