"""`wrap` / `unwrap`: put every stdio MCP server of a client config behind `lazaretto proxy`, and take it out.

JSON configs (`mcpServers` of Claude Desktop, Claude Code's `.mcp.json` and `~/.claude.json` with its
`projects`, Cursor's `mcp.json`) and Codex's `config.toml` (`[mcp_servers.NAME]`). A wrapped entry runs
`lazaretto proxy -n NAME -- <original command> <original args>`, or for a remote server
`lazaretto proxy -n NAME --url URL ...` (see remote_entries); every other key stays where it was,
so `unwrap` gives the original entry back (and, from the backup `wrap` made, its original text:
see undo). An entry `unwrap` could not give back as it is, or whose secret would reach the
proxy's command line, is not wrapped.
"""

import os
import shutil
import sys
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Any

from . import remote_entries, undo
from .files import ConfigText, backup_texts, dump_toml, json_text, load_json, load_toml, read_text
from .jsonedit import newline_of
from .remote_entries import Dialect, RemoteTarget
from .toml_tables import update_table


class EntryState(StrEnum):
    """What wrap/unwrap did, or would do, to one server entry."""

    WRAPPED = "wrapped"
    ALREADY_WRAPPED = "already-wrapped"
    REPOINTED = "repointed"  # wrapped with a lazaretto that is gone: it runs this one now
    UNWRAPPED = "unwrapped"
    NOT_WRAPPED = "not-wrapped"
    REFUSED = "refused"  # left unwrapped: a secret would reach the command line, or no way back
    REMOTE = "remote"  # a WebSocket server: the proxy cannot front it
    UNUSABLE = "unusable"


CHANGED = frozenset({EntryState.WRAPPED, EntryState.REPOINTED, EntryState.UNWRAPPED})


@dataclass(frozen=True)
class ServerState:
    """One server entry of a config: where it is, and what wrap/unwrap did or would do to it."""

    where: str  # "mcpServers", "projects[/path].mcpServers" or "mcp_servers"
    name: str
    state: EntryState
    detail: str = ""
    command: str = ""
    """The command the entry runs as found (for a wrapped one, the `lazaretto` it starts)."""
    warnings: tuple[str, ...] = ()


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
# an entry without `args` one (which unwrap takes off again), so an empty one of the entry's own
# is told apart by the long spelling, which the proxy reads the same.
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
    own_empty = entry["args"][1:2] == [NAME_FLAG_OWN_EMPTY_ARGS]
    restored = {}
    for key, value in entry.items():
        if key == "command":
            restored[key] = command
        elif key == "args":
            # An entry that had no args got them from wrap (`-n`); give it none back.
            if args or own_empty:
                restored[key] = args
        else:
            restored[key] = value
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


@dataclass(frozen=True)
class _Step:
    """What happens to one entry: its state, what to say, the entry it becomes (None: it stays as
    it is), and the proxy's arguments in front of the server's own."""

    state: EntryState
    detail: str = ""
    new: dict | None = None
    prefix: list = field(default_factory=list)
    warnings: tuple[str, ...] = ()


_NOTHING_TO_RUN = _Step(EntryState.UNUSABLE, "no command or URL to run")


def _visit(
    where: str,
    servers,
    action: str,
    executable: str,
    dialect: Dialect,
    newline: str,
    report: list[ServerState],
) -> None:
    codex = dialect is Dialect.CODEX
    for name in list(servers.keys()):
        entry = servers[name]
        plain = entry.unwrap() if codex and hasattr(entry, "unwrap") else entry
        if not isinstance(plain, dict):
            report.append(ServerState(where, name, _NOTHING_TO_RUN.state, _NOTHING_TO_RUN.detail))
            continue
        step = (
            _wrap_step(name, plain, executable, dialect)
            if action == "wrap"
            else _unwrap_step(plain, dialect)
        )
        command = str(plain.get("command", ""))
        report.append(ServerState(where, name, step.state, step.detail, command, step.warnings))
        if step.new is None:
            continue
        if codex:
            update_table(entry, step.new, step.prefix, action == "wrap", newline)
        else:
            servers[name] = step.new


def _wrap_step(name: str, entry: dict, executable: str, dialect: Dialect) -> _Step:
    remote = remote_entries.kind(entry)
    if remote == "websocket":
        return _Step(EntryState.REMOTE, "WebSocket server: not covered by the proxy")
    if is_wrapped(entry):
        if not _gone(entry["command"]) or executable == entry["command"]:
            return _Step(EntryState.ALREADY_WRAPPED)
        # The lazaretto it ran is gone (a deleted virtualenv): point it at this one.
        detail = f"{entry['command']} is gone; it runs {executable} now"
        return _Step(EntryState.REPOINTED, detail, {**entry, "command": executable})
    if remote == "http":
        if remote_entries.target_of(entry, dialect) is None:
            return _NOTHING_TO_RUN
        exposure = remote_entries.exposure(entry, dialect)
        if exposure.refusal:
            return _Step(EntryState.REFUSED, exposure.refusal)
        new = remote_entries.wrapped_entry(name, entry, executable, dialect)
        step = _Step(EntryState.WRAPPED, str(entry["url"]), new, [], exposure.warnings)
    elif isinstance(entry.get("command"), str):
        new = _wrap_entry(name, entry, executable)
        detail = " ".join([entry["command"], *map(str, entry.get("args", []))])
        step = _Step(EntryState.WRAPPED, detail, new, new["args"][: _prefix_length(new["args"])])
    else:
        return _NOTHING_TO_RUN
    back = _unwrap_step(new, dialect).new or {}
    lost = sorted(key for key in {*entry, *back} if not undo.equal(entry.get(key), back.get(key)))
    if lost:
        return _Step(
            EntryState.REFUSED,
            f"unwrap could not give this entry back as it is written ({', '.join(lost)} would "
            "change), so it was left as it is",
        )
    return step


def _unwrap_step(entry: dict, dialect: Dialect) -> _Step:
    remote = remote_entries.kind(entry)
    if remote == "websocket":
        return _Step(EntryState.REMOTE, "WebSocket server: not covered by the proxy")
    if not is_wrapped(entry):
        if remote:
            return _Step(EntryState.NOT_WRAPPED, f"remote server {entry.get('url', '')}")
        return (
            _Step(EntryState.NOT_WRAPPED)
            if isinstance(entry.get("command"), str)
            else _NOTHING_TO_RUN
        )
    args = entry.get("args", [])
    if "--url" in args and "--" not in args:
        new = remote_entries.unwrapped_entry(entry, dialect)
        detail, prefix = (str(new.get("url")) if new else ""), []
    else:
        new = _unwrap_entry(entry)
        detail = " ".join([new["command"], *map(str, new.get("args", []))]) if new else ""
        prefix = args[: _prefix_length(args)]
    if new is None:
        return _Step(EntryState.UNUSABLE, "no server after the proxy's arguments")
    return _Step(EntryState.UNWRAPPED, detail, new, prefix)


def lazaretto_gone(server: ServerState) -> bool:
    """A wrapped server whose `lazaretto` path no longer exists: its client cannot start it."""
    return server.state in (EntryState.WRAPPED, EntryState.ALREADY_WRAPPED) and _gone(
        server.command
    )


def _gone(command: str) -> bool:
    """A command given by path (as wrap writes it) whose file no longer exists."""
    return os.path.isabs(command) and not os.path.exists(command)


def _transformed(
    path: Path, text: str, dialect: Dialect, action: str, executable: str
) -> tuple[str, list[ServerState]]:
    """The config's text after wrap or unwrap by what its entries mean, and each server's state."""
    report: list[ServerState] = []
    if dialect is Dialect.CODEX:
        document = load_toml(text, path)
        servers = document.get("mcp_servers")
        if servers is not None and hasattr(servers, "keys"):
            _visit("mcp_servers", servers, action, executable, dialect, newline_of(text), report)
        return dump_toml(document), report
    data = load_json(text, path)
    for where, servers in _server_tables(data):
        _visit(where, servers, action, executable, dialect, "", report)
    changed = any(server.state in CHANGED for server in report)
    return (json_text(text, data) if changed else text), report


def transform(path: Path, action: str, executable: str | None = None) -> Outcome:
    """What `wrap` (action "wrap") or `unwrap` would make of the config at `path` (nothing is written)."""
    executable = executable or lazaretto_executable()
    old = read_text(path)
    dialect = Dialect.of(path)
    new, report = _transformed(path, old, dialect, action, executable)
    if action == "unwrap" and new != old:
        new = undo.undone(old, backup_texts(path), _unwrapping(path, dialect))
    return Outcome(ConfigText(path, old, new), report)


def _unwrapping(path: Path, dialect: Dialect) -> undo.Change:
    """`wrap` as a change `undo` can take back from a backup."""

    def wrapped_with(executable: str, text: str) -> str:
        try:
            return _transformed(path, text, dialect, "wrap", executable)[0]
        except ValueError:  # a backup that no longer parses tells nothing
            return text

    def makers(current: str) -> list:
        return [partial(wrapped_with, executable) for executable in _executables(path, current)]

    def take_out(text: str) -> str:
        return _transformed(path, text, dialect, "unwrap", "lazaretto")[0]

    return undo.Change(makers, take_out, lambda text: _parsed(path, text))


def _parsed(path: Path, text: str) -> Any:
    return load_toml(text, path).unwrap() if path.suffix == ".toml" else load_json(text, path)


def _executables(path: Path, text: str) -> list[str]:
    """The `lazaretto` paths the wrapped entries of a config run, each once."""
    data = _parsed(path, text)
    tables = (
        [data.get("mcp_servers")]
        if path.suffix == ".toml"
        else [t for _, t in _server_tables(data)]
    )
    found: list[str] = []
    for servers in tables:
        for entry in servers.values() if isinstance(servers, dict) else []:
            if is_wrapped(entry) and entry["command"] not in found:
                found.append(entry["command"])
    return found


def servers_of(path: Path) -> list[ServerState]:
    """The servers of a config and whether each is wrapped, for `doctor` (a dry `unwrap` read backwards)."""
    _, report = _transformed(path, read_text(path), Dialect.of(path), "unwrap", "lazaretto")
    return [
        replace(server, state=EntryState.WRAPPED)
        if server.state is EntryState.UNWRAPPED
        else server
        for server in report
    ]


def remote_targets(name: str, root: Path | None = None) -> list[tuple[Path, RemoteTarget]]:
    """Every remote server called `name` in the client configs found, wrapped or not (for `auth`)."""
    from .locations import mcp_configs

    found = []
    for config in mcp_configs(root):
        if not config.path.exists():
            continue
        dialect = Dialect.of(config.path)
        try:
            data = _parsed(config.path, read_text(config.path))
        except (ValueError, OSError):
            continue
        codex = dialect is Dialect.CODEX
        tables = [data.get("mcp_servers") or {}] if codex else [t for _, t in _server_tables(data)]
        for servers in tables:
            for key, entry in servers.items() if isinstance(servers, dict) else []:
                target = _remote_target(key, entry, dialect, name)
                if target is not None:
                    found.append((config.path, target))
    return found


def _remote_target(key: str, entry: Any, dialect: Dialect, name: str) -> RemoteTarget | None:
    if not isinstance(entry, dict):
        return None
    if is_wrapped(entry):
        parsed = remote_entries.parse_proxy_args(entry.get("args", []))
        return parsed[1] if parsed and (parsed[0] or key) == name else None
    if key == name and remote_entries.kind(entry) == "http":
        return remote_entries.target_of(entry, dialect)
    return None
