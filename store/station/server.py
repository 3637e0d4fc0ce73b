"""The station's service: the store API over a Unix socket, one thread per client connection.

Each connection (accepted by `listener`) reads through a SQLite connection of its own (so one slow
reader never holds up the proxies; kept open for the next client when it closes) and writes
through the station's one write connection (`writer`), has the kernel's word for who is at the
other end (audited with every row the request writes), and starts locked: withheld content is
left out of answers until the reviewer passphrase unlocks it. Every decision carries a one-time
code for a decision its connection began, checked by one `ProofGuard`. This module answers each
request line and audits its refusals; what each operation does is `operations`'.
"""

import json
import os
import secrets
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from ..audit import AUDIT_PEER
from ..clock import Clock, system_clock
from ..connection import StoreUnavailable
from ..decisions import DecisionError
from ..states import Action, Actor
from ..store import Store
from ..tokens import TokenError
from .guard import ProofGuard, StatePaths
from .listener import Listener, remove_stale_socket
from .operations import Connection, Extension, Operations, Refusal
from .peer import Peer
from .protocol import PROOF_CODES, ErrorCode, ProofError, error_reply
from .settings import StationSettings
from .wire import MAX_LINE, VERSION, decode, encode
from .writer import SharedWriter

IDLE_STORES = 32
"""Read connections kept open for the next clients: a hook is a new client every time."""

BUSY_TIMEOUT = 5.0
"""Seconds a read waits for SQLite (the writer holds no lock a reader in WAL mode waits for)."""


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
        self.clock = clock
        self.log = log or (lambda text: print(f"lazaretto station: {text}", file=sys.stderr))
        self.guard = ProofGuard(
            StatePaths.under(settings.state_dir),
            attempts=settings.attempts,
            lockout=timedelta(minutes=settings.lockout_minutes),
            clock=clock,
        )
        self.operations = Operations(settings, self.guard, extensions or {}, self.version)
        self._access_log = None
        self._access_lock = threading.Lock()
        self._flushed = 0.0
        self._listener = Listener(settings.socket, self.serve_connection, self.log)
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
        # Before anything is published beside the socket: a station still serving keeps its files.
        remove_stale_socket(settings.socket)
        self._version = _Version(settings.runtime_file("version"))
        # Buffered: every request is logged, flushed at most a second late (see _log_access).
        self._access_log = open(  # noqa: SIM115
            settings.state_dir / "access.log", "a", encoding="utf-8", buffering=1 << 16
        )
        os.chmod(settings.state_dir / "access.log", 0o600)
        self._listener.bind()

    def serve_forever(self) -> None:
        """Answer clients until `shutdown` is called."""
        self.log(f"serving {self.settings.store} on {self.settings.socket}")
        self._listener.serve_forever()

    def shutdown(self) -> None:
        """Stop accepting, remove the socket, and leave a version that makes caches ask."""
        self._listener.shutdown()
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

    def serve_connection(self, peer: Peer, reader: Any, writer: Any) -> None:
        """Read requests and answer them, one at a time, until the client closes."""
        connection = Connection(peer, self.open_store(), reader, writer)
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
            self.guard.withdraw(connection.owner)  # a decision begun here waits no more
            self.release_store(connection.store)

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
            result = self.operations.run(connection, op, arguments, message.get("proof"))
        except ProofError as exc:
            return self._failed(connection, op, request_id, exc.code, str(exc), exc.locked_until)
        except Refusal as exc:
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
        if code in PROOF_CODES:
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
