"""Which MCP servers of this agent client run behind `lazaretto proxy`: their calls are the proxy's to gate.

A hook gates an MCP call itself only when no proxy stands in front of the server; gating a proxied
call too would ask the person twice (two tokens) for one call. The evidence, strongest first: the
command the client says it runs the server with (Cursor sends it with each call), a URL (a remote
server no proxy stands in front of), and else the client's own processes: every `lazaretto proxy`
the client started serves one server, under its `-n` name. The process table, not the client's
config files, is what the client is running now: a config wrapped after the client started is not
in front of anything until the client restarts.
"""

import argparse
import re
from collections.abc import Sequence

from ..proxy_args import configure, server_command, server_name
from ..session import client_process
from . import environment
from .shell import Unreadable, invocations, program_name

# Claude Code and Codex allow letters, digits, `-` and `_` in server names, and Claude Code has
# been seen to turn `-` into `_` in tool names; compare names the same way on both sides.
_NOT_NAME = re.compile(r"[^A-Za-z0-9]")


class ProxyUnknown(RuntimeError):
    """The client's processes could not be read, so whether a server is proxied is not known."""


def _comparable(name: str) -> str:
    return _NOT_NAME.sub("_", name)


def proxy_server(argv: Sequence[str]) -> str | None:
    """The server a `lazaretto proxy ...` command line serves (its `-n`, else its command's name),
    or None when `argv` does not run the proxy."""
    for index, word in enumerate(argv):
        if program_name(word) == "lazaretto":
            rest = list(argv[index + 1 :])
        elif (
            word == "-m" and argv[index + 1 : index + 2] and argv[index + 1].startswith("lazaretto")
        ):
            rest = list(argv[index + 2 :])
        else:
            continue
        if rest[:1] == ["proxy"]:
            return _served_name(rest[1:])
    return None


def _served_name(words: list[str]) -> str | None:
    parser = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    configure(parser)
    try:
        args, _ = parser.parse_known_args(words)
    except (argparse.ArgumentError, SystemExit):
        return None
    command = server_command(args)
    if not command and not args.url:
        return None
    return server_name(args.server_id, command, args.url)


def _command_runs_proxy(command: str) -> bool:
    try:
        found = invocations(command, ".")
    except Unreadable:
        return False
    return any(proxy_server(invocation.argv) for invocation in found)


def running_proxies() -> set[str]:
    """The servers the proxies this client started serve (names made comparable).

    Raises ProxyUnknown when the client's processes cannot be read.
    """
    import psutil

    names = set()
    try:
        children = client_process(environment.current().parent_pid()).children(recursive=True)
    except (psutil.Error, OSError) as exc:
        raise ProxyUnknown(f"the agent client's processes cannot be read ({exc})") from exc
    for child in children:
        try:
            served = proxy_server(child.cmdline())
        except (psutil.Error, OSError):
            continue  # gone, or not ours to read: not a proxy of this client
        if served:
            names.add(_comparable(served))
    return names


def behind_proxy(server: str, *, command: object = None, url: object = None) -> bool:
    """Whether a proxy stands in front of `server` in this client.

    `command` and `url` are what the client says runs the server, when it says it (Cursor).
    Raises ProxyUnknown when that cannot be told.
    """
    if isinstance(command, str) and command.strip():
        return _command_runs_proxy(command)
    if isinstance(url, str) and url.strip():
        return False
    return _comparable(server) in running_proxies()
