"""Remote (HTTP or SSE) servers in client configs, and the stdio entries that put them behind
`lazaretto proxy --url`.

JSON clients write `{"type": "http", "url": ..., "headers": {...}}` (`type` may be `streamable-http`
or `sse`, or absent in Cursor); Codex writes `url`, `bearer_token_env_var`, `http_headers` and
`env_http_headers`. Everything the entry said goes into the proxy's arguments, so `unwrap` can give
the entry back as it was.

A wrapped entry's arguments are a command line: the client expands the variables a JSON entry
names in them, and `ps` shows the result to every local user. So a token is passed by the name
of its variable (`--bearer-token-env VAR`), an entry whose header names a variable the proxy
cannot take by name is not wrapped at all, and a header written out in the file is warned about.
Codex expands nothing in `args`: its `env_http_headers` reach the proxy as `${env:VAR}`, which
the proxy reads from its own environment, and `env_vars` lets those variables through to it.
"""

import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from lazaretto.proxy.transport.remote.options import OptionError, check_url, parse_header

HTTP_TYPES = frozenset({"http", "sse", "streamable-http", "streamable_http"})
WEBSOCKET_TYPES = frozenset({"ws", "websocket"})
_NAME = "[A-Za-z_][A-Za-z0-9_]*"
_ENV_ONLY = re.compile(rf"^\$\{{env:({_NAME})\}}$")
_CODEX_KEYS = ("url", "bearer_token_env_var", "http_headers", "env_http_headers")
_ENV_VARS = "env_vars"  # Codex: the variables it lets through to a stdio server


class Dialect(Enum):
    """How a client config names an environment variable in a remote entry."""

    CLAUDE = "${VAR}"  # Claude Code expands ${VAR} (and ${VAR:-default}) in every string
    CURSOR = "${env:VAR}"  # Cursor expands ${env:VAR}
    CODEX = "VAR"  # Codex expands nothing: bearer_token_env_var and env_http_headers name it

    @classmethod
    def of(cls, path: Path) -> "Dialect":
        """The dialect of a config file, by its name (Cursor's is `mcp.json`)."""
        if path.suffix == ".toml":
            return cls.CODEX
        return cls.CURSOR if path.name == "mcp.json" else cls.CLAUDE

    def named(self, variable: str) -> str:
        """How this config writes a reference to `variable`."""
        return self.value.replace("VAR", variable)

    @property
    def bearer(self) -> re.Pattern:
        """`Bearer <variable>` as this config writes it (the variable is group 1)."""
        return re.compile("^Bearer " + re.escape(self.value).replace("VAR", f"({_NAME})") + "$")


@dataclass
class RemoteTarget:
    """What a remote entry says: where the server is and what its requests carry."""

    url: str
    transport: str | None = None  # the JSON entry's `type`, when it had one
    headers: dict[str, str] = field(default_factory=dict)  # values may name ${env:VAR}
    bearer_token_env: str | None = None
    ca_file: str | None = None

    @property
    def variables(self) -> list[str]:
        """The environment variables the proxy reads for this server, by name."""
        named = [self.bearer_token_env] if self.bearer_token_env else []
        for value in self.headers.values():
            match = _ENV_ONLY.match(value)
            if match and match.group(1) not in named:
                named.append(match.group(1))
        return named


@dataclass(frozen=True)
class Exposure:
    """What wrapping a remote entry would put on the proxy's command line: a reason not to wrap
    it (a variable's value would land there), and warnings (values written out in the file)."""

    refusal: str | None = None
    warnings: tuple[str, ...] = ()


def kind(entry: dict) -> str | None:
    """ "http" for an HTTP or SSE server the proxy can front, "websocket" for one it cannot, else None."""
    declared = str(entry.get("type", "")).lower()
    if declared in WEBSOCKET_TYPES or str(entry.get("url", "")).startswith(("ws://", "wss://")):
        return "websocket"
    if "url" in entry or declared in HTTP_TYPES:
        return "http"
    return None


def _strings(value: object) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def target_of(entry: dict, dialect: Dialect) -> RemoteTarget | None:
    """The remote server an unwrapped entry names; None without a usable URL."""
    url = entry.get("url")
    if not isinstance(url, str) or not url:
        return None
    if dialect is Dialect.CODEX:
        headers = _strings(entry.get("http_headers"))
        for name, variable in _strings(entry.get("env_http_headers")).items():
            headers[name] = "${env:" + variable + "}"
        bearer = entry.get("bearer_token_env_var")
        return RemoteTarget(url, None, headers, str(bearer) if bearer else None)
    headers, bearer = {}, None
    for name, value in _strings(entry.get("headers")).items():
        match = dialect.bearer.match(value) if name == "Authorization" else None
        if match and bearer is None:
            bearer = match.group(1)
        else:
            headers[name] = value
    transport = str(entry["type"]) if "type" in entry else None
    return RemoteTarget(url, transport, headers, bearer)


def exposure(entry: dict, dialect: Dialect) -> Exposure:
    """Whether the entry can be wrapped without a secret reaching the command line, and what to
    warn about."""
    target = target_of(entry, dialect)
    if target is None:
        return Exposure()
    codex = dialect is Dialect.CODEX
    from_env = _strings(entry.get("env_http_headers")) if codex else {}
    warnings = []
    if "${" not in target.url:
        try:
            check_url(target.url)
        except OptionError as exc:
            return Exposure(f"{exc}; the proxy would not start")
    for name, value in target.headers.items():
        try:
            parse_header(f"{name}: x", {})
        except OptionError as exc:
            return Exposure(f"{exc}; the proxy would not start")
        if name in from_env:
            continue
        if "${" in value:
            return Exposure(_names_a_variable(name, dialect))
        if value:
            secret = "env_http_headers or bearer_token_env_var" if codex else _bearer(dialect)
            warnings.append(
                f"header {name} is written out in the file: its value goes on the proxy's command "
                f"line, where `ps` shows it to every local user; if it is a secret, name it in a "
                f"variable instead ({secret})"
            )
    if "${" in target.url or "?" in target.url:
        warnings.append(
            "the URL goes on the proxy's command line, variables expanded, where `ps` shows it "
            "to every local user; keep secrets out of it"
        )
    return Exposure(None, tuple(warnings))


def _bearer(dialect: Dialect) -> str:
    return f"`Authorization: Bearer {dialect.named('VAR')}`"


def _names_a_variable(name: str, dialect: Dialect) -> str:
    if dialect is Dialect.CODEX:
        return (
            f"header {name} in http_headers holds `${{`, which the proxy would read as a variable "
            "while Codex sends it as written; name the variable in env_http_headers instead"
        )
    return (
        f"header {name} names a variable: the client would write its value on the proxy's command "
        f"line, where `ps` shows it to every local user, and the proxy takes a variable by name "
        f"only as {_bearer(dialect)}. Use that form if the server takes a bearer token; otherwise "
        "leave this server unwrapped (`lazaretto install` gates its calls)"
    )


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


def wrapped_entry(name: str, entry: dict, executable: str, dialect: Dialect) -> dict:
    """The stdio entry that runs the proxy in front of this remote entry; other keys stay in place."""
    target = target_of(entry, dialect)
    assert target is not None
    codex = dialect is Dialect.CODEX
    remote_keys = set(_CODEX_KEYS) if codex else {"url", "headers"}
    passed = _passed(entry.get(_ENV_VARS), target.variables) if codex else None
    wrapped: dict = {}
    for key, value in entry.items():
        if key == "type" and not codex:
            wrapped["type"] = "stdio"
        elif key == "url":
            wrapped["command"] = executable
            wrapped["args"] = proxy_args(name, target)
            if passed and _ENV_VARS not in entry:
                wrapped[_ENV_VARS] = passed
        elif key == _ENV_VARS and passed:
            wrapped[key] = passed
        elif key not in remote_keys:
            wrapped[key] = value
    return wrapped


def _passed(own: object, variables: list[str]) -> list | None:
    """The entry's `env_vars` with the proxy's variables after its own; None when none is needed."""
    listed = list(own) if isinstance(own, list) else []
    missing = [variable for variable in variables if variable not in listed]
    return listed + missing if missing else None


def unwrapped_entry(entry: dict, dialect: Dialect) -> dict | None:
    """The remote entry a wrapped one came from; None when its arguments name no URL."""
    parsed = parse_proxy_args(entry.get("args", []))
    if parsed is None:
        return None
    target = parsed[1]
    codex = dialect is Dialect.CODEX
    restored: dict = {}
    for key, value in entry.items():
        if key == "type" and not codex:
            if target.transport is not None:
                restored["type"] = target.transport
        elif key == "command":
            restored.update(_remote_keys(target, dialect))
        elif key == _ENV_VARS and codex and isinstance(value, list):
            own = [variable for variable in value if variable not in target.variables]
            if own:
                restored[key] = own
        elif key != "args":
            restored[key] = value
    return restored


def _remote_keys(target: RemoteTarget, dialect: Dialect) -> dict:
    if dialect is not Dialect.CODEX:
        headers = dict(target.headers)
        if target.bearer_token_env:
            headers["Authorization"] = "Bearer " + dialect.named(target.bearer_token_env)
        return {"url": target.url, **({"headers": headers} if headers else {})}
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
