"""`lazaretto policy init`'s starter policy: every MCP server the client configs name, each with a
trust level and the tools its annotations say write, as commented TOML a person finishes.

The tools come from Lazaretto's store: the surfaces proxies pinned when each server listed its
tools. Init does not start the servers itself: that would run every configured server outside
the proxy, in the shell's environment rather than the client's (where some need a token or a
browser and fail or wait), and the proxy reads the same annotations live anyway; what the store
has not seen yet, the starter says so.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import tomlkit
from tomlkit.items import Comment, Table

from lazaretto.app.clients.doctor import ConfigReport
from lazaretto.app.human import visible
from lazaretto.proxy.classify import OutboundBy, classify
from lazaretto.proxy.policy import ServerPolicy
from lazaretto.store.states import PinKind

HEADER = (
    "Lazaretto's policy: which MCP servers you trust, and which of their tools send data out.",
    "Written by `lazaretto policy init` from the client configs it found:",
)
FOOTER = (
    "",
    'Each server starts "untrusted": all it returns taints the session, and once the session is',
    'tainted its outbound tools are refused until a person clears it. Make a server "trusted"',
    "only if all it returns is yours (your own files, your own database), never one that reads",
    "the web, mail, tickets or chat. An entry without `trust` or `untrusted` counts as untrusted.",
    "",
    "Every key is explained in the policy reference (docs/policy.md). After an edit, check it:",
    "  lazaretto policy check {path}",
    "The proxies read it when they start: restart the client after changing it.",
)
TRUST_NOTE = '"trusted" only if all it returns is yours'


@dataclass
class StarterServer:
    """One server as the starter names it, with where it was found."""

    name: str
    found_in: list[str] = field(default_factory=list)
    runs: str = ""
    covered: bool = True


def configured_servers(configs: list[ConfigReport]) -> dict[str, StarterServer]:
    """The servers of every config by name (one entry for a name several configs use)."""
    servers: dict[str, StarterServer] = {}
    for config in configs:
        for state in config.servers:
            if state.state == "unusable":
                continue
            server = servers.setdefault(state.name, StarterServer(state.name))
            server.found_in.append(f"{config.path} ({config.client})")
            # A wrapped entry's detail is the server it runs; an unwrapped one's is empty.
            server.runs = server.runs or state.detail
            # A WebSocket server: no proxy stands in front of it.
            server.covered = server.covered and state.state != "remote"
    return servers


def tool_verdicts(pins: list[dict], server: str) -> dict[str, OutboundBy | None]:
    """What makes each pinned tool of `server` outbound, judged as an unlisted server's would be
    (the policy says nothing yet): by its annotations, by its name, or nothing."""
    annotations: dict[str, dict | None] = {}
    for row in pins:
        if row["kind"] != PinKind.TOOL or not row["name"]:
            continue
        surface = json.loads(row["canonical"])
        found = surface.get("annotations") if isinstance(surface, dict) else None
        annotations[row["name"]] = found if isinstance(found, dict) else None
    entry = ServerPolicy(server)
    return {
        name: classify(entry, name, annotations[name]).outbound_by for name in sorted(annotations)
    }


def starter_policy(
    configs: list[ConfigReport], pins_of: Callable[[str], list[dict]], path: Path
) -> tuple[str, list[str]]:
    """The starter's TOML text, and the names of the servers in it."""
    document = tomlkit.document()
    for line in HEADER:
        document.add(_comment(line))
    for config in configs:
        why = f": cannot read it ({config.error})" if config.error else ""
        document.add(_comment(f"  {config.path} ({config.client}){why}"))
    if not configs:
        document.add(_comment("  none: add [servers.NAME] entries by hand"))
    for line in FOOTER:
        document.add(_comment(line.format(path=path)))
    document.add(tomlkit.nl())
    document.add(_comment("The only hosts a tool's arguments may name, on a clean session"))
    document.add(_comment("too (uncomment to turn the host check on):"))
    document.add(_comment('allow_hosts = ["github.com", "api.github.com"]'))
    servers = configured_servers(configs)
    if servers:
        table = tomlkit.table(is_super_table=True)
        for server in servers.values():
            table.add(server.name, _server_table(server, pins_of(server.name)))
        document.add(tomlkit.nl())
        document.add("servers", table)
    return tomlkit.dumps(document), list(servers)


def _comment(text: str) -> Comment:
    """A comment line; a line break or control character in a name from a config or a server is
    shown escaped, never let out of the comment into the policy."""
    return tomlkit.comment(visible(text))


def _server_table(server: StarterServer, pins: list[dict]) -> Table:
    table = tomlkit.table()
    runs = f": {server.runs}" if server.runs else ""
    for where in server.found_in:
        table.add(_comment(f"In {where}{runs}"))
    if not server.covered:
        table.add(_comment("A WebSocket server: no proxy can stand in front of it."))
    trust = tomlkit.item("untrusted")
    trust.comment(TRUST_NOTE)
    table.add("trust", trust)
    verdicts = tool_verdicts(pins, server.name)
    if not verdicts:
        table.add(_comment("Its tools have not been seen behind a proxy yet: the proxy"))
        table.add(_comment("judges each by its annotations and its name when it lists them."))
        return table
    by_annotations = [name for name, by in verdicts.items() if by is OutboundBy.ANNOTATIONS]
    by_name = [name for name, by in verdicts.items() if by is OutboundBy.NAME]
    table.add(_comment("The tools whose annotations say they write (not readOnlyHint):"))
    table.add("outbound", by_annotations)
    if by_name:
        table.add(_comment(f"By name the proxy counts these outbound too: {', '.join(by_name)}"))
    return table
