"""What `lazaretto proxy --url` is told about the server: its URL, extra headers, a token variable, a CA file."""

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

# `${env:NAME}` as Cursor and VS Code write it, `${NAME}` and `${NAME:-default}` as Claude Code does.
_VARIABLE = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")  # an HTTP field name (RFC 9110 token)
# Headers the transport sets itself: a configured value would break the protocol or its checks.
_RESERVED = frozenset(
    {
        "accept",
        "content-type",
        "content-length",
        "host",
        "mcp-session-id",
        "mcp-protocol-version",
        "mcp-method",
        "mcp-name",
        "last-event-id",
        "transfer-encoding",
        "connection",
    }
)


class OptionError(ValueError):
    """A remote option that cannot be used; the text says which and why."""


@dataclass(frozen=True)
class RemoteOptions:
    """The server's endpoint and what every request to it carries."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    ca_file: str | None = None
    legacy_sse: bool = False  # the config named the HTTP+SSE transport: no Streamable HTTP probe

    @property
    def host(self) -> str:
        """The server's host, as errors name it."""
        return urlsplit(self.url).hostname or self.url

    @property
    def has_credentials(self) -> bool:
        """Whether the configuration itself authenticates (then no stored login is used)."""
        return any(name.lower() == "authorization" for name in self.headers)


def check_url(url: str) -> str:
    """An absolute http(s) URL without credentials in it; OptionError otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OptionError(f"--url must be an http:// or https:// URL, not {url!r}")
    if parts.username or parts.password:
        raise OptionError("--url must not carry a user name or password; use --header instead")
    return url


def expand(value: str, what: str, environ: Mapping[str, str] | None = None) -> str:
    """Replace `${env:NAME}`, `${NAME}` and `${NAME:-default}`; a variable not set is an error."""
    env: Mapping[str, str] = os.environ if environ is None else environ

    def value_of(match: re.Match) -> str:
        name, default = match.group(1), match.group(2)
        if name in env and (env[name] or default is None):
            return env[name]
        if default is not None:
            return default
        raise OptionError(f"{what} names the environment variable {name}, which is not set")

    return _VARIABLE.sub(value_of, value)


def parse_header(text: str, environ: Mapping[str, str] | None = None) -> tuple[str, str]:
    """`"Name: value"` with variables expanded in the value."""
    name, colon, value = text.partition(":")
    name = name.strip()
    if not colon or not _TOKEN.match(name):
        raise OptionError(f'--header takes "Name: value", not {text!r}')
    if name.lower() in _RESERVED:
        raise OptionError(f"--header {name}: the proxy sets this header itself")
    value = expand(value.strip(), f"--header {name}", environ)
    if any(char in value for char in "\r\n\0"):
        raise OptionError(f"--header {name}: the value holds a line break")
    return name, value


def build(
    url: str,
    headers: list[str] | None = None,
    bearer_token_env: str | None = None,
    ca_file: str | None = None,
    transport: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> RemoteOptions:
    """Check and expand the options of `lazaretto proxy --url`."""
    env: Mapping[str, str] = os.environ if environ is None else environ
    check_url(url)
    parsed: dict[str, str] = {}
    for text in headers or []:
        name, value = parse_header(text, env)
        parsed[name] = value
    if bearer_token_env:
        token = env.get(bearer_token_env)
        if not token:
            raise OptionError(
                f"--bearer-token-env names {bearer_token_env}, which is not set or empty"
            )
        parsed = {k: v for k, v in parsed.items() if k.lower() != "authorization"}
        parsed["Authorization"] = f"Bearer {token}"
    if ca_file is not None and not os.path.isfile(ca_file):
        raise OptionError(f"--ca-file {ca_file}: no such file")
    return RemoteOptions(url, parsed, ca_file, transport == "sse")
