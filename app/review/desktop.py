"""Desktop notifications, where the desktop offers them: `notify-send` (freedesktop desktops) or
`osascript` (macOS). Off unless the person asks for them (`lazaretto review --notify`)."""

import re
import shutil
import subprocess
import sys

from lazaretto.app.human import clip, visible

NOTIFY_SECONDS = 10
"""How long a notifier may take before it is given up on: a hung desktop bus must not pile up."""

BODY_CHARS = 200

_MARKUP = re.compile(r"[<>&]")
"""notify-send bodies are read as markup by many desktops: a tool name must not become a tag."""

# AppleScript reads the title and the text from its arguments: no text is ever part of the script.
_APPLESCRIPT = (
    "on run argv",
    "display notification (item 2 of argv) with title (item 1 of argv)",
    "end run",
)


def notifier() -> list[str] | None:
    """The command that shows a desktop notification here, before its title and text; None when
    this desktop offers none."""
    found = shutil.which("notify-send")
    if found:
        return [found, "--app-name=Lazaretto"]
    if sys.platform == "darwin":
        osascript = shutil.which("osascript")
        if osascript:
            return [osascript, *(part for line in _APPLESCRIPT for part in ("-e", line))]
    return None


def notify(title: str, text: str) -> bool:
    """Show a desktop notification; False where none could be shown (nothing is raised)."""
    command = notifier()
    if command is None:
        return False
    body = clip(_MARKUP.sub(" ", visible(text)), BODY_CHARS)
    try:
        done = subprocess.run(
            [*command, visible(title), body],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=NOTIFY_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0
