"""What each request does, by its operation's name: the station's own, an extension's, the store's."""

import inspect
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..api import OPERATIONS, REPOSITORIES, Access, Operation, redact
from ..connection import StoreUnavailable
from ..modes import Mode
from ..package import package_version
from ..states import Action, Actor
from ..store import Store
from .arguments import ArgumentCheck
from .guard import ProofGuard
from .passphrase import PassphraseError, check_new
from .peer import Peer
from .pending import TooManyWaiting
from .protocol import ErrorCode
from .settings import StationSettings
from .wire import MAX_LINE, VERSION, decode, encode

_OWNERS = itertools.count(1)


class Connection:
    """One client connection: who it is, its store connection, and whether it was unlocked."""

    def __init__(self, peer: Peer, store: Store, reader: Any, writer: Any) -> None:
        self.owner = next(_OWNERS)
        """Tells this connection apart from every other, for the decisions begun on it."""
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


class Refusal(Exception):
    """A request the station will not carry out (audited)."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


class Operations:
    """Carries out one request by its operation's name, with the arguments and proof it came with."""

    def __init__(
        self,
        settings: StationSettings,
        guard: ProofGuard,
        extensions: dict[str, Extension],
        version: Callable[[], int],
    ) -> None:
        self.settings = settings
        self.guard = guard
        self.extensions = extensions
        self.version = version
        self._checkers: dict[str, ArgumentCheck] = {}

    def run(self, connection: Connection, op: str, arguments: dict, proof: object) -> Any:
        """The result of `op` (a `Refusal`, `ProofError` or the store's own error when it fails)."""
        station_op = _STATION_OPS.get(op)
        if station_op is not None:
            return station_op(self, connection, arguments, proof)
        extension = self.extensions.get(op)
        if extension is not None:
            if extension.access is Access.DECISION:
                self.guard.check_code(connection.owner, op, None, proof)
            return extension.run(connection, arguments)
        operation = OPERATIONS.get(op)
        if operation is None:
            raise Refusal(ErrorCode.FORBIDDEN, f"the station serves no operation {op!r}")
        if operation.access is Access.DECISION:
            # Checked before anything is looked up: without a code for it nothing is decided.
            self.guard.check_code(connection.owner, op, subject_of(op, arguments), proof)
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
        if operation.caller_pid:
            if connection.peer.pid is None:
                raise Refusal(ErrorCode.FORBIDDEN, f"{op} needs the caller's process id")
            arguments[operation.caller_pid] = connection.peer.pid
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


# -- the station's own operations --------------------------------------------------------


def _status(operations: Operations, connection: Connection, arguments: dict, proof: object) -> dict:
    guard = operations.guard.status()
    settings = operations.settings
    return {
        "protocol": VERSION,
        "mode": str(Mode.STATION),
        "package": package_version(),
        "locked": guard.locked,
        "locked_until": guard.locked_until,
        "failures": guard.failures,
        "passphrase_set": guard.passphrase_set,
        "enrolled": guard.enrolled,
        "unlocked": connection.unlocked,
        "peer": connection.peer.as_detail(),
        "store": str(settings.store),
        "settings": {
            "attempts": settings.attempts,
            "lockout_minutes": settings.lockout_minutes,
            "approval_ttl_minutes": settings.approval_ttl_minutes,
            "idle_expiry_minutes": settings.idle_expiry_minutes,
        },
    }


def subject_of(op: str, arguments: dict) -> object:
    """What a decision acts on: its method's first argument (a call, a field, a session, a path)."""
    namespace, _, method_name = op.partition(".")
    method = getattr(REPOSITORIES.get(namespace), method_name, None)
    if method is None:
        return None
    first = next(iter(list(inspect.signature(method).parameters)[1:2]), None)
    return arguments.get(first) if first else None


def _begin(operations: Operations, connection: Connection, arguments: dict, proof: object) -> dict:
    op, subject = arguments.get("op"), arguments.get("subject")
    operation = OPERATIONS.get(op) if isinstance(op, str) else None
    if not isinstance(op, str) or operation is None or operation.access is not Access.DECISION:
        raise Refusal(ErrorCode.BAD_REQUEST, f"{op!r} is not a decision a person can begin")
    try:
        decision = operations.guard.begin(
            connection.owner, op, subject, connection.peer.as_detail()
        )
    except TooManyWaiting as exc:
        raise Refusal(ErrorCode.BAD_REQUEST, str(exc)) from exc
    return {"decision": decision}


def _withdraw(
    operations: Operations, connection: Connection, arguments: dict, proof: object
) -> None:
    operations.guard.withdraw(connection.owner)


def _unlock(operations: Operations, connection: Connection, arguments: dict, proof: object) -> dict:
    operations.guard.check_passphrase(proof)
    connection.unlocked = True
    connection.store.audit.record(
        Actor.HUMAN,
        Action.UNLOCK,
        reason="a person unlocked withheld content for one review session",
    )
    return {"unlocked": True}


def _passphrase(
    operations: Operations, connection: Connection, arguments: dict, proof: object
) -> dict:
    new = arguments.get("new")
    if not isinstance(new, str):
        raise Refusal(ErrorCode.BAD_REQUEST, "the new passphrase is missing")
    try:
        check_new(new, new)
    except PassphraseError as exc:
        raise Refusal(ErrorCode.BAD_REQUEST, f"the new passphrase cannot be used: {exc}") from exc
    operations.guard.change(proof, new)
    connection.store.audit.record(
        Actor.HUMAN, Action.CHANGE_PASSPHRASE, reason="the reviewer passphrase was changed"
    )
    return {"changed": True}


def _current_version(
    operations: Operations, connection: Connection, arguments: dict, proof: object
) -> int:
    return operations.version()


def _writable(
    operations: Operations, connection: Connection, arguments: dict, proof: object
) -> bool:
    if not connection.store.writable():
        raise StoreUnavailable(connection.store.write_failure or "the store cannot be written")
    return True


_STATION_OPS: dict[str, Callable[[Operations, Connection, dict, object], Any]] = {
    "station.status": _status,
    "station.begin": _begin,
    "station.withdraw": _withdraw,
    "station.unlock": _unlock,
    "station.passphrase": _passphrase,
    "station.version": _current_version,
    "station.writable": _writable,
}
