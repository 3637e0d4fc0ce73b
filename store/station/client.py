"""`StationStore`: the store API over the station's socket, for proxies, hooks, commands and the app.

It offers what `Store` offers (the same repositories, methods and answers), so a caller does not
care which transport it has. Every failure to reach the station raises `StoreUnavailable`, and
callers fail closed on it exactly as they do when an embedded store cannot be written.
"""

import inspect
import os
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..api import OPERATIONS, REPOSITORIES, Access
from ..beacon import Beacon
from ..blocked import BlockedCalls
from ..clock import Clock, stamp, system_clock
from ..connection import StoreUnavailable
from ..modes import Mode
from ..store import _OneReading, _Reading
from .marker import Marker, MarkerError
from .peer import Peer, peer_of
from .protocol import raise_error
from .wire import MAX_LINE, VERSION, decode, encode, version_of

if TYPE_CHECKING:
    from ..audit import AuditLog
    from ..blocked import BlockedCalls as BlockedType
    from ..decisions import Decisions
    from ..directories import Directories
    from ..pins import Pins
    from ..proxies import RunningProxies
    from ..quarantine import Quarantine
    from ..review import Review
    from ..sessions import Sessions
    from ..tools import ToolClassifications

HOW_TO_START = (
    "start it with `sudo systemctl start lazaretto-station` (or `lazaretto station run` as its "
    "account); until then reads are withheld and outbound calls refused"
)

_LOCAL: dict[str, Callable[..., Any]] = {
    # Pure functions of a row the caller already has: no reason to ask the station.
    "blocked.approval_window": lambda row: BlockedCalls.approval_window(cast(Any, None), row),
}


class _Channel:
    """One connection to the station, opened on first use and again after a failure."""

    def __init__(self, marker: Marker, timeout: float) -> None:
        self.marker = marker
        self.timeout = timeout
        self._sock: socket.socket | None = None
        self._reader: Any = None
        self._lock = threading.Lock()
        self._next_id = 0

    def request(
        self,
        op: str,
        arguments: dict,
        proof: str | dict | None = None,
        on_ask: Callable[[dict], Any] | None = None,
    ) -> Any:
        """Send one request and return its result; raise what a refusal stands for."""
        with self._lock:
            self._next_id += 1
            message: dict[str, Any] = {
                "v": VERSION,
                "id": self._next_id,
                "op": op,
                "args": arguments,
            }
            if proof is not None:
                message["proof"] = proof
            try:
                sock, reader = self._connected()
                sock.sendall(encode(message))
                while True:
                    line = reader.readline(MAX_LINE + 1)
                    if not line.endswith(b"\n"):
                        raise ConnectionError("the station closed the connection")
                    reply = decode(line)
                    if not isinstance(reply, dict) or reply.get("id") != self._next_id:
                        raise ConnectionError("the station answered out of turn")
                    if "ask" not in reply:
                        break
                    answer = on_ask(reply) if on_ask else None
                    sock.sendall(encode({"id": self._next_id, "answer": answer}))
            except (OSError, ValueError) as exc:
                self._close()
                raise StoreUnavailable(
                    f"the lazaretto station at {self.marker.socket} is not answering ({exc}); "
                    + HOW_TO_START
                ) from exc
        if reply.get("ok"):
            return reply.get("result")
        raise_error(reply.get("error") or {})

    def _connected(self) -> tuple[socket.socket, Any]:
        if self._sock is not None:
            return self._sock, self._reader
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(self.marker.socket)
            if self.marker.uid is not None:
                # A process of another account listening on the socket path is not the station.
                station = peer_of(sock)
                if station.uid != self.marker.uid:
                    raise ConnectionError(
                        f"the process on the socket runs as uid {station.uid}, not as the station's "
                        f"account (uid {self.marker.uid})"
                    )
        except BaseException:
            sock.close()
            raise
        self._sock, self._reader = sock, sock.makefile("rb")
        return sock, self._reader

    def station_peer(self) -> Peer:
        """The station's process at the other end of the socket, as the kernel reports it."""
        with self._lock:
            sock, _ = self._connected()
            return peer_of(sock)

    def _close(self) -> None:
        if self._reader is not None:
            self._reader.close()
        if self._sock is not None:
            self._sock.close()
        self._sock = self._reader = None

    def close(self) -> None:
        """Close the connection; the next request opens another."""
        with self._lock:
            self._close()


class _Namespace:
    """One repository of the API (`sessions`, `blocked`, ...), its methods called over the socket."""

    def __init__(self, store: "StationStore", name: str) -> None:
        self._store = store
        self._name = name

    def __getattr__(self, method: str) -> Callable[..., Any]:
        op_name = f"{self._name}.{method}"
        local = _LOCAL.get(op_name)
        if local is not None:
            return local
        op = OPERATIONS.get(op_name)
        if op is None:
            raise AttributeError(f"the store API has no {op_name}")
        # Positional arguments by name; the station checks the whole list against the method.
        names = list(inspect.signature(getattr(REPOSITORIES[self._name], method)).parameters)[1:]
        store = self._store

        def call(*args: Any, **kwargs: Any) -> Any:
            if len(args) > len(names):
                raise TypeError(f"{op_name} takes {len(names)} arguments, not {len(args)}")
            arguments = {**dict(zip(names, args, strict=False)), **kwargs}
            for name, to_wire, _ in op.arguments:
                if name in arguments:
                    arguments[name] = to_wire(arguments[name])
            return op.from_wire(store.call(op_name, arguments, op.access))

        call.__name__ = method
        self.__dict__[method] = call
        return call


class StationStore:
    """The store as a station serves it; a broken marker gives one whose every call fails closed."""

    mode = Mode.STATION

    def __init__(
        self,
        marker: Marker | None,
        *,
        error: str | None = None,
        clock: Clock = system_clock,
        timeout: float = 30.0,
        proof: str | dict | None = None,
        channel: _Channel | None = None,
    ) -> None:
        self.marker = marker
        self._error = error
        self.clock = clock
        self.path: Path | None = None
        """A station's store is not a file the caller may open."""
        self._proof = proof
        self._channel = channel or (_Channel(marker, timeout) if marker else None)
        self.write_failure: str | None = None
        """Why the last write failed, until one succeeds (the proxy refuses outbound calls meanwhile)."""
        self._reading = _Reading()
        self._version_fd: int | None = None
        self._version_id: tuple[int, int] | None = None
        self.beacon = Beacon(
            None, path=marker.runtime_file("beacon") if marker else None, writable=False
        )
        self.sessions = cast("Sessions", _Namespace(self, "sessions"))
        self.tools = cast("ToolClassifications", _Namespace(self, "tools"))
        self.blocked = cast("BlockedType", _Namespace(self, "blocked"))
        self.quarantine = cast("Quarantine", _Namespace(self, "quarantine"))
        self.pins = cast("Pins", _Namespace(self, "pins"))
        self.directories = cast("Directories", _Namespace(self, "directories"))
        self.audit = cast("AuditLog", _Namespace(self, "audit"))
        self.decisions = cast("Decisions", _Namespace(self, "decisions"))
        self.review = cast("Review", _Namespace(self, "review"))
        self.proxies = cast("RunningProxies", _Namespace(self, "proxies"))

    @classmethod
    def failing(cls, error: MarkerError) -> "StationStore":
        """A store whose every call raises StoreUnavailable with why (an untrustworthy marker)."""
        return cls(None, error=f"{error}; decisions are refused until it is fixed")

    def describe(self) -> str:
        """Where decisions are kept, for headers and messages."""
        return f"the station at {self.marker.socket}" if self.marker else "no station"

    # -- requests ---------------------------------------------------------------------

    def call(self, op: str, arguments: dict, access: Access = Access.VERDICT) -> Any:
        """One request; a write that fails is remembered in `write_failure`."""
        try:
            result = self._request(op, arguments)
        except StoreUnavailable as exc:
            if access is not Access.VERDICT:
                self.write_failure = str(exc)
            raise
        if access is Access.RECORD:
            self.write_failure = None
        return result

    def _request(self, op: str, arguments: dict, on_ask: Callable | None = None) -> Any:
        if self._channel is None:
            raise StoreUnavailable(self._error or "no station is configured")
        return self._channel.request(op, arguments, self._proof, on_ask)

    def with_proof(self, proof: str | dict) -> "StationStore":
        """The same connection, with `proof` sent along with every request: a decision's code
        (`code_proof`), or the reviewer passphrase."""
        return StationStore(self.marker, clock=self.clock, proof=proof, channel=self._channel)

    def begin(self, op: str, subject: object) -> str:
        """Tell the station a person is about to type a code for this decision (`op` on
        `subject`, its first argument); the id the code must come with."""
        return str(self._request("station.begin", {"op": op, "subject": subject})["decision"])

    def withdraw(self) -> None:
        """The decision begun on this connection waits no more: the person cancelled it."""
        self._request("station.withdraw", {})

    def unlock(self, passphrase: str) -> None:
        """Let this connection read withheld content (ProofError if the passphrase is wrong)."""
        self.with_proof(passphrase)._request("station.unlock", {})

    def status(self) -> dict:
        """The station's version, mode, lock and settings."""
        return self._request("station.status", {})

    def change_passphrase(self, current: str, new: str) -> None:
        """Replace the reviewer passphrase (needs the current one)."""
        self.with_proof(current)._request("station.passphrase", {"new": new})

    def run_hook(self, arguments: dict, on_ask: Callable[[dict], Any]) -> dict:
        """Have the station answer a client hook event (see `lazaretto.proxy.hooks.thin`)."""
        return self._request("hook.run", arguments, on_ask)

    def writable(self) -> bool:
        """Whether writes work: free while the last one succeeded, else the station is asked."""
        if self.write_failure is None:
            return True
        try:
            self._request("station.writable", {})
        except StoreUnavailable:
            return False
        self.write_failure = None
        return True

    def now(self) -> str:
        """This process's clock as a timestamp (the station decides expiry by its own)."""
        return stamp(self.clock())

    # -- change polling ---------------------------------------------------------------

    def one_reading(self) -> _OneReading:
        """As `Store.one_reading`: the version is read once within the block."""
        return _OneReading(self._reading)

    def data_version(self) -> int:
        """Changes whenever anything was written through the station, or it restarted."""
        reading = self._reading
        if reading.active:
            if reading.version is None:
                reading.version = self._read_version()
            return reading.version
        return self._read_version()

    def _read_version(self) -> int:
        # The station publishes its version beside the socket: one pread, no round trip.
        version = self._published_version()
        if version is None:
            version = int(self._request("station.version", {}))
        return version

    def _published_version(self) -> int | None:
        if self.marker is None:
            return None
        path = self.marker.runtime_file("version")
        try:
            info = os.stat(path)
            if self._version_fd is None or self._version_id != (info.st_dev, info.st_ino):
                self._close_version()
                self._version_fd = os.open(path, os.O_RDONLY)
                self._version_id = (info.st_dev, info.st_ino)
            return version_of(os.pread(self._version_fd, 16, 0))
        except OSError:
            self._close_version()
            return None

    def _close_version(self) -> None:
        if self._version_fd is not None:
            os.close(self._version_fd)
        self._version_fd = self._version_id = None

    def station_peer(self) -> Peer:
        """The station's process at the other end of the socket, as the kernel reports it."""
        if self._channel is None:
            raise StoreUnavailable(self._error or "no station")
        return self._channel.station_peer()

    def close(self) -> None:
        """Close the connection and files; the next call opens them again."""
        if self._channel is not None:
            self._channel.close()
        self._close_version()
        self.beacon.close()
