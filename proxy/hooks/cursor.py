"""Cursor's hooks: postToolUse, beforeShellExecution, beforeMCPExecution and preToolUse.

Cursor can replace only MCP output (`updated_mcp_tool_output`); shell output and file reads can
taint the session but not be cleaned. Shell commands are refused or gated in beforeShellExecution,
MCP calls of servers not behind the proxy in beforeMCPExecution, file edits in preToolUse.
"""

import json
from typing import Any

from ..gate.hosts import host_of_url
from .commands import check_command, check_tool_input, refusal_text
from .common import (
    HookContext,
    Reply,
    render_text,
    split_mcp_name,
    tool_input_object,
    withheld_notice,
)
from .proxied import served_by_command
from .shell import Unreadable, invocations

CLIENT = "cursor"
EVENTS = ("post-tool-use", "before-shell-execution", "before-mcp-execution", "pre-tool-use")
BUILTIN_TOOLS = frozenset(
    {"Shell", "Read", "Write", "Edit", "Grep", "LS", "Delete", "Task", "Glob", "Search"}
)
WRITING_TOOLS = frozenset({"Write", "Edit", "Delete"})


def handle(event: str, data: dict) -> Reply:
    """Answer one hook event."""
    ctx = HookContext(CLIENT, data)
    try:
        if event == "before-shell-execution":
            return _shell(ctx, data)
        if event == "before-mcp-execution":
            return _mcp_call(ctx, data)
        if event == "pre-tool-use":
            return _pre(ctx, data)
        return _post(ctx, data)
    finally:
        ctx.close()


def deny(reason: str, *, exit_code: int = 0) -> Reply:
    """Cursor's permission answer; the agent reads `agent_message`, the person `user_message`."""
    return Reply(
        {"permission": "deny", "user_message": reason, "agent_message": reason}, exit_code, reason
    )


ALLOW = Reply({"permission": "allow"})


def _shell(ctx: HookContext, data: dict) -> Reply:
    command = data.get("command")
    if not isinstance(command, str):
        raise ValueError("the shell event holds no command line the hook can read")
    cwd = str(data.get("cwd") or ctx.cwd)
    refused = ctx.shell_refusal(CLIENT, "Shell", command, cwd, None)
    return deny(refused) if refused else ALLOW


def _mcp_call(ctx: HookContext, data: dict) -> Reply:
    server, tool = _mcp_names(str(data.get("tool_name", "")), data)
    raw = data.get("tool_input")
    try:
        arguments = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        arguments = raw  # still scanned for hosts as text
    refused = ctx.mcp_refusal(
        server, tool, arguments, None, command=data.get("command"), url=data.get("url")
    )
    return deny(refused) if refused else ALLOW


def _pre(ctx: HookContext, data: dict) -> Reply:
    tool = str(data.get("tool_name", ""))
    tool_input = data.get("tool_input")
    if tool == "Shell" and isinstance(tool_input, dict):
        reason = check_command(str(tool_input.get("command", "")), ctx.cwd)
    else:
        reason = check_tool_input(tool_input, ctx.cwd, writing=tool in WRITING_TOOLS)
    if reason:
        return Reply({"decision": "deny", "reason": refusal_text(reason)})
    return Reply({})


def _post(ctx: HookContext, data: dict) -> Reply:
    tool = str(data.get("tool_name", ""))
    request_id = data.get("tool_use_id")
    tool_input = tool_input_object(data)
    if tool in BUILTIN_TOOLS:
        # Cursor cannot replace these outputs; an untrusted read still taints the session.
        why = None
        if tool == "Shell":
            why = ctx.command_exposure(str(tool_input.get("command", "")), ctx.cwd)
        elif tool in ("Read", "Grep"):
            row = ctx.untrusted_dir(
                [str(tool_input.get("file_path") or tool_input.get("path") or ctx.cwd)]
            )
            why = f"read inside {row['path']}, a cloned directory not yet trusted" if row else None
        if why:
            ctx.expose(CLIENT, tool, f"{CLIENT}/{tool}: {why}", request_id)
        return Reply({})
    server, name = _mcp_names(tool, data)
    output = data.get("tool_output")
    cleaned = ctx.clean_mcp(server, name, _parsed(output), request_id)
    if not cleaned.changed:
        return Reply({})
    return Reply({"updated_mcp_tool_output": _as_object(cleaned.value)})


def _parsed(output: Any) -> Any:
    """Cursor sends the MCP result as a JSON string; plain text stays text."""
    if isinstance(output, str) and output.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(output)
        except ValueError:
            return output
    return output


def _as_object(value: Any) -> dict:
    if isinstance(value, dict):
        return value
    if isinstance(value, list):
        return {"content": value}
    return {"content": [{"type": "text", "text": render_text(value)}]}


def _mcp_names(tool: str, data: dict) -> tuple[str, str]:
    """(server, tool) from `mcp__server__tool`, `MCP:tool`, or the server's command or URL."""
    split = split_mcp_name(tool)
    if split:
        return split
    name = tool.removeprefix("MCP:").strip() or tool
    url = data.get("url")
    if isinstance(url, str) and url:
        return host_of_url(url) or CLIENT, name
    command = data.get("command")
    served = served_by_command(command) if isinstance(command, str) else None
    if served:
        return served, name  # the name the proxy serves it under, as its refusals say
    try:
        # The program a launcher finally runs names the server (`npx -y slack-server` -> slack-server).
        found = invocations(command, ".") if isinstance(command, str) else []
    except Unreadable:
        found = []
    return (found[-1].program if found else CLIENT), name


def fail(event: str, data: Any, error: BaseException) -> Reply:
    """The fail-closed answer when the hook itself could not decide."""
    subject = str(data.get("tool_name", "a tool")) if isinstance(data, dict) else "a tool"
    if event == "pre-tool-use":
        return Reply({"decision": "deny", "reason": withheld_notice(subject, error)}, 2, str(error))
    if event != "post-tool-use":
        return deny(
            f"lazaretto could not check this call ({type(error).__name__}: {error}), so it was refused. "
            "Tell the user.",
            exit_code=2,
        )
    if isinstance(data, dict) and str(data.get("tool_name", "")) in BUILTIN_TOOLS:
        return Reply({})  # Cursor shows these outputs whatever a hook says
    notice = withheld_notice(subject, error)
    return Reply({"updated_mcp_tool_output": {"content": [{"type": "text", "text": notice}]}})
