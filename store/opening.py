"""Which store a process uses: the station when one protects this machine, else the user's own file.

The choice is made here once for every proxy, hook, command and the review app. With a station
marker, the agent's side (proxies and hooks) always uses the station: `--store` and
`LAZARETTO_STORE` cannot switch it back to a local file. A person's commands may still open a
file named explicitly with `--store` (the demo's store, say): that file protects nothing the agent
uses, since no proxy or hook of the agent reads it.
"""

from contextlib import AbstractContextManager
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .audit import AuditLog
from .beacon import Beacon
from .blocked import BlockedCalls
from .decisions import Decisions
from .directories import Directories
from .modes import Mode
from .paths import STORE_ENV, resolve_store_path
from .pins import Pins
from .proxies import RunningProxies
from .quarantine import Quarantine
from .sessions import Sessions
from .station.marker import MarkerError, find_marker
from .store import Store
from .tools import ToolClassifications

if TYPE_CHECKING:
    from .review import Review
    from .station.client import StationStore


class StoreAPI(Protocol):
    """What every caller may use, whichever transport carries it (`Store` or `StationStore`)."""

    mode: Mode
    path: Path | None
    sessions: Sessions
    tools: ToolClassifications
    blocked: BlockedCalls
    quarantine: Quarantine
    pins: Pins
    directories: Directories
    audit: AuditLog
    decisions: Decisions
    proxies: RunningProxies
    beacon: Beacon
    write_failure: str | None

    @property
    def review(self) -> "Review": ...  # read only: `Store` loads it on first use
    def clock(self) -> datetime: ...
    def now(self) -> str: ...
    def describe(self) -> str: ...
    def with_proof(self, proof: str | dict) -> Any: ...
    def begin(self, op: str, subject: object) -> str | None: ...
    def withdraw(self) -> None: ...
    def unlock(self, passphrase: str) -> None: ...
    def writable(self) -> bool: ...
    def data_version(self) -> int: ...
    def one_reading(self) -> AbstractContextManager[None]: ...
    def close(self) -> None: ...


class StoreMissing(LookupError):
    """A store path a person named with `--store` where no store exists."""


class Side(StrEnum):
    """Who opens the store: the agent's side (proxies, hooks) or a person's command."""

    AGENT = "agent"
    PERSON = "person"


def open_store(
    explicit: str | Path | None = None,
    *,
    side: Side,
    busy_timeout: float = 5.0,
) -> "Store | StationStore":
    """The store this process must use (see the module docstring for the rule).

    A person's command never creates a store at a path named for it: a mistyped `--store` would
    read as an empty store, all clear (StoreMissing is raised instead). The store every proxy and
    hook uses (`LAZARETTO_STORE`, else the user's state directory) is created on first use.
    """
    if side is Side.PERSON and explicit:
        return Store(_existing(resolve_store_path(explicit)), busy_timeout=busy_timeout)
    try:
        marker = find_marker()
    except MarkerError as exc:
        return _station_client().failing(exc)
    if marker is not None:
        return _station_client()(marker, timeout=max(30.0, 2 * busy_timeout))
    return Store(explicit, busy_timeout=busy_timeout)


def _station_client() -> "type[StationStore]":
    """The station's client, imported only where a station is configured: a proxy or a hook on
    the user's own file never needs its socket and protocol modules."""
    from .station.client import StationStore

    return StationStore


def _existing(path: Path) -> Path:
    if not path.exists():
        raise StoreMissing(
            f"there is no store at {path} (nothing was created there): check the --store path,"
            f" or leave it out for the store proxies and hooks use ({STORE_ENV}, else the"
            " default)"
        )
    return path
