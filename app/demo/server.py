"""A small stdio MCP server for the demo and the tests: `python -m lazaretto.app.demo.server ROLE`.

Roles: `web` (fetch_page), `tickets` (get_issue), `mail` (read_inbox), `slack`
(read_channel, post_message). Every call it receives is appended to the file named by
`LAZARETTO_DEMO_LOG`, so a test can prove that a refused call never arrived.
"""

import json
import os
import sys

from .pages import CHANNEL, EMAIL, RELEASE_NOTES, TICKET

TOOLS = {
    "web": [
        {
            "name": "fetch_page",
            "description": "Fetch a web page and return its text.",
            "inputSchema": {
                "type": "object",
                "properties": {"url": {"type": "string"}},
                "required": ["url"],
            },
        }
    ],
    "tickets": [
        {
            "name": "get_issue",
            "description": "Read one ticket by key.",
            "inputSchema": {
                "type": "object",
                "properties": {"key": {"type": "string"}},
                "required": ["key"],
            },
            "annotations": {"readOnlyHint": True},
        }
    ],
    "mail": [
        {
            "name": "read_inbox",
            "description": "Read the newest e-mail.",
            "inputSchema": {"type": "object", "properties": {}},
            "annotations": {"readOnlyHint": True},
        }
    ],
    "slack": [
        {
            "name": "read_channel",
            "description": "Read recent messages of a channel.",
            "inputSchema": {"type": "object", "properties": {"channel": {"type": "string"}}},
        },
        {
            "name": "post_message",
            "description": "Post a message to a channel.",
            "inputSchema": {
                "type": "object",
                "properties": {"channel": {"type": "string"}, "text": {"type": "string"}},
                "required": ["channel", "text"],
            },
        },
    ],
}


def call_tool(role: str, name: str, arguments: dict) -> dict:
    """The result of one tool call."""
    if role == "web" and name == "fetch_page":
        return {"content": [{"type": "text", "text": RELEASE_NOTES}]}
    if role == "tickets" and name == "get_issue":
        return {
            "content": [{"type": "text", "text": json.dumps(TICKET)}],
            "structuredContent": TICKET,
        }
    if role == "mail" and name == "read_inbox":
        return {"content": [{"type": "text", "text": json.dumps(EMAIL)}]}
    if role == "slack" and name == "read_channel":
        return {"content": [{"type": "text", "text": json.dumps(CHANNEL, ensure_ascii=False)}]}
    if role == "slack" and name == "post_message":
        return {"content": [{"type": "text", "text": f"posted to {arguments.get('channel')}"}]}
    return {"content": [{"type": "text", "text": f"unknown tool {name}"}], "isError": True}


def handle(role: str, message: dict) -> dict | None:
    """Answer one request; notifications get no answer."""
    method, request_id = message.get("method"), message.get("id")
    if request_id is None:
        return None
    if method == "initialize":
        result = {
            "protocolVersion": message.get("params", {}).get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": f"lazaretto-demo-{role}", "version": "1.0.0"},
        }
    elif method == "tools/list":
        result = {"tools": TOOLS[role]}
    elif method == "tools/call":
        params = message.get("params", {})
        _log(role, params)
        result = call_tool(role, params.get("name"), params.get("arguments") or {})
    elif method == "ping":
        result = {}
    else:
        return {
            "jsonrpc": "2.0",
            "id": request_id,
            "error": {"code": -32601, "message": f"no method {method}"},
        }
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def _log(role: str, params: dict) -> None:
    path = os.environ.get("LAZARETTO_DEMO_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(
                json.dumps(
                    {"role": role, "tool": params.get("name"), "arguments": params.get("arguments")}
                )
                + "\n"
            )


def main(argv: list[str]) -> int:
    """Serve one role on stdin/stdout until EOF."""
    role = argv[0] if argv else "web"
    if role not in TOOLS:
        print(f"unknown role {role!r}; one of {', '.join(TOOLS)}", file=sys.stderr)
        return 2
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = handle(role, json.loads(line))
        if reply is not None:
            sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
