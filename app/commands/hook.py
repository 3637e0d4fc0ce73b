"""`lazaretto hook CLIENT EVENT`: the client's hook JSON on stdin, the client's reply on stdout.

With a station, `cli.main` forwards the event before this module is imported (see
`lazaretto.proxy.hooks.thin`); this is the path that answers in the hook's own process.
"""

import argparse
import sys

from lazaretto.proxy.hooks.dispatch import CLIENTS


def configure(parser: argparse.ArgumentParser) -> None:
    """`lazaretto hook CLIENT EVENT`."""
    parser.add_argument("client", choices=sorted(CLIENTS), help="the agent client running the hook")
    parser.add_argument(
        "event",
        help="claude-code and codex: pre-tool-use, post-tool-use; cursor: post-tool-use, "
        "before-shell-execution, before-mcp-execution, pre-tool-use",
    )


def run(args: argparse.Namespace) -> int:
    """Read the event, answer it by the run's deadline, and return the exit code the client expects."""
    from lazaretto.proxy.hooks.watchdog import answer_in_time

    return answer_in_time(args.client, args.event, sys.stdin.buffer.read())
