"""`wrap` / `unwrap`: put every stdio MCP server of a client config behind `lazaretto proxy`, and take it out.

JSON configs (`mcpServers` of Claude Desktop, Claude Code's `.mcp.json` and `~/.claude.json` with its
`projects`, Cursor's `mcp.json`) and Codex's `config.toml` (`[mcp_servers.NAME]`). A wrapped entry runs
`lazaretto proxy -n NAME -- <original command> <original args>`, or for a remote server
`lazaretto proxy -n NAME --url URL ...` (see remote_entries); every other key stays where it was,
so `unwrap` gives the original entry back.
"""

import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tomlkit.items import Array

from . import remote_entries
from .files import ConfigText, dump_toml, json_text, load_json, load_toml, read_text
from .remote_entries import RemoteTarget
from .toml_arrays import prefixed, unprefixed


@dataclass(frozen=True)
class ServerState:
    """One server entry of a config: where it is, and what wrap/unwrap did or would do to it."""

    where: str  # "mcpServers", "projects[/path].mcpServers" or "mcp_servers"
    name: str
    state: (
        str  # wrapped | already-wrapped | repointed | unwrapped | not-wrapped | remote | unusable
    )
    detail: str = ""
    command: str = ""
    """The command the entry runs as found (for a wrapped one, the `lazaretto` it starts)."""


@dataclass
class Outcome:
    """The config's text change and the state of each of its servers."""

    change: ConfigText
    servers: list[ServerState] = field(default_factory=list)


def lazaretto_executable() -> str:
    """The absolute path of the `lazaretto` command, so a client with a bare PATH still finds it."""
    found = shutil.which("lazaretto")
    if found:
        return os.path.abspath(found)
    script = Path(sys.argv[0])
    return (
        str(script.resolve())
        if script.name.startswith("lazaretto") and script.exists()
        else "lazaretto"
    )


def is_wrapped(entry: Any) -> bool:
    """Whether the entry already runs `lazaretto proxy ... -- CMD` or `lazaretto proxy ... --url URL`."""
    if not isinstance(entry, dict) or not isinstance(entry.get("command"), str):
        return False
    args = entry.get("args")
    name = os.path.basename(entry["command"].replace("\\", "/")).lower().removesuffix(".exe")
    return (
        name == "lazaretto"
        and isinstance(args, list)
        and args[:1] == ["proxy"]
        and ("--" in args or "--url" in args)
    )


# How `-n` is spelled says whether an entry with no arguments had its own `"args": []`: wrap gives
# an entry without `args` one (last, where unwrap takes it off again), so an empty one of the
# entry's own is told apart by the long spelling, which the proxy reads the same.
NAME_FLAG = "-n"
NAME_FLAG_OWN_EMPTY_ARGS = "--name"


def wrapped_args(name: str, command: str, args: list, *, own_empty_args: bool = False) -> list:
    """`proxy -n NAME -- COMMAND ARGS...` (`--name` for an entry whose own args are empty)."""
    flag = NAME_FLAG_OWN_EMPTY_ARGS if own_empty_args else NAME_FLAG
    return ["proxy", flag, name, "--", command, *args]


def _prefix_length(args: list) -> int:
    """How many of a wrapped entry's args are the proxy's: through the command after `--`."""
    return args.index("--") + 2


def original_of(entry: dict) -> tuple[str, list] | None:
    """(command, args) a wrapped entry runs behind the proxy, or None when it has none."""
    args = list(entry.get("args", []))
    marker = args.index("--")
    rest = args[marker + 1 :]
    return (str(rest[0]), rest[1:]) if rest else None


def _wrap_entry(name: str, entry: dict, executable: str) -> dict:
    args = entry.get("args", [])
    own_empty = "args" in entry and args == []
    new_args = wrapped_args(
        name,
        entry["command"],
        list(args) if isinstance(args, list) else [],
        own_empty_args=own_empty,
    )
    wrapped = {
        key: executable if key == "command" else new_args if key == "args" else value
        for key, value in entry.items()
    }
    wrapped.setdefault("args", new_args)  # an entry without args gets them last, where unwrap looks
    return wrapped


def _unwrap_entry(entry: dict) -> dict | None:
    original = original_of(entry)
    if original is None:
        return None
    command, args = original
    keys = list(entry)
    own_empty = entry["args"][1:2] == [NAME_FLAG_OWN_EMPTY_ARGS]
    restored = {}
    for key in keys:
        if key == "command":
            restored[key] = command
        elif key == "args":
            # An entry that had no args got them appended last by wrap; give it none back.
            if args or own_empty or key != keys[-1]:
                restored[key] = args
        else:
            restored[key] = entry[key]
    return restored


def _server_tables(data: Any) -> list[tuple[str, dict]]:
    """Every `mcpServers` object in a JSON config: top level, and per project in `~/.claude.json`."""
    tables = []
    if isinstance(data, dict):
        if isinstance(data.get("mcpServers"), dict):
            tables.append(("mcpServers", data["mcpServers"]))
        projects = data.get("projects")
        if isinstance(projects, dict):
            for project, settings in projects.items():
                if isinstance(settings, dict) and isinstance(settings.get("mcpServers"), dict):
                    tables.append((f"projects[{project}].mcpServers", settings["mcpServers"]))
    return tables


def _visit(
    where: str, servers, action: str, executable: str, report: list[ServerState], is_toml: bool
) -> None:
    for name in list(servers.keys()):
        entry = servers[name]
        plain = entry.unwrap() if is_toml and hasattr(entry, "unwrap") else entry
        outcome = (
            _change(name, plain, action, executable, is_toml) if isinstance(plain, dict) else None
        )
        if outcome is None:
            report.append(ServerState(where, name, "unusable", "no command or URL to run"))
            continue
        state, detail, new, prefix = outcome
        report.append(ServerState(where, name, state, detail, str(plain.get("command", ""))))
        if new is None:
            continue
        if is_toml:
            _update_toml_table(entry, new, prefix, action)
        else:
            servers[name] = new


def _change(
    name: str, entry: dict, action: str, executable: str, is_toml: bool
) -> tuple[str, str, dict | None, list] | None:
    """(state, detail, the new entry or None, the proxy's args in front of the server's own) for
    one server entry; None when it is unusable."""
    remote = remote_entries.kind(entry)
    if remote == "websocket":
        return "remote", "WebSocket server: not covered by the proxy", None, []
    if action == "wrap":
        if is_wrapped(entry):
            if not _gone(entry["command"]) or executable == entry["command"]:
                return "already-wrapped", "", None, []
            # The lazaretto it ran is gone (a deleted virtualenv): point it at this one.
            detail = f"{entry['command']} is gone; it runs {executable} now"
            return "repointed", detail, {**entry, "command": executable}, []
        if remote == "http":
            if remote_entries.target_of(entry, is_toml) is None:
                return None
            new = remote_entries.wrapped_entry(name, entry, executable, is_toml)
            return "wrapped", str(entry["url"]), new, []
        if not isinstance(entry.get("command"), str):
            return None
        new = _wrap_entry(name, entry, executable)
        detail = " ".join([entry["command"], *map(str, entry.get("args", []))])
        return "wrapped", detail, new, new["args"][: _prefix_length(new["args"])]
    if not is_wrapped(entry):
        if remote:
            return "not-wrapped", f"remote server {entry.get('url', '')}", None, []
        return ("not-wrapped", "", None, []) if isinstance(entry.get("command"), str) else None
    prefix: list = []
    if "--url" in entry.get("args", []) and "--" not in entry.get("args", []):
        new = remote_entries.unwrapped_entry(entry, is_toml)
        detail = str(new.get("url")) if new else ""
    else:
        new = _unwrap_entry(entry)
        detail = " ".join([new["command"], *map(str, new.get("args", []))]) if new else ""
        prefix = entry["args"][: _prefix_length(entry["args"])]
    if new is None:
        return "unusable", "no server after the proxy's arguments", None, []
    return "unwrapped", detail, new, prefix


def lazaretto_gone(server: ServerState) -> bool:
    """A wrapped server whose `lazaretto` path no longer exists: its client cannot start it."""
    return server.state in ("wrapped", "already-wrapped") and _gone(server.command)


def _gone(command: str) -> bool:
    """A command given by path (as wrap writes it) whose file no longer exists."""
    return os.path.isabs(command) and not os.path.exists(command)


def _update_toml_table(table, new: dict, prefix: list, action: str) -> None:
    # Assign key by key, so comments and the table's other lines stay where they are.
    for key in list(table.keys()):
        if key not in new:
            del table[key]
    for key, value in new.items():
        current = table.get(key)
        if key == "args" and prefix and isinstance(current, Array):
            # The array's own text (lines, comments) stays; only the proxy's values come and go.
            arranged = (
                prefixed(current, prefix) if action == "wrap" else unprefixed(current, prefix)
            )
            if arranged is not None:
                table[key] = arranged
                continue
        if key not in table or table[key] != value:
            table[key] = value


def transform(path: Path, action: str, executable: str | None = None) -> Outcome:
    """What `wrap` (action "wrap") or `unwrap` would make of the config at `path` (nothing is written)."""
    executable = executable or lazaretto_executable()
    old = read_text(path)
    report: list[ServerState] = []
    if path.suffix == ".toml":
        document = load_toml(old, path)
        servers = document.get("mcp_servers")
        if servers is not None and hasattr(servers, "keys"):
            _visit("mcp_servers", servers, action, executable, report, True)
        new = dump_toml(document)
    else:
        data = load_json(old, path)
        for where, servers in _server_tables(data):
            _visit(where, servers, action, executable, report, False)
        new = (
            json_text(old, data)
            if any(s.state in ("wrapped", "repointed", "unwrapped") for s in report)
            else old
        )
    return Outcome(ConfigText(path, old, new), report)


def servers_of(path: Path) -> list[ServerState]:
    """The servers of a config and whether each is wrapped, for `doctor` (a dry `unwrap` read backwards)."""
    states = []
    for state in transform(path, "unwrap", "lazaretto").servers:
        renamed = {"unwrapped": "wrapped", "not-wrapped": "not-wrapped"}.get(
            state.state, state.state
        )
        states.append(ServerState(state.where, state.name, renamed, state.detail, state.command))
    return states


def remote_targets(name: str, root: Path | None = None) -> list[tuple[Path, RemoteTarget]]:
    """Every remote server called `name` in the client configs found, wrapped or not (for `auth`)."""
    from .locations import mcp_configs

    found = []
    for config in mcp_configs(root):
        if not config.path.exists():
            continue
        codex = config.path.suffix == ".toml"
        try:
            text = read_text(config.path)
            data = load_toml(text, config.path).unwrap() if codex else load_json(text, config.path)
        except (ValueError, OSError):
            continue
        tables = [data.get("mcp_servers") or {}] if codex else [t for _, t in _server_tables(data)]
        for servers in tables:
            for key, entry in servers.items() if isinstance(servers, dict) else []:
                target = _remote_target(key, entry, codex, name)
                if target is not None:
                    found.append((config.path, target))
    return found


def _remote_target(key: str, entry: Any, codex: bool, name: str) -> RemoteTarget | None:
    if not isinstance(entry, dict):
        return None
    if is_wrapped(entry):
        parsed = remote_entries.parse_proxy_args(entry.get("args", []))
        return parsed[1] if parsed and (parsed[0] or key) == name else None
    if key == name and remote_entries.kind(entry) == "http":
        return remote_entries.target_of(entry, codex)
    return None
