"""Where OAuth logins for remote servers are kept: the OS keyring where one exists, else a file only
the user can read.

One login per (server name, URL): a token is only ever sent to the URL it was obtained for. Nothing
here goes into the store, the audit log or anything the agent is shown.
"""

import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KEYRING_SERVICE = "lazaretto-remote-login"
# A token this close to its expiry (or half its lifetime, when that is shorter) is renewed before
# use rather than sent to be refused.
EXPIRY_MARGIN = 30


@dataclass
class Login:
    """One server's login: its tokens, the client registration, and where to renew them."""

    server: str
    url: str
    tokens: dict  # access_token, token_type, refresh_token?, scope?, expires_in?, expires_at?
    client: dict  # the registration (client_id, client_secret?, token_endpoint_auth_method, ...)
    token_endpoint: str
    resource: str | None = None

    @property
    def access_token(self) -> str:
        """The bearer token."""
        return str(self.tokens.get("access_token", ""))

    @property
    def refresh_token(self) -> str | None:
        """The refresh token, if the server gave one."""
        token = self.tokens.get("refresh_token")
        return token if isinstance(token, str) and token else None

    def expired(self, now: float | None = None) -> bool:
        """Whether the access token is past (or about to pass) its expiry."""
        expires_at = self.tokens.get("expires_at")
        if not isinstance(expires_at, (int, float)):
            return False
        lifetime = self.tokens.get("expires_in")
        margin = (
            min(EXPIRY_MARGIN, lifetime / 2)
            if isinstance(lifetime, (int, float))
            else EXPIRY_MARGIN
        )
        return (time.time() if now is None else now) >= expires_at - margin

    def as_json(self) -> str:
        """The login as the storage keeps it."""
        return json.dumps(self.__dict__, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "Login":
        """A stored login; ValueError when it is not one."""
        data = json.loads(text)
        if not isinstance(data, dict) or not all(
            isinstance(data.get(key), kind)
            for key, kind in (
                ("server", str),
                ("url", str),
                ("tokens", dict),
                ("client", dict),
                ("token_endpoint", str),
            )
        ):
            raise ValueError("not a stored login")
        resource = data.get("resource")
        return cls(
            data["server"],
            data["url"],
            data["tokens"],
            data["client"],
            data["token_endpoint"],
            resource if isinstance(resource, str) else None,
        )


def with_tokens(login: Login, tokens: dict[str, Any], now: float | None = None) -> Login:
    """The login with new tokens from a token endpoint; the old refresh token stays if none came."""
    kept = dict(tokens)
    if not kept.get("refresh_token") and login.refresh_token:
        kept["refresh_token"] = login.refresh_token
    expires_in = kept.get("expires_in")
    if isinstance(expires_in, (int, float)):
        kept["expires_at"] = (time.time() if now is None else now) + expires_in
    return Login(login.server, login.url, kept, login.client, login.token_endpoint, login.resource)


class LoginStore:
    """Load, save and forget the login of one server at one URL."""

    def __init__(self, server: str, url: str) -> None:
        self.server = server
        self.url = url
        self._account = f"{server} {url}"
        digest = hashlib.sha256(self._account.encode()).hexdigest()[:32]
        self.path = logins_folder() / f"{digest}.json"
        self._keyring = _usable_keyring()

    @property
    def where(self) -> str:
        """Where the login is kept, for the person."""
        return "the system keyring" if self._keyring else str(self.path)

    def load(self) -> Login | None:
        """The stored login, or None (also when what is stored is for another URL or unreadable)."""
        text = self._read()
        if not text:
            return None
        try:
            login = Login.from_json(text)
        except (ValueError, TypeError):
            return None
        return login if (login.server, login.url) == (self.server, self.url) else None

    def _read(self) -> str | None:
        if self._keyring:
            from keyring.errors import KeyringError

            try:
                return self._keyring.get_password(KEYRING_SERVICE, self._account)
            except KeyringError:
                return None
        try:
            return self.path.read_text(encoding="utf-8")
        except OSError:
            return None

    def save(self, login: Login) -> None:
        """Keep the login (replacing any before it)."""
        if self._keyring:
            self._keyring.set_password(KEYRING_SERVICE, self._account, login.as_json())
            return
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(folder, 0o700)
        handle, temporary = tempfile.mkstemp(prefix=".login-", dir=folder)
        try:
            os.fchmod(handle, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(login.as_json())
            os.replace(temporary, self.path)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise

    def delete(self) -> bool:
        """Forget the login; whether there was one."""
        if self._keyring:
            from keyring.errors import KeyringError

            try:
                self._keyring.delete_password(KEYRING_SERVICE, self._account)
                return True
            except KeyringError:
                return False
        try:
            self.path.unlink()
            return True
        except FileNotFoundError:
            return False


def logins_folder() -> Path:
    """Lazaretto's own folder in the user's state directory (the hooks keep the agent out of it)."""
    from platformdirs import user_state_path

    return user_state_path("lazaretto", appauthor=False) / "logins"


def _usable_keyring():
    """The keyring module when a real backend is there; None on a headless machine."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return None
    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring) or getattr(backend, "priority", 0) <= 0:
        return None
    return keyring
