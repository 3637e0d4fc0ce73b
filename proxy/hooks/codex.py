"""Codex's PreToolUse and PostToolUse hooks.

Codex cannot replace a tool's output in place: a PostToolUse `decision: "block"` replaces the result
with its `reason`, so a cleaned output comes back as that reason (text, not the tool's shape).
PreToolUse refuses human-only verbs, store access and settings edits (shell commands and patches),
records clones, and gates network commands and calls to MCP servers no proxy stands in front of
(`mcp__SERVER__TOOL`) with the proxy's token flow.
"""

import re
import shlex
from typing import Any

from .commands import check_paths, disables_hooks, refusal_text
from .common import (
    Cleaned,
    HookContext,
    Reply,
    render_text,
    split_mcp_name,
    withheld_notice,
)
from .common import (
    deny_pre_tool_use as deny,
)
from .keystrokes import typed_lines
from .shell import Unreadable

CLIENT = "codex"
SHELL_TOOLS = frozenset({"Bash", "shell", "local_shell", "shell_command", "exec_command"})
# Keys typed into a running `exec_command` session (an interactive shell, a REPL).
STDIN_TOOLS = frozenset({"write_stdin"})
PATCH_TOOLS = frozenset({"apply_patch", "Edit", "Write"})
EVENTS = ("pre-tool-use", "post-tool-use")
_PATCH_PATH = re.compile(
    r"^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$", re.MULTILINE
)


def handle(event: str, data: dict) -> Reply:
    """Answer one hook event."""
    ctx = HookContext(CLIENT, data)
    try:
        return _pre(ctx, data) if event == "pre-tool-use" else _post(ctx, data)
    finally:
        ctx.close()


def _command(tool_input: Any) -> str:
    if isinstance(tool_input, dict):
        command = tool_input.get("command", "")
        # Codex sends a shell command as a string or as an argv list (quoted back into one line,
        # so `["bash", "-lc", "curl https://x"]` keeps its `-c` line whole).
        return shlex.join(map(str, command)) if isinstance(command, list) else str(command)
    return str(tool_input or "")


def _shell_line(tool_input: Any) -> str:
    """The line a shell tool runs: `command` (or `cmd`, as `exec_command` names it), a string or an
    argv list. Raises ValueError when there is none, which refuses the call: an empty reading
    would let whatever it runs through unread."""
    if isinstance(tool_input, dict):
        command = tool_input.get("command", tool_input.get("cmd"))
        if isinstance(command, list) and all(isinstance(word, str) for word in command):
            return shlex.join(command)
        if isinstance(command, str):
            return command
    raise ValueError("the shell tool's input holds no command line the hook can read")


def _typed(tool_input: Any) -> str:
    """The lines `write_stdin` enters (`chars`); raises Unreadable when they cannot be told, and
    ValueError when there are no keys to read."""
    if not isinstance(tool_input, dict):
        raise ValueError("the write_stdin input holds no keys the hook can read")
    chars = tool_input.get("chars", "")
    if not isinstance(chars, str):
        raise ValueError("the write_stdin input holds no keys the hook can read")
    return typed_lines(chars)


def _pre(ctx: HookContext, data: dict) -> Reply:
    tool = str(data.get("tool_name", ""))
    tool_input = data.get("tool_input")
    request_id = data.get("tool_use_id")
    mcp = split_mcp_name(tool)
    if mcp:
        refused = ctx.mcp_refusal(mcp[0], mcp[1], tool_input, request_id)
        return deny(refused) if refused else Reply({})
    if tool in PATCH_TOOLS:
        patch = _command(tool_input)
        if disables_hooks(patch):
            return deny(refusal_text("it would switch the client's hooks off"))
        paths = _PATCH_PATH.findall(patch)
        if isinstance(tool_input, dict) and isinstance(tool_input.get("file_path"), str):
            paths.append(tool_input["file_path"])
        reason = check_paths([p.strip() for p in paths], ctx.cwd, writing=True)
        return deny(refusal_text(reason)) if reason else Reply({})
    if tool in SHELL_TOOLS:
        command = _shell_line(tool_input)
        refused = ctx.shell_refusal(CLIENT, tool, command, ctx.cwd, request_id)
        if refused:
            return deny(refused)
    if tool in STDIN_TOOLS:
        # What is typed into the session's shell runs as a command line of its own: gated as one.
        try:
            typed = _typed(tool_input)
        except Unreadable as exc:
            return deny(refusal_text(f"it cannot be checked ({exc})"))
        refused = ctx.shell_refusal(CLIENT, tool, typed, ctx.cwd, request_id) if typed else None
        if refused:
            return deny(refused)
    return Reply({})


def _post(ctx: HookContext, data: dict) -> Reply:
    tool = str(data.get("tool_name", ""))
    request_id = data.get("tool_use_id")
    response = data.get("tool_response")
    mcp = split_mcp_name(tool)
    if mcp:
        return _replaced(ctx.clean_mcp(mcp[0], mcp[1], response, request_id))
    if tool in SHELL_TOOLS:
        command = _shell_line(data.get("tool_input"))
    elif tool in STDIN_TOOLS:
        # Keys typed are read as the command they enter; none (a poll) reads on what the session's
        # command printed, which was judged when `exec_command` started it.
        command = _typed(data.get("tool_input"))
    else:
        return Reply({})
    why = ctx.command_exposure(command, ctx.cwd)
    if why:
        ctx.expose(CLIENT, tool, f"{CLIENT}/{tool}: {why}", request_id)
    keys = frozenset(response) if isinstance(response, dict) else frozenset()
    return _replaced(ctx.clean_fields(CLIENT, tool, response, keys, bool(why), request_id))


def _replaced(cleaned: Cleaned) -> Reply:
    if not cleaned.changed:
        return Reply({})
    text = "lazaretto replaced this tool output with a cleaned copy:\n" + render_text(cleaned.value)
    return Reply({"decision": "block", "reason": text})


def fail(event: str, data: Any, error: BaseException) -> Reply:
    """The fail-closed answer when the hook itself could not decide."""
    if event != "post-tool-use":
        return deny(
            f"lazaretto could not check this tool call ({type(error).__name__}: {error}), so it was refused. "
            "Tell the user."
        )
    tool = str(data.get("tool_name", "")) if isinstance(data, dict) else "a tool"
    return Reply({"decision": "block", "reason": withheld_notice(tool, error)})
