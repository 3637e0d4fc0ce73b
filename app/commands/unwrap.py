"""`lazaretto unwrap PATH [--dry-run]`: give every wrapped MCP server its original entry back."""

import argparse
from pathlib import Path

from lazaretto.app.commands.wrap import change_servers


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto unwrap`."""
    parser.add_argument("path", help="a client config that `lazaretto wrap` changed")
    parser.add_argument("--dry-run", action="store_true", help="show the diff and change nothing")


def run(args: argparse.Namespace) -> int:
    """0 done (or nothing to do); 1 the file could not be read or written."""
    return change_servers(Path(args.path).expanduser(), "unwrap", args.dry_run)
