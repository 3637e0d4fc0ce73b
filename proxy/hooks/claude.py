"""Claude Code's PreToolUse and PostToolUse hooks.

PreToolUse refuses human-only verbs, store access and settings edits, records clones, and gates
outbound built-ins (WebFetch, network commands) and calls to MCP servers no proxy stands in front
of (`mcp__SERVER__TOOL`) with the proxy's token flow. PostToolUse cleans MCP
output (`updatedMCPToolOutput`) and the outside text of built-ins (`updatedToolOutput`, in the
tool's own shape), tainting the session for untrusted reads.
"""

import os
from typing import Any

from ..classify import OutboundBy
from .commands import check_tool_input, refusal_text
from .common import (
    Cleaned,
    HookContext,
    Reply,
    builtin_verdict,
    split_mcp_name,
    tool_input_object,
    withheld_notice,
    withhold_fields,
)
from .common import (
    deny_pre_tool_use as deny,
)

CLIENT = "claude-code"
SHELL_TOOLS = frozenset({"Bash", "PowerShell"})
WRITING_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
FILE_TOOLS = WRITING_TOOLS | {"Read", "Grep", "Glob", "LS", "NotebookRead"}
# A background shell's or task's output, read after the call that started it.
BACKGROUND_TOOLS = frozenset({"BashOutput", "TaskOutput"})
# File lists: names a cloned repository chose are text from outside too.
LISTING_TOOLS = frozenset({"Glob", "LS", "Grep"})
# Where each built-in's output carries text from outside (`docs`: tool output types); a notebook's
# cells, sources and outputs, and a file list's names, are such text too.
_NOTEBOOK = frozenset({"cells", "source", "outputs", "text"})
TEXT_KEYS: dict[str, frozenset[str]] = {
    "WebFetch": frozenset({"result"}),
    "WebSearch": frozenset({"results"}),
    "Bash": frozenset({"stdout", "stderr"}),
    "PowerShell": frozenset({"stdout", "stderr"}),
    "BashOutput": frozenset({"stdout", "stderr", "output"}),
    "TaskOutput": frozenset({"output", "result", "stdout", "stderr", "error"}),
    "Read": frozenset({"content"}) | _NOTEBOOK,
    "NotebookRead": _NOTEBOOK,
    "NotebookEdit": frozenset({"new_source", "original_file", "updated_file"}),
    "Grep": frozenset({"content", "filenames"}),
    "Glob": frozenset({"filenames"}),
    "LS": frozenset({"result", "content", "filenames", "entries"}),
}
EVENTS = ("pre-tool-use", "post-tool-use")
# Claude Code's own tools that read an MCP server's resources (outside any `mcp__` name), and the
# request each one makes of the server named by its `server` input.
MCP_RESOURCE_TOOLS = {
    "ReadMcpResourceTool": "resources/read",
    "ListMcpResourcesTool": "resources/list",
}


def handle(event: str, data: dict) -> Reply:
    """Answer one hook event."""
    if "cursor_version" in data:
        # Cursor also runs Claude Code's hooks; its own hooks (`install --client cursor`) answer it.
        return Reply({})
    ctx = HookContext(CLIENT, data)
    try:
        return _pre(ctx, data) if event == "pre-tool-use" else _post(ctx, data)
    finally:
        ctx.close()


def _pre(ctx: HookContext, data: dict) -> Reply:
    tool = str(data.get("tool_name", ""))
    tool_input = tool_input_object(data)
    request_id = data.get("tool_use_id")
    mcp = split_mcp_name(tool)
    if mcp:
        refused = ctx.mcp_refusal(mcp[0], mcp[1], tool_input, request_id)
        if refused:
            return deny(refused)
    elif tool in SHELL_TOOLS:
        command = tool_input.get("command")
        if not isinstance(command, str):
            # Read as an empty line, whatever it runs would pass unread: refused (see `fail`).
            raise ValueError(f"the {tool} tool's input holds no command line the hook can read")
        refused = ctx.shell_refusal(CLIENT, tool, command, ctx.cwd, request_id)
        if refused:
            return deny(refused)
    elif tool in FILE_TOOLS:
        reason = check_tool_input(tool_input, ctx.cwd, writing=tool in WRITING_TOOLS)
        if reason:
            return deny(refusal_text(reason))
    elif tool in MCP_RESOURCE_TOOLS:
        server = str(tool_input.get("server") or "mcp-resources")
        params = {key: value for key, value in tool_input.items() if key != "server"}
        refused = ctx.request_refusal(server, MCP_RESOURCE_TOOLS[tool], params, request_id)
        if refused:
            return deny(refused)
    elif tool == "WebFetch":
        url = str(tool_input.get("url", ""))
        if not ctx.host_allowed(url):
            verdict = builtin_verdict(
                tool, "it fetches a URL whose host is not on allow_hosts", OutboundBy.FETCH_HOST
            )
            refused = ctx.gate(CLIENT, tool, verdict, {"url": url}, request_id)
            if refused:
                return deny(refused)
    return Reply({})


def _post(ctx: HookContext, data: dict) -> Reply:
    tool = str(data.get("tool_name", ""))
    request_id = data.get("tool_use_id")
    response = data.get("tool_response")
    mcp = split_mcp_name(tool)
    if mcp:
        return _updated("updatedMCPToolOutput", ctx.clean_mcp(mcp[0], mcp[1], response, request_id))
    if tool in MCP_RESOURCE_TOOLS:
        # Without a server named, resources of every server are listed: judged as one the policy
        # does not know (untrusted).
        server = str(tool_input_object(data).get("server") or "mcp-resources")
        method = MCP_RESOURCE_TOOLS[tool]
        return _updated(
            "updatedToolOutput", ctx.clean_mcp(server, None, response, request_id, method)
        )
    keys = TEXT_KEYS.get(tool)
    if keys is None:
        return Reply({})
    reason = _exposure(ctx, tool, data)
    if reason:
        ctx.expose(CLIENT, tool, reason, request_id)
    return _updated(
        "updatedToolOutput",
        ctx.clean_fields(CLIENT, tool, response, keys, bool(reason), request_id),
    )


def _exposure(ctx: HookContext, tool: str, data: dict) -> str | None:
    """Why this built-in's output is untrusted, or None (then only invisible characters are removed)."""
    tool_input = tool_input_object(data)
    if tool == "WebFetch":
        return f"{CLIENT}/WebFetch read {str(tool_input.get('url', 'a web page'))[:200]}"
    if tool == "WebSearch":
        return f"{CLIENT}/WebSearch read web search results"
    if tool in SHELL_TOOLS:
        why = ctx.command_exposure(str(tool_input.get("command", "")), ctx.cwd)
        return f"{CLIENT}/{tool}: {why}" if why else None
    if tool in BACKGROUND_TOOLS:
        return _background_exposure(ctx, tool, data.get("tool_response"))
    path = (
        tool_input.get("file_path")
        or tool_input.get("notebook_path")
        or tool_input.get("path")
        or ctx.cwd
    )
    paths = [str(path)]
    if tool in LISTING_TOOLS:
        # A list may name files inside a cloned directory below the one it was asked about.
        paths += sorted({os.path.dirname(name) for name in _listed(data.get("tool_response"))})
    row = ctx.untrusted_dir([p if os.path.isabs(p) else os.path.join(ctx.cwd, p) for p in paths])
    return (
        f"{CLIENT}/{tool} read inside {row['path']}, a cloned directory not yet trusted"
        if row
        else None
    )


def _listed(response: Any) -> list[str]:
    """The file names a file list's output holds (`filenames`), as strings."""
    names = response.get("filenames") if isinstance(response, dict) else None
    if not isinstance(names, list):
        return []
    return [name for name in names if isinstance(name, str)]


def _background_exposure(ctx: HookContext, tool: str, response: Any) -> str | None:
    """Why a background shell's or task's output is untrusted: its command's reads, judged as the
    Bash tool's are; a task whose command the output does not show is judged untrusted."""
    command = _find_string(response, "command")
    if command is None:
        return f"{CLIENT}/{tool} read the output of a background task whose command it cannot see"
    why = ctx.command_exposure(command, ctx.cwd)
    return f"{CLIENT}/{tool}: {why}" if why else None


def _find_string(value: Any, key: str) -> str | None:
    """The first string under `key` at any depth of nested objects."""
    if not isinstance(value, dict):
        return None
    found = value.get(key)
    if isinstance(found, str):
        return found
    for child in value.values():
        inner = _find_string(child, key)
        if inner is not None:
            return inner
    return None


def _updated(field: str, cleaned: Cleaned) -> Reply:
    if not cleaned.changed:
        return Reply({})
    return Reply({"hookSpecificOutput": {"hookEventName": "PostToolUse", field: cleaned.value}})


def fail(event: str, data: Any, error: BaseException) -> Reply:
    """The fail-closed answer when the hook itself could not decide."""
    if event != "post-tool-use":
        return deny(
            f"lazaretto could not check this tool call ({type(error).__name__}: {error}), so it was refused. "
            "Tell the user."
        )
    tool = str(data.get("tool_name", "")) if isinstance(data, dict) else ""
    notice = withheld_notice(tool or "a tool", error)
    if split_mcp_name(tool):
        return _updated("updatedMCPToolOutput", Cleaned(notice, True))
    if tool in TEXT_KEYS:
        replaced = withhold_fields(data.get("tool_response"), TEXT_KEYS[tool], notice)
        if replaced is not None:
            return _updated("updatedToolOutput", Cleaned(replaced, True))
        return Reply({})  # no outside text in this output
    if isinstance(data, dict) and tool and tool not in MCP_RESOURCE_TOOLS:
        return Reply({})  # a tool whose output carries no outside text
    # Not even the tool is known, or its output is a server's resource that could not be read:
    # stop the agent rather than let an unread output through.
    return Reply({"continue": False, "stopReason": notice, "decision": "block", "reason": notice})
