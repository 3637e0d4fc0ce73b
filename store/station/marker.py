"""The system-wide marker that says a station protects this machine, and where to reach it.

`sudo lazaretto station install` writes `/etc/lazaretto/station.json`, owned by root. While it
exists, every proxy, hook and command uses the station and none falls back to a store of its own:
no user file or environment variable can switch that off. `LAZARETTO_ROOT` (tests, packaging)
names a second root to look under, only when the system one has no marker; `LAZARETTO_STATION`
(a socket path) opts a user's processes into a station without a marker. Both can only turn the
station on. A marker that exists but cannot be trusted (not root's, writable by others,
unreadable, malformed) is an error, never a reason to run without the station.

Light on purpose (os and json only): every hook reads it.
"""

import json
import os

MARKER = os.path.join("etc", "lazaretto", "station.json")
"""Where the marker lives under a root directory."""

ROOT_ENV = "LAZARETTO_ROOT"
STATION_ENV = "LAZARETTO_STATION"

DEFAULT_SETTINGS = {
    "attempts": 5,
    "lockout_minutes": 15,
    "approval_ttl_minutes": 15,
    "idle_expiry_minutes": None,
}
"""The station's settings when the marker leaves them out."""


class MarkerError(RuntimeError):
    """A marker exists but cannot be trusted or read: clients fail closed."""


class Marker:
    """A station's address (its socket, and the account that must answer on it) and settings."""

    __slots__ = ("account", "path", "settings", "socket", "state_dir", "store", "uid")

    def __init__(
        self,
        *,
        path: str | None,
        socket: str,
        uid: int | None = None,
        account: str | None = None,
        state_dir: str | None = None,
        store: str | None = None,
        settings: dict | None = None,
    ) -> None:
        self.path = path
        self.socket = socket
        self.uid = uid
        """The station account's uid: a process of any other uid on the socket is not the station."""
        self.account = account
        self.state_dir = state_dir
        self.store = store
        self.settings = {**DEFAULT_SETTINGS, **(settings or {})}

    def runtime_file(self, name: str) -> str:
        """A file the station publishes beside its socket (`version`, `beacon`)."""
        return os.path.join(os.path.dirname(self.socket), name)

    def as_json(self) -> dict:
        """The marker file's content."""
        return {
            "version": 1,
            "socket": self.socket,
            "uid": self.uid,
            "account": self.account,
            "state_dir": self.state_dir,
            "store": self.store,
            "settings": self.settings,
        }


def marker_path(root: str = os.sep) -> str:
    """The marker's path under `root` (`/` for the system)."""
    return os.path.join(root, MARKER)


def find_marker() -> "Marker | None":
    """The marker that applies to this process, or None (embedded mode); MarkerError if untrustworthy."""
    roots = [os.sep]
    extra = os.environ.get(ROOT_ENV)
    if extra:
        roots.append(extra)
    for root in roots:
        path = marker_path(root)
        try:
            info = os.stat(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise MarkerError(f"cannot read the station marker {path}: {exc}") from exc
        _check_protected(path, info)
        _check_protected(os.path.dirname(path), os.stat(os.path.dirname(path)))
        return read_marker(path)
    socket = os.environ.get(STATION_ENV)
    if socket:
        return Marker(path=None, socket=socket)
    return None


def read_marker(path: str) -> Marker:
    """Parse a marker file (MarkerError if it is not one)."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as exc:
        raise MarkerError(f"cannot read the station marker {path}: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("socket"), str):
        raise MarkerError(f"the station marker {path} names no socket")
    uid = data.get("uid")
    settings = data.get("settings")
    return Marker(
        path=path,
        socket=data["socket"],
        uid=uid if isinstance(uid, int) else None,
        account=data.get("account"),
        state_dir=data.get("state_dir"),
        store=data.get("store"),
        settings=settings if isinstance(settings, dict) else None,
    )


def _check_protected(path: str, info: os.stat_result) -> None:
    # A marker a user could edit would let that user point every client at a station of their own.
    if info.st_uid != 0 or info.st_mode & 0o022:
        raise MarkerError(
            f"the station marker {path} is not protected (it must be owned by root and writable by "
            "nobody else); refusing to trust it"
        )
