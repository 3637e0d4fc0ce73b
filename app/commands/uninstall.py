"""`lazaretto uninstall [--client ...] [--project]`: remove Lazaretto's hooks, and only those."""

import argparse
import sys

from lazaretto.app.clients.hook_settings import uninstall
from lazaretto.app.commands import install as install_command


def configure(parser: argparse.ArgumentParser) -> None:
    """The same options as install."""
    install_command.configure(parser)


def run(args: argparse.Namespace) -> int:
    """0 done; 1 a settings file could not be read or written."""
    ok = True
    for client in install_command.chosen_clients(args.client, args.project):
        path = install_command.hook_settings_path(client, args.project)
        if not path.exists():
            continue
        print(f"{client}:")
        try:
            ok = install_command.write(uninstall(client, path), "uninstalled") and ok
        except ValueError as exc:
            print(f"  {exc}", file=sys.stderr)
            ok = False
    return 0 if ok else 1
