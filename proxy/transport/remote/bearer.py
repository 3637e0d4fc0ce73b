"""The proxy's side of an OAuth login: send the stored token, renew it with its refresh token, and
when that is not possible say so, so the person runs `lazaretto auth NAME`.

The proxy never starts a login itself: it runs under the agent's client, where nobody is at a
browser, and a login the agent could set off is not one the person chose.
"""

import base64
import threading
from collections.abc import Generator
from urllib.parse import quote, urlsplit

import httpx

from .failures import Failure, Undeliverable
from .logins import Login, LoginStore, with_tokens


class StoredLogin(httpx.Auth):
    """Bearer tokens from the login store, renewed before expiry and once after a 401."""

    def __init__(self, logins: LoginStore, server: str, host: str) -> None:
        self.logins = logins
        self.server = server
        self.host = host
        self._login = logins.load()
        self._lock = threading.Lock()

    def sync_auth_flow(
        self, request: httpx.Request
    ) -> Generator[httpx.Request, httpx.Response, None]:
        """Send `request` with the token; renew and resend once when the server refuses it."""
        with self._lock:
            login = self._login
            if login is not None and login.expired():
                login = yield from self._renew(login, "it expired")
        if login is not None:
            request.headers["Authorization"] = f"Bearer {login.access_token}"
        response = yield request
        if response.status_code != 401:
            return
        with self._lock:
            if login is None:
                # `lazaretto auth` may have run since the proxy started.
                login = self._login = self.logins.load()
                if login is None:
                    raise Undeliverable(
                        Failure.LOGIN_REQUIRED,
                        f"{self.host} asks for a login; run `lazaretto auth {self.server}` in a "
                        "terminal, then retry",
                    )
            elif self._login is not None and self._login.access_token != login.access_token:
                login = self._login  # another request renewed it meanwhile
            else:
                login = yield from self._renew(login, "the server refused it (HTTP 401)")
        request.headers["Authorization"] = f"Bearer {login.access_token}"
        response = yield request
        if response.status_code == 401:
            raise self._refused("the server refuses even a renewed token")

    def _renew(self, login: Login, why: str) -> Generator[httpx.Request, httpx.Response, Login]:
        """A fresh access token from the refresh token (or from another proxy that renewed it)."""
        stored = self.logins.load()
        if (
            stored is not None
            and stored.access_token != login.access_token
            and not stored.expired()
        ):
            self._login = stored
            return stored
        if not login.refresh_token:
            raise self._refused(f"{why} and there is no refresh token")
        if not _secure(login.token_endpoint):
            raise self._refused(f"{why} and its token endpoint {login.token_endpoint} is not HTTPS")
        data = {
            "grant_type": "refresh_token",
            "refresh_token": login.refresh_token,
            "client_id": str(login.client.get("client_id", "")),
        }
        if login.resource:
            data["resource"] = login.resource
        headers = {"Accept": "application/json"}
        secret = login.client.get("client_secret")
        method = login.client.get("token_endpoint_auth_method")
        if secret and method == "client_secret_basic":
            pair = f"{quote(data['client_id'], safe='')}:{quote(secret, safe='')}"
            headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
        elif secret:
            data["client_secret"] = secret
        response = yield httpx.Request("POST", login.token_endpoint, data=data, headers=headers)
        response.read()
        tokens = _token_response(response)
        if tokens is None:
            raise self._refused(f"{why} and renewing it failed (HTTP {response.status_code})")
        renewed = with_tokens(login, tokens)
        self.logins.save(renewed)
        self._login = renewed
        return renewed

    def _refused(self, detail: str) -> Undeliverable:
        return Undeliverable(
            Failure.REFRESH_FAILED,
            f"the login for {self.server} cannot be used: {detail}; run "
            f"`lazaretto auth {self.server}` in a terminal, then retry",
        )


def _token_response(response: httpx.Response) -> dict | None:
    """The tokens of a successful token-endpoint answer, checked by the SDK's own model."""
    if response.status_code != 200:
        return None
    from mcp.shared.auth import OAuthToken
    from pydantic import ValidationError

    try:
        token = OAuthToken.model_validate_json(response.content)
    except ValidationError:
        return None
    return token.model_dump(mode="json", exclude_none=True)


def _secure(url: str) -> bool:
    """HTTPS, or plain HTTP to this machine (RFC 8252's loopback exception)."""
    parts = urlsplit(url)
    return parts.scheme == "https" or (
        parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1")
    )
