"""Why a remote server's answer could not be brought to the client, in one sentence with what to do.

Every failure becomes a JSON-RPC error for the request that waits (`error.data.reason` is the
code); nothing the server sent that was not read whole reaches the client.
"""

import ssl
from enum import StrEnum

import httpx


class Failure(StrEnum):
    """The `error.data.reason` codes of remote failures."""

    UNREACHABLE = "unreachable"
    TLS = "tls_failed"
    TIMEOUT = "remote_timeout"
    UNAUTHORIZED = "unauthorized"
    FORBIDDEN = "forbidden"
    LOGIN_REQUIRED = "login_required"
    REFRESH_FAILED = "refresh_failed"
    HTTP_ERROR = "http_error"
    NOT_MCP = "not_mcp"
    STREAM_CUT = "stream_cut"
    OVERSIZED = "oversized_reply"
    SESSION_LOST = "session_lost"
    CANCELLED = "cancelled"
    CONNECTION_ENDED = "connection_ended"


class Undeliverable(Exception):
    """An exchange with the server that cannot bring back a whole answer."""

    def __init__(self, failure: Failure, sentence: str) -> None:
        super().__init__(sentence)
        self.failure = failure
        self.sentence = sentence


def from_http_error(exc: Exception, host: str) -> Undeliverable:
    """What an httpx (or TLS) exception means for the client."""
    if isinstance(exc, Undeliverable):
        return exc
    cause = _root(exc)
    if isinstance(cause, ssl.SSLError):
        detail = getattr(cause, "verify_message", None) or getattr(cause, "reason", None) or cause
        return Undeliverable(
            Failure.TLS,
            f"the TLS connection to {host} failed ({detail}); if the server uses a private "
            "certificate authority, give its certificate with --ca-file (verification cannot be "
            "turned off)",
        )
    if isinstance(exc, httpx.TimeoutException):
        return Undeliverable(
            Failure.TIMEOUT, f"{host} did not answer in time ({type(exc).__name__}); retry later"
        )
    if isinstance(exc, httpx.ConnectError):
        return Undeliverable(
            Failure.UNREACHABLE,
            f"cannot reach {host} ({cause}); check the URL and the network, then retry",
        )
    if isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.StreamError)):
        return Undeliverable(
            Failure.STREAM_CUT,
            f"the connection to {host} broke before the answer arrived whole ({exc}); retry the request",
        )
    return Undeliverable(
        Failure.UNREACHABLE, f"the request to {host} failed ({type(exc).__name__}: {exc}); retry"
    )


def http_status(status: int, host: str) -> Undeliverable:
    """A status that carries no JSON-RPC answer (redirects are not followed: a token must not travel)."""
    if status == 401:
        return Undeliverable(
            Failure.UNAUTHORIZED,
            f"{host} refused the configured credentials (HTTP 401); check the token or header "
            "given for this server",
        )
    if status == 403:
        return Undeliverable(
            Failure.FORBIDDEN,
            f"{host} refused the request (HTTP 403 Forbidden); check that the account may use "
            "this server",
        )
    if 300 <= status < 400:
        return Undeliverable(
            Failure.HTTP_ERROR,
            f"{host} answered with a redirect (HTTP {status}), which the proxy does not follow; "
            "put the URL it names in the configuration",
        )
    return Undeliverable(
        Failure.HTTP_ERROR, f"{host} answered HTTP {status} without an MCP message; retry later"
    )


def _root(exc: BaseException) -> BaseException:
    """The TLS error somewhere in the chain of causes, else the innermost cause."""
    seen = exc
    for _ in range(16):
        if isinstance(seen, ssl.SSLError):
            return seen
        following = seen.__cause__ or seen.__context__
        if following is None:
            return seen
        seen = following
    return seen
