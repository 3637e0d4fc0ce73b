"""The MCP headers of a POST, computed from the very body that is sent.

`MCP-Protocol-Version` (the version in the request's `_meta`, else the one `initialize` agreed),
and for 2026-07-28 servers `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` headers a tool's
`inputSchema` asks for with `x-mcp-header`. Built from the body after the mediator judged it, the
headers can never disagree with what the server reads.
"""

import base64
import re
from typing import Any

VERSION_META = "io.modelcontextprotocol/protocolVersion"
# Which parameter names the request (the `Mcp-Name` header), per method.
_NAMED_BY = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
_SAFE = re.compile(r"^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$")
_MAX_SAFE_INTEGER = 2**53 - 1


def protocol_version(message: Any, negotiated: str | None) -> str | None:
    """The version a request declares in `_meta`, else the negotiated one."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    declared = meta.get(VERSION_META) if isinstance(meta, dict) else None
    return declared if isinstance(declared, str) else negotiated


def header_value(value: Any) -> str | None:
    """A parameter value as the spec encodes it; None when it is not a string, integer or boolean."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) <= _MAX_SAFE_INTEGER else None
    if not isinstance(value, str):
        return None
    if _SAFE.match(value) and not (value.startswith("=?base64?") and value.endswith("?=")):
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8")).decode("ascii") + "?="


class ParamHeaders:
    """The `x-mcp-header` annotations of the tools the server listed: tool -> [(path, header)]."""

    def __init__(self) -> None:
        self._tools: dict[str, list[tuple[tuple[str, ...], str]]] = {}

    def learn(self, result: Any) -> list[str]:
        """Read a tools/list result; return the names of tools whose annotations are invalid."""
        invalid = []
        tools = result.get("tools") if isinstance(result, dict) else None
        for tool in tools if isinstance(tools, list) else []:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
                continue
            found = _annotations(tool.get("inputSchema"), ())
            names = [header.lower() for _, header in found]
            if any(not _TOKEN.match(h) for h in names) or len(set(names)) != len(names):
                invalid.append(tool["name"])
                self._tools.pop(tool["name"], None)
            elif found:
                self._tools[tool["name"]] = found
            else:
                self._tools.pop(tool["name"], None)
        return invalid

    def headers(self, tool: str, arguments: Any) -> dict[str, str]:
        """The `Mcp-Param-*` headers of one call."""
        out = {}
        for path, header in self._tools.get(tool, []):
            value: Any = arguments
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            encoded = header_value(value)
            if encoded is not None:
                out[f"Mcp-Param-{header}"] = encoded
        return out


def request_headers(message: Any, negotiated: str | None, params: ParamHeaders) -> dict[str, str]:
    """Every MCP header of one POST body (a request, notification, answer or legacy batch)."""
    headers: dict[str, str] = {}
    version = protocol_version(message, negotiated)
    if version:
        headers["MCP-Protocol-Version"] = version
    if not (
        isinstance(message, dict) and "id" in message and isinstance(message.get("method"), str)
    ):
        return headers
    method = message["method"]
    headers["Mcp-Method"] = method
    args = message.get("params")
    args = args if isinstance(args, dict) else {}
    named = _NAMED_BY.get(method)
    name = header_value(args.get(named)) if named and isinstance(args.get(named), str) else None
    if name is not None:
        headers["Mcp-Name"] = name
    if method == "tools/call" and isinstance(args.get("name"), str):
        headers.update(params.headers(args["name"], args.get("arguments")))
    return headers


def _annotations(schema: Any, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], str]]:
    """(path, header name) of every property reachable through `properties` alone."""
    found = []
    properties = schema.get("properties") if isinstance(schema, dict) else None
    for key, sub in properties.items() if isinstance(properties, dict) else []:
        if not isinstance(sub, dict):
            continue
        header = sub.get("x-mcp-header")
        if isinstance(header, str):
            found.append(((*path, key), header))
        found.extend(_annotations(sub, (*path, key)))
    return found
