"""`lazaretto install [--client ...] [--project]`: register Lazaretto's hooks in the client's settings."""

import argparse
import sys

from lazaretto.app.clients.files import ConfigText, apply, saved_note
from lazaretto.app.clients.hook_settings import install
from lazaretto.app.clients.locations import CLIENTS, client_present, hook_settings_path

_AFTER = {
    "codex": "Codex runs new or changed hooks only after you review and trust them: open /hooks in Codex.",
    "claude-code": "Claude Code picks the hooks up on its own; /hooks in Claude Code lists them.",
    "cursor": "Cursor reloads hooks.json on its own; its Hooks settings tab lists them.",
}


def configure(parser: argparse.ArgumentParser) -> None:
    """Options shared by install and uninstall."""
    parser.add_argument(
        "--client",
        choices=[*CLIENTS, "all"],
        default="all",
        help="which client (default: all that are installed for this user)",
    )
    parser.add_argument(
        "--project",
        action="store_true",
        help="the project's settings in the current directory instead of the user's",
    )


def chosen_clients(client: str, project: bool) -> list[str]:
    """The named client, or with `all` every client installed for this user (or any, per project)."""
    if client != "all":
        return [client]
    return [name for name in CLIENTS if project or client_present(name)]


def write(change: ConfigText, verb: str) -> bool:
    """Write one settings change, saying what happened; False when it could not be written."""
    if not change.changed:
        print(f"  {change.path}: already {verb}; nothing changed.")
        return True
    try:
        saved = apply(change)
    except OSError as exc:
        print(f"  {change.path}: cannot write: {exc}", file=sys.stderr)
        return False
    if change.remove:
        print(
            f"  {change.path}: {verb}; removed, since install had made it and nothing else is in it"
        )
        return True
    print(f"  {change.path}: {verb}{saved_note(saved)}")
    return True


def run(args: argparse.Namespace) -> int:
    """0 every chosen client is hooked; 1 one could not be."""
    clients = chosen_clients(args.client, args.project)
    if not clients:
        print(
            "lazaretto install: no Claude Code, Codex or Cursor folder in your home directory; "
            "name one with --client.",
            file=sys.stderr,
        )
        return 1
    ok = True
    for client in clients:
        path = hook_settings_path(client, args.project)
        print(f"{client}:")
        try:
            ok = write(install(client, path), "installed") and ok
        except ValueError as exc:
            print(f"  {exc}", file=sys.stderr)
            ok = False
            continue
        print(f"  {_AFTER[client]}")
    return 0 if ok else 1
