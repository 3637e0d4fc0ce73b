"""Remote (HTTP or SSE) servers in client configs, and the stdio entries that put them behind
`lazaretto proxy --url`.

JSON clients write `{"type": "http", "url": ..., "headers": {...}}` (`type` may be `streamable-http`
or `sse`, or absent in Cursor); Codex writes `url`, `bearer_token_env_var`, `http_headers` and
`env_http_headers`. Everything the entry said goes into the proxy's arguments, so `unwrap` can give
the entry back as it was.
"""

import re
from dataclasses import dataclass, field

HTTP_TYPES = frozenset({"http", "sse", "streamable-http", "streamable_http"})
WEBSOCKET_TYPES = frozenset({"ws", "websocket"})
_ENV_ONLY = re.compile(r"^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$")
_CODEX_KEYS = ("url", "bearer_token_env_var", "http_headers", "env_http_headers")


@dataclass
class RemoteTarget:
    """What a remote entry says: where the server is and what its requests carry."""

    url: str
    transport: str | None = None  # the JSON entry's `type`, when it had one
    headers: dict[str, str] = field(default_factory=dict)  # values may name ${env:VAR}
    bearer_token_env: str | None = None
    ca_file: str | None = None


def kind(entry: dict) -> str | None:
    """ "http" for an HTTP or SSE server the proxy can front, "websocket" for one it cannot, else None."""
    declared = str(entry.get("type", "")).lower()
    if declared in WEBSOCKET_TYPES or str(entry.get("url", "")).startswith(("ws://", "wss://")):
        return "websocket"
    if "url" in entry or declared in HTTP_TYPES:
        return "http"
    return None


def target_of(entry: dict, codex: bool) -> RemoteTarget | None:
    """The remote server an unwrapped entry names; None without a usable URL."""
    url = entry.get("url")
    if not isinstance(url, str) or not url:
        return None
    if codex:
        headers = {str(k): str(v) for k, v in dict(entry.get("http_headers") or {}).items()}
        for name, variable in dict(entry.get("env_http_headers") or {}).items():
            headers[str(name)] = "${env:" + str(variable) + "}"
        bearer = entry.get("bearer_token_env_var")
        return RemoteTarget(url, None, headers, str(bearer) if bearer else None)
    headers = entry.get("headers")
    headers = headers if isinstance(headers, dict) else {}
    transport = str(entry["type"]) if "type" in entry else None
    return RemoteTarget(url, transport, {str(k): str(v) for k, v in headers.items()})


def proxy_args(name: str, target: RemoteTarget) -> list[str]:
    """`proxy -n NAME --url URL [--transport T] [--header "K: V"]... [--bearer-token-env VAR]`."""
    args = ["proxy", "-n", name, "--url", target.url]
    if target.transport is not None:
        args += ["--transport", target.transport]
    for header, value in target.headers.items():
        args += ["--header", f"{header}: {value}"]
    if target.bearer_token_env:
        args += ["--bearer-token-env", target.bearer_token_env]
    if target.ca_file:
        args += ["--ca-file", target.ca_file]
    return args


def parse_proxy_args(args: list) -> tuple[str | None, RemoteTarget] | None:
    """(the -n name, the target) of `proxy ... --url URL ...` arguments; None for a command entry."""
    words = [str(word) for word in args]
    if "--url" not in words or "--" in words:
        return None
    name, target = None, RemoteTarget("")
    pairs = iter(words[1:])
    for flag in pairs:
        value = next(pairs, "")
        if flag in ("-n", "--name"):
            name = value
        elif flag == "--url":
            target.url = value
        elif flag == "--transport":
            target.transport = value
        elif flag == "--header":
            header, _, text = value.partition(":")
            target.headers[header.strip()] = text.strip()
        elif flag == "--bearer-token-env":
            target.bearer_token_env = value
        elif flag == "--ca-file":
            target.ca_file = value
    return (name, target) if target.url else None


def wrapped_entry(name: str, entry: dict, executable: str, codex: bool) -> dict:
    """The stdio entry that runs the proxy in front of this remote entry; other keys stay in place."""
    target = target_of(entry, codex)
    assert target is not None
    args = proxy_args(name, target)
    remote_keys = set(_CODEX_KEYS) if codex else {"url", "headers"}
    wrapped: dict = {}
    for key, value in entry.items():
        if key == "type" and not codex:
            wrapped["type"] = "stdio"
        elif key == "url":
            wrapped["command"] = executable
            wrapped["args"] = args
        elif key not in remote_keys:
            wrapped[key] = value
    return wrapped


def unwrapped_entry(entry: dict, codex: bool) -> dict | None:
    """The remote entry a wrapped one came from; None when its arguments name no URL."""
    parsed = parse_proxy_args(entry.get("args", []))
    if parsed is None:
        return None
    target = parsed[1]
    restored: dict = {}
    for key, value in entry.items():
        if key == "type" and not codex:
            if target.transport is not None:
                restored["type"] = target.transport
        elif key == "command":
            restored.update(_remote_keys(target, codex))
        elif key != "args":
            restored[key] = value
    return restored


def _remote_keys(target: RemoteTarget, codex: bool) -> dict:
    if not codex:
        return {"url": target.url, **({"headers": target.headers} if target.headers else {})}
    keys: dict = {"url": target.url}
    if target.bearer_token_env:
        keys["bearer_token_env_var"] = target.bearer_token_env
    plain, from_env = {}, {}
    for header, value in target.headers.items():
        variable = _ENV_ONLY.match(value)
        if variable:
            from_env[header] = variable.group(1)
        else:
            plain[header] = value
    if plain:
        keys["http_headers"] = plain
    if from_env:
        keys["env_http_headers"] = from_env
    return keys
