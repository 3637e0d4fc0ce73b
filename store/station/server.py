"""The station's service: the store API over a Unix socket, one thread per client connection.

Each connection reads through a SQLite connection of its own (so one slow reader never holds up
the proxies; kept open for the next client when it closes) and writes through the station's one
write connection (`writer`), has the kernel's word for who is at the other end (audited with every row the request writes), and
starts locked: withheld content is left out of answers until the reviewer passphrase unlocks it.
Every decision carries the passphrase and is checked afresh by one `ProofGuard`.
"""

import inspect
import json
import os
import secrets
import socket
import socketserver
import sqlite3
import sys
import threading
import time
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from ..api import OPERATIONS, Access, Mode, Operation, redact
from ..audit import AUDIT_PEER
from ..clock import Clock, system_clock
from ..connection import StoreUnavailable
from ..decisions import DecisionError
from ..package import package_version
from ..states import Action, Actor
from ..store import REPOSITORIES, Store
from ..tokens import TokenError
from .guard import ProofGuard
from .marker import DEFAULT_SETTINGS, Marker
from .passphrase import PassphraseError, check_new
from .peer import Peer, peer_of
from .protocol import ErrorCode, ProofError, error_reply
from .wire import MAX_LINE, VERSION, decode, encode
from .writer import SharedWriter

MAX_CONNECTIONS = 512
"""Connections served at once; more are refused, so a flood cannot exhaust the station's threads."""

IDLE_STORES = 32
"""Read connections kept open for the next clients: a hook is a new client every time."""

BUSY_TIMEOUT = 5.0
"""Seconds a read waits for SQLite (the writer holds no lock a reader in WAL mode waits for)."""


@dataclass(frozen=True)
class StationSettings:
    """Where the station keeps its store and state, where it listens, and its clearance rules."""

    socket: Path
    store: Path
    state_dir: Path
    attempts: int = 5
    lockout_minutes: float = 15
    approval_ttl_minutes: float = 15
    idle_expiry_minutes: float | None = None

    @classmethod
    def from_marker(
        cls, marker: Marker, *, socket: Path | None = None, store: Path | None = None
    ) -> "StationSettings":
        """The settings a marker gives, with explicit paths taking precedence."""
        state_dir = Path(marker.state_dir or Path(marker.socket).parent)
        settings = {**DEFAULT_SETTINGS, **marker.settings}
        return cls(
            socket=socket or Path(marker.socket),
            store=store or Path(marker.store or state_dir / "lazaretto.db"),
            state_dir=state_dir,
            attempts=int(settings["attempts"]),
            lockout_minutes=float(settings["lockout_minutes"]),
            approval_ttl_minutes=float(settings["approval_ttl_minutes"]),
            idle_expiry_minutes=None
            if settings["idle_expiry_minutes"] is None
            else float(settings["idle_expiry_minutes"]),
        )

    def runtime_file(self, name: str) -> Path:
        """A file published beside the socket for clients to read (`version`, `beacon`)."""
        return self.socket.parent / name


class Connection:
    """One client connection: who it is, its store connection, and whether it was unlocked."""

    def __init__(self, peer: Peer, store: Store, reader: Any, writer: Any) -> None:
        self.peer = peer
        self.store = store
        self.unlocked = False
        self._reader = reader
        self._writer = writer
        self.request_id: Any = None

    def ask(self, question: dict) -> Any:
        """Ask the client something only its account can see, and wait for the answer."""
        self._writer.write(encode({"id": self.request_id, "ask": question}))
        self._writer.flush()
        line = self._reader.readline(MAX_LINE + 1)
        if not line.endswith(b"\n"):
            raise ConnectionError("the client went away while it was asked something")
        reply = decode(line)
        if not isinstance(reply, dict) or reply.get("id") != self.request_id:
            raise ValueError("the client's answer does not belong to its request")
        return reply.get("answer")


@dataclass(frozen=True)
class Extension:
    """An operation served by code outside the store (the client hooks): `run(connection, args)`."""

    access: Access
    run: Callable[[Connection, dict], Any]


class _Version:
    """The store version published beside the socket: a random epoch for this run, and a counter."""

    def __init__(self, path: Path) -> None:
        self._epoch = int.from_bytes(secrets.token_bytes(7), "big")
        self._counter = 0
        self._lock = threading.Lock()
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        os.fchmod(self._fd, 0o644)
        self.publish()

    @property
    def value(self) -> int:
        """The version as clients read it."""
        return (self._epoch << 64) | self._counter

    def bump(self) -> None:
        """Something was committed: clients' caches keyed by the version are stale."""
        with self._lock:
            self._counter += 1
            self.publish()

    def publish(self, value: int | None = None) -> None:
        """Write the version (or `value`) where clients read it."""
        os.pwrite(self._fd, (self.value if value is None else value).to_bytes(16, "big"), 0)

    def close(self) -> None:
        """Leave a version no client has cached, so every cache asks (and fails closed)."""
        self.publish(0)
        os.close(self._fd)


class Station:
    """Serves the store API to clients; the only writer of its store."""

    def __init__(
        self,
        settings: StationSettings,
        *,
        extensions: dict[str, Extension] | None = None,
        clock: Clock = system_clock,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.settings = settings
        self.extensions = extensions or {}
        self.clock = clock
        self.log = log or (lambda text: print(f"lazaretto station: {text}", file=sys.stderr))
        self.guard = ProofGuard(
            settings.state_dir / "passphrase.json",
            settings.state_dir / "lockout.json",
            attempts=settings.attempts,
            lockout=timedelta(minutes=settings.lockout_minutes),
            clock=clock,
        )
        self._checkers: dict[str, ArgumentCheck] = {}
        self._access_log = None
        self._access_lock = threading.Lock()
        self._flushed = 0.0
        self._connections = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._server: socketserver.ThreadingUnixStreamServer | None = None
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        self._version: _Version | None = None
        self._writer: SharedWriter | None = None
        self._idle_stores: list[Store] = []
        self._idle_lock = threading.Lock()

    # -- running ----------------------------------------------------------------------

    def open_store(self) -> Store:
        """A store for one client connection: an idle one if there is, else a new one."""
        with self._idle_lock:
            if self._idle_stores:
                return self._idle_stores.pop()
        # No client can reach the station's files, so a new taint need not be synced at once.
        return Store(
            self.settings.store,
            clock=self.clock,
            busy_timeout=BUSY_TIMEOUT,
            beacon_path=self.settings.runtime_file("beacon"),
            checkpoint_taint=False,
            writer=self._writer,
        )

    def release_store(self, store: Store) -> None:
        """A client connection is done with its store: keep it open for the next one."""
        # What the store remembers of this client goes with it, as when it was closed.
        store.live_sessions.clear()
        store.write_failure = None
        with self._idle_lock:
            if self._writer is not None and len(self._idle_stores) < IDLE_STORES:
                self._idle_stores.append(store)
                return
        store.close()

    def bind(self) -> None:
        """Create the store and the runtime files, and listen on the socket."""
        settings = self.settings
        settings.state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        settings.socket.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
        store = self.open_store()
        try:
            store.sessions.all()  # creates and migrates the store before any client arrives
        finally:
            store.close()
        self._writer = SharedWriter(settings.store, BUSY_TIMEOUT)
        _remove_stale_socket(settings.socket)
        self._version = _Version(settings.runtime_file("version"))
        # Buffered: every request is logged, flushed at most a second late (see _log_access).
        self._access_log = open(  # noqa: SIM115
            settings.state_dir / "access.log", "a", encoding="utf-8", buffering=1 << 16
        )
        os.chmod(settings.state_dir / "access.log", 0o600)
        station = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                station.serve_connection(self.request, self.rfile, self.wfile)

        old_umask = os.umask(0o111)
        try:
            self._server = socketserver.ThreadingUnixStreamServer(str(settings.socket), Handler)
        finally:
            os.umask(old_umask)
        # Any local account may connect: what a request may do depends on its proof, not its uid.
        os.chmod(settings.socket, 0o666)
        self._server.daemon_threads = True

    def serve_forever(self) -> None:
        """Answer clients until `shutdown` is called."""
        assert self._server is not None, "bind() first"
        self.log(f"serving {self.settings.store} on {self.settings.socket}")
        self._server.serve_forever(poll_interval=0.2)

    def shutdown(self) -> None:
        """Stop accepting, remove the socket, and leave a version that makes caches ask."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        with self._open_lock:
            for sock in self._open:
                try:
                    sock.shutdown(socket.SHUT_RDWR)  # its thread reads end of file and stops
                except OSError:
                    pass
        try:
            os.unlink(self.settings.socket)
        except FileNotFoundError:
            pass
        with self._idle_lock:
            idle, self._idle_stores = self._idle_stores, []
        for store in idle:
            store.close()
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        if self._version is not None:
            self._version.close()
            self._version = None
        if self._access_log is not None:
            self._access_log.close()
            self._access_log = None

    def version(self) -> int:
        """The version clients read beside the socket (0 while not serving)."""
        return self._version.value if self._version else 0

    # -- one connection -----------------------------------------------------------------

    def serve_connection(self, sock: socket.socket, reader: Any, writer: Any) -> None:
        """Read requests and answer them, one at a time, until the client closes."""
        if not self._connections.acquire(blocking=False):
            writer.write(
                encode(error_reply(None, ErrorCode.FORBIDDEN, "too many connections; try again"))
            )
            return
        try:
            try:
                peer = peer_of(sock)
            except OSError as exc:
                self.log(f"refused a connection whose credentials cannot be read: {exc}")
                return
            connection = Connection(peer, self.open_store(), reader, writer)
            with self._open_lock:
                self._open.add(sock)
            try:
                while True:
                    line = reader.readline(MAX_LINE + 1)
                    if not line:
                        return
                    if not line.endswith(b"\n"):
                        writer.write(
                            encode(error_reply(None, ErrorCode.BAD_REQUEST, "request too long"))
                        )
                        self._refused(connection, None, ErrorCode.BAD_REQUEST, "request too long")
                        return
                    writer.write(self._encoded(self.answer(connection, line)))
                    writer.flush()
            except (OSError, ValueError) as exc:
                self.log(f"dropped a connection of uid {peer.uid}: {exc}")
            finally:
                with self._open_lock:
                    self._open.discard(sock)
                self.release_store(connection.store)
        finally:
            self._connections.release()

    def _encoded(self, reply: dict) -> bytes:
        try:
            return encode(reply)
        except (TypeError, ValueError) as exc:
            self.log(f"an answer could not be encoded: {exc}")
            return encode(
                error_reply(reply.get("id"), ErrorCode.INTERNAL, f"unencodable answer: {exc}")
            )

    def answer(self, connection: Connection, line: bytes) -> dict:
        """The reply to one request line."""
        try:
            message = decode(line)
        except ValueError:
            return self._refused(connection, None, ErrorCode.BAD_REQUEST, "the request is not JSON")
        if not isinstance(message, dict) or not isinstance(message.get("op"), str):
            return self._refused(
                connection, None, ErrorCode.BAD_REQUEST, "a request is an object naming an op"
            )
        request_id = message.get("id")
        connection.request_id = request_id
        op = message["op"]
        if message.get("v") != VERSION:
            return self._refused(
                connection,
                op,
                ErrorCode.VERSION,
                f"this station speaks protocol version {VERSION}, not {message.get('v')!r}",
                request_id,
            )
        arguments = message.get("args", {})
        if not isinstance(arguments, dict):
            return self._refused(
                connection, op, ErrorCode.BAD_REQUEST, "args must be an object", request_id
            )
        token = AUDIT_PEER.set(connection.peer.as_detail())
        commits = connection.store.commits
        try:
            result = self._dispatch(connection, op, arguments, message.get("proof"))
        except ProofError as exc:
            return self._failed(connection, op, request_id, exc.code, str(exc), exc.locked_until)
        except _Refusal as exc:
            return self._refused(connection, op, exc.code, str(exc), request_id)
        except DecisionError as exc:
            return self._failed(connection, op, request_id, ErrorCode.DECISION, str(exc))
        except TokenError as exc:
            return self._failed(connection, op, request_id, ErrorCode.TOKEN, str(exc))
        except StoreUnavailable as exc:
            return self._failed(connection, op, request_id, ErrorCode.STORE_UNAVAILABLE, str(exc))
        except (TypeError, ValueError, sqlite3.InterfaceError, sqlite3.ProgrammingError) as exc:
            return self._refused(
                connection, op, ErrorCode.BAD_REQUEST, f"bad arguments: {exc}", request_id
            )
        except Exception as exc:
            self.log(f"{op} failed: {type(exc).__name__}: {exc}")
            return self._failed(
                connection, op, request_id, ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}"
            )
        finally:
            AUDIT_PEER.reset(token)
            if connection.store.commits != commits and self._version is not None:
                self._version.bump()
        self._log_access(connection, op, True)
        return {"id": request_id, "ok": True, "result": result}

    def _dispatch(self, connection: Connection, op: str, arguments: dict, proof: object) -> Any:
        station_op = _STATION_OPS.get(op)
        if station_op is not None:
            return station_op(self, connection, arguments, proof)
        extension = self.extensions.get(op)
        if extension is not None:
            if extension.access is Access.DECISION:
                self.guard.check(proof)
            return extension.run(connection, arguments)
        operation = OPERATIONS.get(op)
        if operation is None:
            raise _Refusal(ErrorCode.FORBIDDEN, f"the station serves no operation {op!r}")
        if operation.access is Access.DECISION:
            # Checked before anything is looked up: without the passphrase nothing is decided.
            self.guard.check(proof)
        return self._call(connection, op, operation, arguments)

    def _call(self, connection: Connection, op: str, operation: Operation, arguments: dict) -> Any:
        arguments = dict(arguments)
        for name, _, from_wire in operation.arguments:
            if name in arguments:
                arguments[name] = from_wire(arguments[name])
        for name in operation.settings:
            arguments[name] = self._setting(name)
        if operation.unlocked:
            arguments[operation.unlocked] = connection.unlocked
        namespace, _, method_name = op.partition(".")
        checker = self._checkers.get(op)
        if checker is None:
            checker = self._checkers[op] = ArgumentCheck(
                getattr(REPOSITORIES[namespace], method_name)
            )
        checker(arguments)  # a forged argument list is a bad request, not a crash
        method = getattr(getattr(connection.store, namespace), method_name)
        result = operation.to_wire(method(**arguments))
        if operation.content and not connection.unlocked:
            result = redact(result)
        return result

    def _setting(self, name: str) -> Any:
        if name == "ttl_minutes":
            return self.settings.approval_ttl_minutes
        if name == "idle_expiry_minutes":
            return self.settings.idle_expiry_minutes
        raise KeyError(name)

    # -- refusals, audited ----------------------------------------------------------------

    def _failed(
        self,
        connection: Connection,
        op: str,
        request_id: Any,
        code: ErrorCode,
        message: str,
        locked_until: str | None = None,
    ) -> dict:
        if code in (
            ErrorCode.WRONG_PASSPHRASE,
            ErrorCode.LOCKED,
            ErrorCode.PROOF_REQUIRED,
            ErrorCode.NO_PASSPHRASE,
        ):
            self._audit_refusal(connection, op, code, message)
        self._log_access(connection, op, False, code)
        extra = {"locked_until": locked_until} if locked_until else {}
        return error_reply(request_id, code, message, **extra)

    def _refused(
        self,
        connection: Connection,
        op: str | None,
        code: ErrorCode,
        message: str,
        request_id: Any = None,
    ) -> dict:
        self._audit_refusal(connection, op, code, message)
        self._log_access(connection, op, False, code)
        return error_reply(request_id, code, message)

    def _audit_refusal(
        self, connection: Connection, op: str | None, code: ErrorCode, message: str
    ) -> None:
        token = AUDIT_PEER.set(connection.peer.as_detail())
        try:
            connection.store.audit.record(
                Actor.STATION,
                Action.REFUSE_REQUEST,
                subject=op[:200] if op else None,
                reason=message[:500],
                detail={"code": str(code)},
            )
        except StoreUnavailable as exc:
            self.log(f"could not audit a refused request ({message}): {exc}")
        finally:
            AUDIT_PEER.reset(token)
        if self._version is not None:
            self._version.bump()

    def _log_access(
        self, connection: Connection, op: str | None, ok: bool, code: ErrorCode | None = None
    ) -> None:
        if self._access_log is None:
            return
        # Formatted by hand: this runs on every request, and json.dumps of a dict costs more.
        line = (
            f'{{"at":{time.time():.3f},"uid":{connection.peer.uid},'
            f'"pid":{json.dumps(connection.peer.pid)},"op":{json.dumps(op)},'
            f'"ok":{"true" if ok else "false"}' + (f',"code":"{code}"}}' if code else "}")
        )
        now = time.monotonic()
        with self._access_lock:
            try:
                self._access_log.write(line + "\n")
                if now - self._flushed >= 1.0 or not ok:
                    self._access_log.flush()
                    self._flushed = now
            except OSError:
                pass  # the audit log has what matters; a full disk must not stop answers


class ArgumentCheck:
    """Checks a request's arguments against the method's signature and its plain annotations.

    A forged request may name arguments the method does not take, or give a text where a number
    goes: both are bad requests, refused before the method runs.
    """

    def __init__(self, method: Callable) -> None:
        parameters = list(inspect.signature(method).parameters.values())[1:]
        self._names = frozenset(p.name for p in parameters)
        self._required = frozenset(
            p.name for p in parameters if p.default is inspect.Parameter.empty
        )
        hints = typing.get_type_hints(method)
        self._types = {name: _plain_types(hint) for name, hint in hints.items() if name != "return"}

    def __call__(self, arguments: dict) -> None:
        unknown = arguments.keys() - self._names
        if unknown:
            raise TypeError(f"unexpected arguments: {', '.join(sorted(unknown))}")
        missing = self._required - arguments.keys()
        if missing:
            raise TypeError(f"missing arguments: {', '.join(sorted(missing))}")
        for name, value in arguments.items():
            allowed = self._types.get(name)
            if allowed is not None and not isinstance(value, allowed):
                raise TypeError(f"{name} must be {' or '.join(t.__name__ for t in allowed)}")


def _plain_types(hint: Any) -> tuple[type, ...] | None:
    """The runtime types an annotation allows, or None when it is not a plain one (then unchecked)."""
    options = (
        typing.get_args(hint)
        if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union
        else (hint,)
    )
    allowed: list[type] = []
    for option in options:
        option = typing.get_origin(option) or option
        if option is type(None):
            allowed.append(type(None))
        elif option is float:
            allowed += [float, int]
        elif option in (str, int, bool, list, dict, tuple):
            allowed.append(list if option is tuple else option)
        else:
            return None
    return tuple(allowed)


class _Refusal(Exception):
    """A request the station will not carry out (audited)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


# -- the station's own operations --------------------------------------------------------


def _status(station: Station, connection: Connection, arguments: dict, proof: object) -> dict:
    guard = station.guard.status()
    return {
        "protocol": VERSION,
        "mode": str(Mode.STATION),
        "package": package_version(),
        "locked": guard.locked,
        "locked_until": guard.locked_until,
        "failures": guard.failures,
        "passphrase_set": guard.passphrase_set,
        "unlocked": connection.unlocked,
        "peer": connection.peer.as_detail(),
        "store": str(station.settings.store),
        "settings": {
            "attempts": station.settings.attempts,
            "lockout_minutes": station.settings.lockout_minutes,
            "approval_ttl_minutes": station.settings.approval_ttl_minutes,
            "idle_expiry_minutes": station.settings.idle_expiry_minutes,
        },
    }


def _unlock(station: Station, connection: Connection, arguments: dict, proof: object) -> dict:
    station.guard.check(proof)
    connection.unlocked = True
    connection.store.audit.record(
        Actor.HUMAN,
        Action.UNLOCK,
        reason="a person unlocked withheld content for one review session",
    )
    return {"unlocked": True}


def _passphrase(station: Station, connection: Connection, arguments: dict, proof: object) -> dict:
    new = arguments.get("new")
    if not isinstance(new, str):
        raise _Refusal(ErrorCode.BAD_REQUEST, "the new passphrase is missing")
    try:
        check_new(new, new)
    except PassphraseError as exc:
        raise _Refusal(ErrorCode.BAD_REQUEST, f"the new passphrase cannot be used: {exc}") from exc
    station.guard.change(proof, new)
    connection.store.audit.record(
        Actor.HUMAN, Action.CHANGE_PASSPHRASE, reason="the reviewer passphrase was changed"
    )
    return {"changed": True}


def _current_version(
    station: Station, connection: Connection, arguments: dict, proof: object
) -> int:
    return station.version()


def _writable(station: Station, connection: Connection, arguments: dict, proof: object) -> bool:
    if not connection.store.writable():
        raise StoreUnavailable(connection.store.write_failure or "the store cannot be written")
    return True


_STATION_OPS: dict[str, Callable[[Station, Connection, dict, object], Any]] = {
    "station.status": _status,
    "station.unlock": _unlock,
    "station.passphrase": _passphrase,
    "station.version": _current_version,
    "station.writable": _writable,
}


def _remove_stale_socket(path: Path) -> None:
    """Remove a socket file nobody listens on; refuse to start beside a station that answers."""
    if not path.exists() and not path.is_symlink():
        return
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        path.unlink()
        return
    finally:
        probe.close()
    raise RuntimeError(f"another station is already listening on {path}")
