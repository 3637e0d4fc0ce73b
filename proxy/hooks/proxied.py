"""Which MCP servers of this agent client run behind `lazaretto proxy`: their calls are the proxy's to gate.

A hook gates an MCP call itself only when no proxy stands in front of the server; gating a proxied
call too would ask the person twice (two tokens) for one call. Only a proxy's own word counts:
the record each running proxy keeps in the store (`lazaretto.store.proxies`), checked against a
live process of this client with that id and start time. What a process's command line says is
no proof: any process can call itself `lazaretto proxy -n slack` (`exec -a`, a server renaming
itself, a look-alike the agent starts), and a hostile server would then go ungated. Where the
client says which command runs the server (Cursor), that command must run the proxy too; a URL
is a remote server no proxy stands in front of.
"""

import argparse
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lazaretto.store import StoreUnavailable

from ..proxy_args import configure, server_command, server_name
from ..session import client_process
from . import environment
from .shell import Unreadable, invocations, program_name

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

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


def served_by_command(command: str) -> str | None:
    """The server a command line says it runs behind the proxy, or None."""
    try:
        found = invocations(command, ".")
    except Unreadable:
        return None
    return next(filter(None, (proxy_server(invocation.argv) for invocation in found)), None)


def running_proxies(store: "StoreAPI", session: str) -> set[str]:
    """The servers this client's running proxies serve, by their own records (names comparable).

    Raises ProxyUnknown when the store or the client's processes cannot be read.
    """
    import psutil

    try:
        records = store.proxies.of_session(session)
    except StoreUnavailable as exc:
        raise ProxyUnknown(f"the store cannot be read ({exc})") from exc
    if not records:
        return set()
    try:
        client = client_process(environment.current().parent_pid()).pid
    except (psutil.Error, OSError) as exc:
        raise ProxyUnknown(f"the agent client's processes cannot be read ({exc})") from exc
    return {
        _comparable(record["server"])
        for record in records
        if _live_under(record["pid"], record["started"], client)
    }


def _live_under(pid: int, started: int, client: int) -> bool:
    """Whether process `pid`, started at `started`, runs now under the client process `client`."""
    import psutil

    try:
        process = psutil.Process(pid)
        if int(process.create_time()) != started:
            return False  # the id was given to another process since
        return any(parent.pid == client for parent in process.parents())
    except (psutil.Error, OSError):
        return False  # gone, or not ours to look at: proves nothing


def behind_proxy(
    server: str, store: "StoreAPI", session: str, *, command: object = None, url: object = None
) -> bool:
    """Whether a proxy stands in front of `server` in this client, by the proxy's own record.

    `command` and `url` are what the client says runs the server, when it says it (Cursor): a
    command must run the proxy, and that proxy must have recorded itself. Raises ProxyUnknown
    when that cannot be told.
    """
    if isinstance(command, str) and command.strip():
        served = served_by_command(command)
        if served is None:
            return False
        server = served  # the name the proxy serves, not the program it starts
    elif isinstance(url, str) and url.strip():
        return False
    return _comparable(server) in running_proxies(store, session)
