"""`lazaretto wrap PATH [--dry-run]`: run every stdio MCP server of a client config through the proxy."""

import argparse
import sys
from pathlib import Path

from lazaretto.app.clients.files import apply, saved_note
from lazaretto.app.clients.wrapping import EntryState, Outcome, transform

_LABELS = {
    EntryState.WRAPPED: "wrapped",
    EntryState.ALREADY_WRAPPED: "already wrapped",
    EntryState.REPOINTED: "wrapped again",
    EntryState.UNWRAPPED: "unwrapped",
    EntryState.NOT_WRAPPED: "not wrapped (left alone)",
    EntryState.REFUSED: "NOT WRAPPED:",
    EntryState.REMOTE: "NOT COVERED",
    EntryState.UNUSABLE: "skipped",
}


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto wrap`."""
    parser.add_argument(
        "path",
        help="an MCP client config: mcpServers JSON (Claude Desktop, Claude Code "
        "~/.claude.json or .mcp.json, Cursor mcp.json) or Codex config.toml",
    )
    parser.add_argument("--dry-run", action="store_true", help="show the diff and change nothing")


def run(args: argparse.Namespace) -> int:
    """0 done (or nothing to do); 1 the file could not be read or written, or an entry was left
    unwrapped because wrapping it would put a secret on a command line (the rest is written)."""
    return change_servers(Path(args.path).expanduser(), "wrap", args.dry_run)


def change_servers(path: Path, action: str, dry_run: bool) -> int:
    """Shared by wrap and unwrap: transform, report each server, then show the diff or write it."""
    if not path.exists():
        print(f"lazaretto {action}: {path} does not exist", file=sys.stderr)
        return 1
    try:
        outcome = transform(path, action)
    except (ValueError, OSError) as exc:
        print(f"lazaretto {action}: {exc}", file=sys.stderr)
        return 1
    report(outcome)
    done = 1 if any(s.state is EntryState.REFUSED for s in outcome.servers) else 0
    change = outcome.change
    if not change.changed:
        print(f"{path}: nothing to change.")
        return done
    if dry_run:
        print(change.diff(), end="")
        print(f"(dry run: {path} was not changed)")
        return done
    try:
        saved = apply(change)
    except OSError as exc:
        print(f"lazaretto {action}: cannot write {path}: {exc}", file=sys.stderr)
        return 1
    print(f"{path}: written{saved_note(saved)}. Restart the client to use it.")
    return done


def report(outcome: Outcome) -> None:
    """One line per server."""
    if not outcome.servers:
        print(f"{outcome.change.path}: no MCP servers found.")
    for server in outcome.servers:
        detail = f"  {server.detail}" if server.detail else ""
        print(f"  {server.where} / {server.name}: {_LABELS[server.state]}{detail}")
        for warning in server.warnings:
            print(f"    warning: {warning}")
