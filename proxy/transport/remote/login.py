"""`lazaretto auth NAME`: log in to an OAuth-protected MCP server in the person's browser.

The MCP authorization flow is the official SDK's (`OAuthClientProvider`): protected-resource and
authorization-server metadata, dynamic client registration, the authorization-code grant with PKCE
and the resource indicator. Around it: a loopback redirect on 127.0.0.1 (RFC 8252) that receives
the code, the browser opened on the authorization URL, and the result kept by LoginStore.
"""

import socket
import threading
import webbrowser
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urljoin, urlsplit

import anyio
import httpx

from .connection import tls_context
from .logins import Login, LoginStore, with_tokens
from .options import RemoteOptions

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "lazaretto-login",
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "lazaretto-auth", "version": "1"},
    },
}
PAGE = b"<!doctype html><title>Lazaretto</title><p>Logged in. You can close this window."


class LoginFailed(Exception):
    """The login did not complete; the text says why."""


class _Callback:
    """The loopback redirect: one HTTP server on 127.0.0.1 waiting for `?code=...&state=...`."""

    def __init__(self, port: int) -> None:
        self.query: dict[str, list[str]] | None = None
        self.arrived = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args) -> None:
                pass

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                if parts.path != "/callback":
                    self.send_error(404)
                    return
                owner.query = parse_qs(parts.query)
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(PAGE)))
                self.end_headers()
                self.wfile.write(PAGE)
                owner.arrived.set()

        self.server = HTTPServer(("127.0.0.1", port), Handler)
        self.redirect_uri = f"http://127.0.0.1:{self.server.server_address[1]}/callback"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, timeout: float) -> tuple[str, str | None]:
        if not self.arrived.wait(timeout):
            raise LoginFailed(f"no answer from the browser within {timeout:g} seconds")
        query = self.query or {}
        if "error" in query:
            raise LoginFailed(
                f"the authorization server refused: {query['error'][0]}"
                + (f" ({query['error_description'][0]})" if "error_description" in query else "")
            )
        if "code" not in query:
            raise LoginFailed("the browser came back without an authorization code")
        return query["code"][0], query.get("state", [None])[0]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _Storage:
    """The SDK's TokenStorage, on top of the previous login (whose registration is reused)."""

    def __init__(self, previous: Login | None, redirect_uri: str) -> None:
        self.tokens = None
        self.client = None
        self._previous_client = (
            previous.client
            if previous and redirect_uri in previous.client.get("redirect_uris", [])
            else None
        )

    async def get_tokens(self):
        return None  # a login was asked for: never skip it with old tokens

    async def set_tokens(self, tokens) -> None:
        self.tokens = tokens

    async def get_client_info(self):
        from mcp.shared.auth import OAuthClientInformationFull

        if self._previous_client is None:
            return None
        return OAuthClientInformationFull.model_validate(self._previous_client)

    async def set_client_info(self, client_info) -> None:
        self.client = client_info


def login(
    options: RemoteOptions,
    logins: LoginStore,
    *,
    say: Callable[[str], None] = print,
    timeout: float = 300.0,
) -> Login:
    """Run the login; the new login is saved and returned. LoginFailed says why it did not work."""
    previous = logins.load()
    callback = _Callback(_previous_port(previous))
    try:
        return anyio.run(_login, options, logins, previous, callback, say, timeout)
    finally:
        callback.close()


async def _login(options, logins, previous, callback, say, timeout) -> Login:
    from mcp.client.auth import OAuthClientProvider
    from mcp.client.auth.exceptions import OAuthFlowError, OAuthTokenError
    from mcp.shared.auth import OAuthClientMetadata

    storage = _Storage(previous, callback.redirect_uri)

    async def open_browser(url: str) -> None:
        say(
            f"Log in to {options.host} in your browser. If it does not open, open this address:\n  {url}"
        )
        webbrowser.open(url)

    async def wait_for_code() -> tuple[str, str | None]:
        return await anyio.to_thread.run_sync(callback.wait, timeout)

    provider = OAuthClientProvider(
        server_url=options.url,
        client_metadata=OAuthClientMetadata(
            client_name="Lazaretto",
            redirect_uris=[callback.redirect_uri],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=storage,
        redirect_handler=open_browser,
        callback_handler=wait_for_code,
        timeout=timeout,
    )
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        **options.headers,
    }
    try:
        async with httpx.AsyncClient(
            auth=provider, verify=tls_context(options.ca_file), timeout=30.0
        ) as client:
            response = await client.post(options.url, json=INITIALIZE, headers=headers)
            await response.aclose()
            session = response.headers.get("mcp-session-id")
            if session:
                await client.delete(options.url, headers={**headers, "Mcp-Session-Id": session})
    except (OAuthFlowError, OAuthTokenError, LoginFailed) as exc:
        raise LoginFailed(str(exc)) from exc
    except httpx.HTTPError as exc:
        raise LoginFailed(f"{options.host} could not be reached ({exc})") from exc
    if storage.tokens is None:
        if response.status_code < 400:
            raise LoginFailed(
                f"{options.host} did not ask for a login (HTTP {response.status_code})"
            )
        raise LoginFailed(f"{options.host} still refuses the request (HTTP {response.status_code})")
    context = provider.context
    client_info = storage.client or await storage.get_client_info()
    if client_info is None:
        raise LoginFailed("the authorization server registered no client")
    token_endpoint = (
        str(context.oauth_metadata.token_endpoint)
        if context.oauth_metadata and context.oauth_metadata.token_endpoint
        # No metadata: the 2025-03-26 default the SDK itself used, /token at the server's origin.
        else urljoin(context.get_authorization_base_url(options.url), "/token")
    )
    fresh = Login(
        server=logins.server,
        url=logins.url,
        tokens={},
        client=client_info.model_dump(mode="json", exclude_none=True),
        token_endpoint=token_endpoint,
        resource=context.get_resource_url()
        if context.should_include_resource_param(context.protocol_version)
        else None,
    )
    saved = with_tokens(fresh, storage.tokens.model_dump(mode="json", exclude_none=True))
    logins.save(saved)
    return saved


def _previous_port(previous: Login | None) -> int:
    """The port of the previous login's redirect, so its registration still fits; else any free one."""
    for uri in previous.client.get("redirect_uris", []) if previous else []:
        port = urlsplit(uri).port
        if port and _free(port):
            return port
    return 0


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False
