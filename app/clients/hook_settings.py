"""`install` / `uninstall`: Lazaretto's entries in a client's hook settings, and nothing else of them.

Claude Code and Codex share one shape (`hooks.EVENT[] = {matcher, hooks: [{type, command, timeout}]}`),
Cursor has its own (`version`, `hooks.event[] = {command, matcher?, timeout}`). An entry is ours when
its command runs `lazaretto hook`; everything else in the file is left as it was, and `uninstall`
gives the file's text back as the backup `install` made has it (see undo).
"""

import re
import shlex
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from lazaretto.proxy.hooks.budget import CLIENT_TIMEOUT_SECONDS

from . import undo
from .files import ConfigText, backup_texts, backups_of, json_text, load_json, read_text
from .wrapping import lazaretto_executable

# A hook that times out lets the call through in every client: the hook answers well before it
# (see `budget.BUDGET_SECONDS`).
TIMEOUT_SECONDS = CLIENT_TIMEOUT_SECONDS


@dataclass(frozen=True)
class HookEvent:
    """One event a client runs our hook for: its key in the settings, the matcher, our event argument."""

    key: str
    matcher: str | None
    argument: str


EVENTS: dict[str, tuple[HookEvent, ...]] = {
    "claude-code": (
        # Every tool: the deny rules cover Bash, file edits and reads; the gate covers WebFetch
        # and MCP calls of servers no proxy stands in front of.
        HookEvent("PreToolUse", "*", "pre-tool-use"),
        # Every tool whose output carries text from outside (claude.TEXT_KEYS, resources).
        HookEvent(
            "PostToolUse",
            "^(mcp__.*|WebFetch|WebSearch|Bash|BashOutput|PowerShell|TaskOutput|Read|Grep|Glob|LS"
            "|NotebookRead|NotebookEdit|ReadMcpResourceTool|ListMcpResourcesTool)$",
            "post-tool-use",
        ),
    ),
    "codex": (
        # MCP calls too: the hook gates those of servers no proxy stands in front of.
        HookEvent(
            "PreToolUse",
            "^(Bash|shell|local_shell|shell_command|exec_command|write_stdin|apply_patch|Edit|Write"
            "|mcp__.*)$",
            "pre-tool-use",
        ),
        HookEvent(
            "PostToolUse",
            "^(Bash|shell|local_shell|shell_command|exec_command|write_stdin|mcp__.*)$",
            "post-tool-use",
        ),
    ),
    "cursor": (
        HookEvent("postToolUse", None, "post-tool-use"),
        HookEvent("beforeShellExecution", None, "before-shell-execution"),
        HookEvent("beforeMCPExecution", None, "before-mcp-execution"),
        HookEvent("preToolUse", "Write|Edit|Delete|Read", "pre-tool-use"),
    ),
}

_OURS = re.compile(r"lazaretto(?:\.exe)?['\"]?\s+hook\s+(\S+)\s+(\S+)")


def hook_command(client: str, event: str, executable: str | None = None) -> str:
    """The command line a client runs for one of our hooks."""
    return f"{shlex.quote(executable or lazaretto_executable())} hook {client} {event}"


def ours(command: Any) -> tuple[str, str] | None:
    """(client, event) when a hook command is one of Lazaretto's, else None."""
    match = _OURS.search(command) if isinstance(command, str) else None
    return (match.group(1), match.group(2)) if match else None


def _claude_like_entry(client: str, event: HookEvent, executable: str) -> dict:
    handler = {
        "type": "command",
        "command": hook_command(client, event.argument, executable),
        "timeout": TIMEOUT_SECONDS,
    }
    return {"matcher": event.matcher, "hooks": [handler]}


def _cursor_entry(event: HookEvent, executable: str) -> dict:
    entry = {
        "command": hook_command("cursor", event.argument, executable),
        "timeout": TIMEOUT_SECONDS,
    }
    if event.matcher:
        entry["matcher"] = event.matcher
    return entry


def _without_ours(groups: list, cursor: bool) -> list:
    """The event's entries with our handlers taken out (a group left empty goes too)."""
    kept = []
    for group in groups:
        if cursor:
            if not (isinstance(group, dict) and ours(group.get("command"))):
                kept.append(group)
            continue
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            handlers = [
                h for h in group["hooks"] if not (isinstance(h, dict) and ours(h.get("command")))
            ]
            if not handlers and group["hooks"]:
                continue
            if len(handlers) != len(group["hooks"]):
                group = {**group, "hooks": handlers}
        kept.append(group)
    return kept


def _edited(path: Path, text: str, edit) -> str:
    data = load_json(text, path)
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold a JSON object; nothing was changed")
    changed = edit(data)
    return json_text(text, data) if changed else text


def install(client: str, path: Path, executable: str | None = None) -> ConfigText:
    """The settings at `path` with our hooks for `client` (the same text when they are already there)."""
    old = read_text(path)
    return ConfigText(
        path, old, _with_ours(client, path, old, executable or lazaretto_executable())
    )


def _with_ours(client: str, path: Path, text: str, executable: str) -> str:
    cursor = client == "cursor"

    def edit(data: dict) -> bool:
        if cursor:
            data.setdefault("version", 1)
        hooks = data.setdefault("hooks", {})
        if not isinstance(hooks, dict):
            raise ValueError(f"{path}: `hooks` is not an object; nothing was changed")
        changed = False
        for event in EVENTS[client]:
            wanted = (
                _cursor_entry(event, executable)
                if cursor
                else _claude_like_entry(client, event, executable)
            )
            groups = hooks.get(event.key, [])
            if not isinstance(groups, list):
                raise ValueError(f"{path}: hooks.{event.key} is not a list; nothing was changed")
            if wanted in groups:
                continue
            hooks[event.key] = [*_without_ours(groups, cursor), wanted]
            changed = True
        return changed

    return _edited(path, text, edit)


def uninstall(client: str, path: Path) -> ConfigText:
    """The settings at `path` without Lazaretto's hooks: as the backup `install` made has them
    when it can tell, else with keys left empty by that taken out too."""
    old = read_text(path)
    new = _without_any(client, path, old)
    if new != old:
        new = undo.undone(old, backup_texts(path), _installing(client, path))
    change = ConfigText(path, old, new)
    if change.changed and change.new.strip() == "{}" and not backups_of(path):
        # Install wrote this file from nothing (a file it changed has a backup): take it away too.
        change.remove = True
    return change


def _installing(client: str, path: Path) -> undo.Change:
    """`install` as a change `undo` can take back from a backup."""

    def installed_with(executable: str, text: str) -> str:
        try:
            return _with_ours(client, path, text, executable)
        except ValueError:  # a backup that no longer parses tells nothing
            return text

    def makers(current: str) -> list:
        commands = installed(client, path, current).values()
        executables = dict.fromkeys(filter(None, map(_program, commands)))
        return [partial(installed_with, executable) for executable in executables]

    return undo.Change(
        makers, lambda text: _without_any(client, path, text), lambda text: load_json(text, path)
    )


def _program(command: str) -> str | None:
    """The program a hook command runs (the `lazaretto` path install wrote), if it can be told."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    return words[0] if words else None


def _without_any(client: str, path: Path, text: str) -> str:
    cursor = client == "cursor"

    def edit(data: dict) -> bool:
        hooks = data.get("hooks")
        if not isinstance(hooks, dict):
            return False
        changed = False
        for key in list(hooks):
            groups = hooks[key]
            if not isinstance(groups, list):
                continue
            kept = _without_ours(groups, cursor)
            if kept != groups:
                changed = True
                if kept:
                    hooks[key] = kept
                else:
                    del hooks[key]
        if changed and not hooks:
            del data["hooks"]
            if cursor and data == {"version": 1}:
                data.clear()
        return changed

    return _edited(path, text, edit)


def installed(client: str, path: Path, text: str | None = None) -> dict[str, str]:
    """Our hook events found in the settings at `path` (or in `text`, its content): event key ->
    command."""
    try:
        data = load_json(read_text(path) if text is None else text, path)
    except ValueError:
        return {}
    hooks = data.get("hooks") if isinstance(data, dict) else None
    found: dict[str, str] = {}
    if not isinstance(hooks, dict):
        return found
    for key, groups in hooks.items():
        for group in groups if isinstance(groups, list) else []:
            handlers = (
                [group]
                if client == "cursor"
                else (group.get("hooks", []) if isinstance(group, dict) else [])
            )
            for handler in handlers:
                mine = ours(handler.get("command")) if isinstance(handler, dict) else None
                if mine and mine[0] == client:
                    found[key] = handler["command"]
    return found
