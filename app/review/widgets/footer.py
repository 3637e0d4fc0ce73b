"""The footer: the keys that apply now, with the help key kept at the right end at any width."""

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

HELP_KEY = "question_mark"
"""The key that lists every key (bound by the app, hidden from the footer's own row)."""


class ReviewFooter(Footer):
    """Textual's footer, compact, with the help key docked right where no other key can push it off."""

    def __init__(self) -> None:
        # The help key takes the place Textual gives the command palette's key (ctrl+p still opens it).
        super().__init__(show_command_palette=False, compact=True)

    def compose(self) -> ComposeResult:
        yield from super().compose()
        found = self.screen.active_bindings.get(HELP_KEY) if self._bindings_ready else None
        if found is None:
            return
        _, binding, enabled, tooltip = found
        yield FooterKey(
            binding.key,
            self.app.get_key_display(binding),
            binding.description,
            binding.action,
            classes="-command-palette",
            disabled=not enabled,
            tooltip=tooltip or binding.tooltip,
        ).data_bind(compact=Footer.compact)
