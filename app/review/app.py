"""`ReviewApp`: the review pane a person keeps open next to the agent."""

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import HelpPanel

from lazaretto.proxy.policy import Policy
from lazaretto.store.opening import StoreAPI
from lazaretto.store.tokens import new_challenge

from .screens.main import MainScreen
from .widgets.footer import HELP_KEY

POLL_SECONDS = 0.5
"""How often the store's data_version is checked: new items show within a second, at next to no cost."""

AGE_SECONDS = 1.0
"""How often the ages on screen move on: the youngest are shown to the second."""

_PALETTE = (
    ("Show in full", "Open the selected item in full, beside why it was stopped", "show_full"),
    (
        "Next waiting item",
        "Move to the next item waiting for a decision, on any tab",
        "next_waiting",
    ),
    (
        "Release withheld field",
        "Let the agent read the selected withheld field: its visible text, or the original (asks "
        "for a typed code)",
        "release",
    ),
    (
        "Approve blocked call",
        "Let the selected blocked call through once (asks for a typed code)",
        "approve",
    ),
    (
        "Untaint session",
        "Clear the selected item's session taint (asks for a typed code)",
        "untaint",
    ),
    ("Dismiss", "Mark the selected item reviewed; it stays withheld or refused", "dismiss_item"),
    ("Undo dismiss", "Take back the last dismissal made here", "undo_dismiss"),
    (
        "Accept pin drift",
        "Pin the new version of the selected drifted entry (asks for a typed code)",
        "accept_pin",
    ),
    (
        "Reject pin drift",
        "Keep the selected drifted entry hidden and refused (asks for a typed code)",
        "reject_pin",
    ),
    (
        "Unlock withheld content",
        "Read withheld originals in this review session (asks for the reviewer passphrase)",
        "unlock",
    ),
    ("Filter", "Show only rows matching some text", "filter"),
    ("Absolute times", "Show times as their UTC time, or as their age again", "toggle_times"),
)


class ReviewApp(App[None]):
    """Shows the store's queue and detail, and takes decisions through `store.decisions`."""

    CSS_PATH = Path(__file__).parent / "app.tcss"
    TITLE = "Lazaretto"
    BINDINGS = [
        Binding(
            "q", "quit", "Quit", tooltip="Quit the review app; nothing is decided by quitting."
        ),
        Binding(
            HELP_KEY,
            "toggle_help",
            "Help",
            show=False,  # the footer keeps it at its right end itself
            tooltip="Show or hide every key and what it does.",
        ),
    ]
    """Textual's conventions: `q` (and its own `ctrl+q`) quits, `?` lists the keys."""

    def __init__(
        self,
        store: StoreAPI,
        *,
        policy: Policy | None = None,
        demo: bool = False,
        desktop_notifications: bool = False,
        notice: str | None = None,
        challenge: Callable[[], str] = new_challenge,
        poll_interval: float = POLL_SECONDS,
        age_interval: float = AGE_SECONDS,
    ) -> None:
        super().__init__()
        self.store = store
        self.policy = policy or Policy()
        """What the proxies' policy says, for tools no proxy has classified in the store yet."""
        self.demo = demo
        """True on the demo's own store: the app does not suggest running the demo."""
        self.desktop_notifications = desktop_notifications
        """Announce newly stopped items on the desktop too (`lazaretto review --notify`)."""
        self.notice = notice
        """What the top line says before anything else (a broken policy), or None."""
        self.new_challenge = challenge
        """Draws the code a person types to confirm; snapshot tests fix it so the picture is stable."""
        self.poll_interval = poll_interval
        self.age_interval = age_interval

    def action_toggle_help(self) -> None:
        """Show the keys panel, or hide it when it is showing."""
        if self.screen.query(HelpPanel):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def get_default_screen(self) -> Screen:
        return MainScreen()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The screen's actions in the command palette, beside Textual's own commands."""
        yield from super().get_system_commands(screen)
        if isinstance(screen, MainScreen):
            for title, help_text, action in _PALETTE:
                if screen.check_action(action, ()):
                    yield SystemCommand(title, help_text, partial(screen.run_action, action))
