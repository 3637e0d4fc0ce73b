"""The protocol logic between client and server: track requests, gate calls, taint, clean results.

The relay hands each line here and writes back what it returns. Every message, in both
directions, is first classified by `envelope.shape_of` (the one rule for what a message is), and
then ends in exactly one of two ways: judged and passed on (cleaned for what it is), or refused,
dropped or replaced by a notice that says why (with an audit row). Lines that nothing rewrites
are forwarded as the very bytes that arrived; only rewritten messages are re-serialized.
"""

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import is_
from typing import TYPE_CHECKING, Any

from lazaretto.store import StoreUnavailable
from lazaretto.store.sessions import TaintState
from lazaretto.store.states import PinKind

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

from ..classify import untrusted_task, untrusted_tool
from ..exposure import EXPOSURE_METHODS, MODEL_READ_REQUESTS, Exposure
from ..gate.check import Gate
from ..gate.requests import NAMING_PARAMS, SESSION_NOTIFICATIONS, call_of
from ..mcp.bounds import affordable
from ..mcp.envelope import Kind, enveloped, request_key, shape_of
from ..mcp.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    REFUSED,
    ErrorReason,
    LineError,
    decode_line,
    dump_line,
    error_response,
    parse_line,
    parse_text,
    recover_id,
)
from ..mcp.surfaces import plain_line
from ..pins.guard import PinGuard
from ..policy import Policy
from ..quarantine.unjudged import keep_unjudged
from ..transport.spill import SPILL_BYTES, Arrived
from .correlation import Correlation, Pending
from .drops import DropLog
from .pin_checks import CallHold, screen_result
from .tools import ToolKnowledge

# The members every message is compared with, read once: in Python 3.11 an attribute of an Enum
# class goes through its metaclass's `__getattr__` hook, about ten times a global's cost.
_REQUEST, _NOTIFICATION, _RESULT, _ERROR, _INVALID = (
    Kind.REQUEST,
    Kind.NOTIFICATION,
    Kind.RESULT,
    Kind.ERROR,
    Kind.INVALID,
)
_TOOL, _PROMPT = PinKind.TOOL, PinKind.PROMPT

# Requests that read one task: their answers are judged as the task's tool's.
TASK_READS = frozenset({"tasks/result", "tasks/get"})
# Tools whose trust a mediator remembers (it forgets them all past this many): a server names
# few, but a client may call any name.
TRUSTS_KEPT = 1024


@dataclass(slots=True)
class Outgoing:
    """Lines for each side, produced by handling one incoming line."""

    to_server: list[bytes] = field(default_factory=list)
    to_client: list[bytes] = field(default_factory=list)


# Cleans one payload: (method, tool, request_id, payload, untrusted, plain, line) -> new payload or None.
# `plain`: the line was ASCII without \u escapes and without a base64 part that may spell text, so it
# cannot hold an invisible character;
# `line`: the line itself when plain and smaller than SPILL_BYTES (a cheap look before any walk).
Cleaner = Callable[
    [str, "str | None", "str | None", dict, bool, bool, "bytes | None"], "dict | None"
]


def stderr_log(server: str) -> Callable[[str], None]:
    """The proxy's log: a line per event on stderr, which clients keep beside the server's own."""

    def log(text: str) -> None:
        print(f"lazaretto[{server}]: {text}", file=sys.stderr, flush=True)

    return log


class Mediator:
    """One server's side of a session: the state the two relay directions share."""

    def __init__(
        self,
        *,
        store: "StoreAPI",
        policy: Policy,
        server: str,
        session: str,
        cleaner: Cleaner,
        pins: PinGuard | None = None,
        exposure: Exposure | None = None,
        log: Callable[[str], None] | None = None,
        settle: Callable[[], None] | None = None,
    ) -> None:
        """`settle` does what the cleaner leaves until an answer is written (see `answered`)."""
        self.store = store
        self.policy = policy
        self.server = server
        self.session = session
        self.server_policy = policy.server(server)
        self.gate = Gate(store, policy, server, session)
        self.cleaner = cleaner
        self.pins = pins
        self.log = log or stderr_log(server)
        self.exposure = exposure or Exposure(store, session, self.log)
        # With pins, tool calls wait while a tools/list is in flight (see CallHold).
        self._hold = CallHold()
        self.requests = Correlation(self._hold if pins is not None else None)
        self.tools = ToolKnowledge(self.server_policy)
        self._dropped = DropLog(store, session, server, self.log)
        self._trusts: dict[tuple[bool, str | None], tuple[bool, str]] = {}
        self._settle = settle

    # -- client -> server ---------------------------------------------------------------

    def from_client(self, raw: bytes) -> Outgoing:
        """Handle one line from the client; an internal error refuses the line, never forwards it."""
        try:
            return self._from_client(raw)
        except Exception as exc:
            self.log(f"refused a client line after an internal error: {type(exc).__name__}: {exc}")
            out = Outgoing()
            out.to_client.append(
                dump_line(
                    error_response(
                        recover_id(raw),
                        INTERNAL_ERROR,
                        f"lazaretto: refused: internal error ({type(exc).__name__})",
                    )
                )
            )
            return out

    def _from_client(self, raw: bytes) -> Outgoing:
        out = Outgoing()
        if self._hold.hold(raw):
            return out
        try:
            message, repeated = parse_line(raw)
        except LineError as exc:
            # Never forward what we could not read: the gate could not have checked it.
            self.log(f"refused a client line ({len(raw)} bytes): {exc}")
            out.to_client.append(
                dump_line(error_response(None, PARSE_ERROR, f"lazaretto: line {exc}"))
            )
            return out
        batch = isinstance(message, list)
        elements = message if batch else [message]
        if batch and not elements:
            out.to_client.append(dump_line(self._invalid_client(None, "it is an empty batch")))
            return out
        forward, replies = [], []
        for element in elements:
            if repeated:
                # Servers disagree on which of two equal keys counts (some keep the first), so
                # what the gate read might not be what the server runs.
                reply = self._invalid_client(element, "it names a key twice in one object")
                sent = None
            else:
                sent, reply = self._client_message(element)
            if sent is not None:
                forward.append(sent)
            if reply is not None:
                replies.append(reply)
        if forward:
            unchanged = len(forward) == len(elements) and all(map(is_, forward, elements))
            out.to_server.append(raw if unchanged else dump_line(forward if batch else forward[0]))
        if replies:
            out.to_client.append(dump_line(replies if batch else replies[0]))
        return out

    def _client_message(self, message: Any) -> tuple[Any, dict | None]:
        """What to forward (the same object when unchanged) and what to answer the client."""
        shape = shape_of(message)
        if shape.kind is _REQUEST:
            return self._client_request(message)
        if shape.kind is _NOTIFICATION:
            return self._client_notification(message), None
        if shape.is_response:
            return self._client_answer(message, shape.kind), None
        return None, self._invalid_client(message, shape.problem)

    def _client_answer(self, message: dict, kind: Kind) -> dict | None:
        """The client answering a request of the server's (sampling, elicitation, roots): what
        to send the server. An answer carries data to it, so it must answer a request the
        server is waiting for, and the model's words go only while no other read tainted the
        session, judged when they leave (the session may have read something since it was asked)."""
        method = self.requests.client_answered(message["id"])
        if method is None:
            self._dropped(
                "client",
                f"an answer to {message['id']!r}: the server is not waiting for it"
                " (it never asked, or the proxy did not pass its request on)",
                None,
            )
            return None
        if kind is _RESULT and method in MODEL_READ_REQUESTS:
            refusal = self._model_answer_refusal(method)
            if refusal is not None:
                return error_response(message["id"], REFUSED, refusal)
        return enveloped(message, kind)

    def _model_answer_refusal(self, method: str) -> str | None:
        """Why the model's answer to the server's `method` may not leave now, or None."""
        try:
            state = self.store.sessions.state(
                self.session, idle_expiry_minutes=self.policy.idle_expiry_minutes
            )
        except StoreUnavailable as exc:
            self._dropped("client", f"the answer to {method}: the taint cannot be read", method)
            return f"lazaretto refused the answer to {method}: the session's taint cannot be read ({exc})"
        # The request's own prompt (an untrusted server's) tainted the session as it was passed
        # on: that read is what the answer is for, and it goes back to its own writer.
        others = [
            reason
            for reason in state.reasons
            if reason["server"] != self.server or reason["method"] not in MODEL_READ_REQUESTS
        ]
        if not others:
            return None
        self._dropped("client", f"the answer to {method}: the session is tainted", method)
        return (
            f"lazaretto refused the answer to {method} from {self.server}: since it was asked, this"
            f" session read untrusted content ({TaintState(True, others).summary()}), and the"
            " model's answer would go to the server"
        )

    def _invalid_client(self, message: Any, problem: str) -> dict | None:
        """Refuse a client message: an error for a request, nothing for what expects no answer."""
        if isinstance(message, dict) and (
            "result" in message
            or "error" in message
            or ("method" in message and "id" not in message)
        ):
            # An answer to the server, or a notification: nobody waits for a reply from us.
            self._dropped("client", f"a message that is not valid JSON-RPC: {problem}", None)
            return None
        self.log(f"refused a client message: {problem}")
        request_id = message.get("id") if isinstance(message, dict) else None
        return error_response(
            request_id if request_key(request_id) is not None else None,
            INVALID_REQUEST,
            f"lazaretto: refused: the message is not valid JSON-RPC ({problem})",
        )

    def _client_request(self, message: dict) -> tuple[Any, dict | None]:
        method, request_id = message["method"], message["id"]
        params = message.get("params") or {}
        key = request_key(request_id)
        assert key is not None  # shape_of accepted the id
        if key in self.requests.pending:
            # Its answer could not be told from the first one's, and would be judged as that.
            self.log(f"refused request {request_id!r}: the id is already waiting for an answer")
            return None, error_response(
                request_id,
                INVALID_REQUEST,
                f"lazaretto: refused: request id {request_id!r} is already waiting for an answer;"
                " use a new id",
            )
        naming = NAMING_PARAMS.get(method)
        if naming is not None and not isinstance(params.get(naming), str):
            self.log(f"refused request {request_id!r}: its {method} {naming} is no string")
            return None, error_response(
                request_id,
                INVALID_REQUEST,
                f"lazaretto: refused: the {method} request's {naming} is not a string",
            )
        tool = None
        if method in ("tools/call", "prompts/get"):
            tool = params["name"]
            drifted = self.pins and self.pins.refusal(
                _TOOL if method == "tools/call" else _PROMPT, tool, request_id
            )
            if drifted:
                self.log(f"refused {tool}: pin drift")
                return None, drifted
        elif method in TASK_READS:
            tool = self.tools.task_tool(params.get("taskId"))
        call = call_of(self.server_policy, method, params, self.tools.verdict)
        refusal = self.gate.check(call.verdict, call.arguments, request_id, scanned=call.scanned)
        if refusal is not None:
            self.log(f"refused {call.name}: {refusal.code}")
            return None, refusal.response(request_id, self.server, call.name)
        self.requests.expect(key, Pending(request_id, method, tool, "cursor" not in params))
        return enveloped(message, _REQUEST), None

    def _client_notification(self, message: dict) -> Any:
        method = message["method"]
        if method in SESSION_NOTIFICATIONS:
            return enveloped(message, _NOTIFICATION)
        if not method.startswith("notifications/"):
            # A request sent without an id gets no answer, so it could not be refused either.
            self._dropped("client", f"{method} sent as a notification, without an id", method)
            return None
        params = message.get("params") or {}
        call = call_of(self.server_policy, method, params, self.tools.verdict)
        refusal = self.gate.judge(call.verdict, call.scanned)
        if refusal is not None:
            self._dropped("client", f"a notification the gate refused: {refusal.reason}", method)
            return None
        return enveloped(message, _NOTIFICATION)

    def answered(self) -> None:
        """Lines for the client were written: what the cleaner left until then is done now, while
        the client reads them (see `quarantine.deferred`)."""
        if self._settle is None:
            return
        try:
            self._settle()
        except Exception as exc:
            # What waited for an answer never stops the relay: at worst it is not done.
            self.log(f"could not finish after an answer: {type(exc).__name__}: {exc}")

    # -- server -> client ---------------------------------------------------------------

    def from_server(self, line: bytes | list[bytes]) -> Outgoing:
        """Handle one line from the server; an internal error withholds the line, never forwards it.

        A one-element list hands the line over: the mediator empties it, so that, when the caller
        keeps no other reference, a large line is not held in memory while its text is scanned.
        """
        handed = line if isinstance(line, list) else [line]
        head, size = handed[0][:4096], len(handed[0])
        try:
            with self.store.one_reading():
                return self._release(self._from_server(handed, head, size))
        except Exception as exc:
            # The agent is told why in words; the exception's text (which may quote the line)
            # goes to the proxy's log only.
            self.log(f"could not handle a server line: {type(exc).__name__}: {exc}")
            out = Outgoing()
            self._unreadable_from_server(
                head, size, LineError("an internal error of the proxy"), out
            )
            return self._release(out)

    def _from_server(self, handed: list[bytes], head: bytes, size: int) -> Outgoing:
        out = Outgoing()
        raw = handed.pop()
        plain = plain_line(raw)
        line = raw if plain and size < SPILL_BYTES else None  # small: Arrived keeps it anyway
        if not affordable(raw):
            self._unreadable_from_server(
                head, size, LineError("it holds more values than can be inspected in memory"), out
            )
            return out
        try:
            text = decode_line(raw)
        except LineError as exc:
            self._unreadable_from_server(head, size, exc, out)
            return out
        arrived = Arrived(raw)
        # A spilled line now exists only in its file, so parsing runs beside one copy, not two.
        del raw
        try:
            message, repeated = parse_text(text, line)
        except LineError as exc:
            arrived.close()
            self._unreadable_from_server(head, size, exc, out)
            return out
        del text
        try:
            batch = isinstance(message, list)
            elements = message if batch else [message]
            if batch and not elements:
                self._dropped("server", "an empty batch", None)
                return out
            results = [self._server_message(element, out, plain, line) for element in elements]
            kept = [result for result in results if result is not None]
            if not kept:
                return out
            # A line with a repeated key is never passed on as it came: a reader that keeps the
            # first of two keys would read what was not judged.
            unchanged = not repeated and all(map(is_, results, elements))
            if unchanged:
                # The bytes as they came, or (spill lost) the same message re-serialized.
                out.to_client.append(arrived.read() or dump_line(message))
            else:
                del (
                    message,
                    results,
                    elements,
                )  # free the originals before the rewrite is serialized
                arrived.close()
                out.to_client.append(dump_line(kept if batch else kept[0]))
            return out
        finally:
            arrived.close()

    def _server_message(self, message: Any, out: Outgoing, plain: bool, line: bytes | None) -> Any:
        """Return what to forward (the same object when unchanged), or None to drop it."""
        shape = shape_of(message)
        if shape.is_response:
            return self._server_response(message, shape.kind, out, plain, line)
        if shape.kind is _INVALID:
            self._invalid_server(message, shape.problem, out)
            return None
        message = enveloped(message, shape.kind)
        method = message["method"]
        if (
            method == "notifications/tools/list_changed"
            and self.pins is not None
            and self._hold.recheck(dump_line(message))
        ):
            out.to_server.append(self.requests.own_request("tools/list"))
            return None
        request_id = message.get("id")
        if shape.kind is not _REQUEST:
            return self._server_params(message, method, out, plain, line)
        if self._server_request_waiting(request_id, method, out):
            return None
        passed = self._server_params(message, method, out, plain, line)
        if passed is not None:
            self.requests.await_client(request_id, method)
        return passed

    def _server_params(
        self, message: dict, method: str, out: Outgoing, plain: bool, line: bytes | None
    ) -> dict | None:
        """A server request or notification with its params judged, or None (dropped or refused)."""
        request_id = message.get("id")
        params = message.get("params")
        untrusted, why = self._trust(False, None)
        try:
            if method in MODEL_READ_REQUESTS and "id" in message:
                refusal = self._model_request_refusal(method)
                if refusal is not None:
                    out.to_server.append(dump_line(error_response(request_id, REFUSED, refusal)))
                    return None
                if untrusted and isinstance(params, dict):
                    self.exposure.record(
                        server=self.server,
                        tool=None,
                        method=method,
                        reason=f"{self.server} sent {method} with untrusted text ({why})",
                        request_id=str(request_id),
                    )
            if not isinstance(params, dict):
                return message  # no text to judge
            cleaned = self.cleaner(method, None, None, params, untrusted, plain, line)
        except Exception as exc:
            self._dropped("server", f"a {method} that could not be inspected: {exc}", method)
            if "id" in message:
                out.to_server.append(
                    dump_line(
                        error_response(request_id, INTERNAL_ERROR, f"lazaretto: withheld: {exc}")
                    )
                )
            return None
        return message if cleaned is None else {**message, "params": cleaned}

    def _server_request_waiting(self, request_id: Any, method: str, out: Outgoing) -> bool:
        """Whether a server request reuses the id of one the client has yet to answer (then it
        is refused to the server: the client's answer would be judged as either request's)."""
        if not self.requests.server_waits(request_id):
            return False
        self._dropped("server", f"a {method} reusing the waiting id {request_id!r}", method)
        out.to_server.append(
            dump_line(
                error_response(
                    request_id,
                    INVALID_REQUEST,
                    f"lazaretto: refused: request id {request_id!r} is already waiting for the"
                    " client's answer; use a new id",
                )
            )
        )
        return True

    def _model_request_refusal(self, method: str) -> str | None:
        """Why a server's request for the model's own words is refused (while tainted), or None:
        the model's answer goes to the server, so it is outbound like a tool call."""
        state = self.store.sessions.state(
            self.session, idle_expiry_minutes=self.policy.idle_expiry_minutes
        )
        if not state.tainted:
            return None
        self._dropped("server", f"a {method} request: the session is tainted", method)
        return (
            f"lazaretto refused {method} from {self.server}: this session read untrusted content"
            f" ({state.summary()}), and the model's answer would go to the server"
        )

    def _server_response(
        self, message: dict, kind: Kind, out: Outgoing, plain: bool, line: bytes | None
    ) -> dict | None:
        pending = self._answered(message["id"])
        if pending is None:
            return None
        answered = enveloped(message, kind)
        request_id = pending.request_id
        if type(message["id"]) is not type(request_id) or message["id"] != request_id:
            # The client would match it to this request: it shall see the id it sent.
            answered = {**answered, "id": request_id}
        message = answered
        if pending.own and kind is _ERROR:
            return None  # the proxy's own request failed; the client never asked
        if kind is _RESULT:
            return self._result(message, pending, out, plain, line)
        return self._error(message, pending, plain, line)

    def _answered(self, response_id: Any) -> Pending | None:
        """The pending request a response answers, matched as clients match it; None (and the
        response dropped with a reason) when it answers none."""
        pending = self.requests.answered(response_id)
        if pending is not None:
            return pending
        if self.requests.timed_out(response_id):
            self._dropped(
                "server", f"a late answer to request {response_id!r}, which timed out", None
            )
        else:
            self._dropped("server", f"a response to {response_id!r}, which no request awaits", None)
        return None

    def _invalid_server(self, message: Any, problem: str, out: Outgoing) -> None:
        """Drop a server message of no valid shape; whoever waits for it gets an error instead."""
        self._dropped("server", f"a message that is not valid JSON-RPC: {problem}", None)
        if not isinstance(message, dict) or "id" not in message:
            return
        if "result" in message or "error" in message:
            pending = self.requests.answered(message["id"])
            if pending is not None and not pending.own:
                out.to_client.append(
                    dump_line(
                        error_response(
                            pending.request_id,
                            INTERNAL_ERROR,
                            f"lazaretto: withheld the server's reply: {problem}",
                            {"reason": ErrorReason.INVALID_REPLY},
                        )
                    )
                )
        elif request_key(message["id"]) is not None:
            out.to_server.append(
                dump_line(
                    error_response(message["id"], INVALID_REQUEST, f"lazaretto: refused: {problem}")
                )
            )

    def _release(self, out: Outgoing) -> Outgoing:
        """Once no tools/list is in flight: pass held notices on and replay the calls that waited."""
        notices, deferred = self._hold.release()
        out.to_client.extend(notices)
        for raw in deferred:
            replay = self._from_client(raw)
            out.to_server.extend(replay.to_server)
            out.to_client.extend(replay.to_client)
        return out

    def _result(
        self, message: dict, pending: Pending, out: Outgoing, plain: bool, line: bytes | None
    ) -> dict | None:
        result = message["result"]
        if pending.method == "tools/list":
            self._learn_tools(result)
        screened = screen_result(self.pins, pending, result, self.log)
        if pending.own:
            return None
        if screened is not None:
            result = screened
            message = {**message, "result": screened}
        if pending.method == "tools/call":
            self.tools.started_task(result, pending.tool)
        cleaned = self._judged(message, "result", pending, plain, line)
        return cleaned

    def _error(self, message: dict, pending: Pending, plain: bool, line: bytes | None) -> dict:
        return self._judged(message, "error", pending, plain, line)

    def _judged(
        self, message: dict, member: str, pending: Pending, plain: bool, line: bytes | None
    ) -> dict:
        """The response with its `result` or `error` cleaned; an untrusted answer taints first."""
        request_id = str(message["id"])
        untrusted, why = self._trust(pending.method in TASK_READS, pending.tool)
        try:
            if (
                untrusted
                and pending.method in EXPOSURE_METHODS
                and not self.exposure.recorded(self.server, pending.tool, pending.method)
            ):
                subject = f"{self.server}/{pending.tool or pending.method}"
                what = "untrusted content" if member == "result" else "an untrusted error"
                self.exposure.record(
                    server=self.server,
                    tool=pending.tool,
                    method=pending.method,
                    reason=f"{subject} returned {what} ({why})",
                    request_id=request_id,
                )
            payload = message[member] if member == "result" else {"error": message[member]}
            cleaned = self.cleaner(
                pending.method, pending.tool, request_id, payload, untrusted, plain, line
            )
        except StoreUnavailable as exc:
            # The read cannot be recorded, so the agent must not read it either.
            return self._withheld(
                message, pending, f"the quarantine store cannot be written ({exc})"
            )
        except Exception as exc:
            self.log(f"could not judge {pending.method}: {type(exc).__name__}: {exc}")
            qid = keep_unjudged(
                self.store,
                session=self.session,
                server=self.server,
                tool=pending.tool,
                method=pending.method,
                request_id=request_id,
                payload=message[member],
                error=exc,
            )
            kept = f"; a person can read and release it as {qid}" if qid else ""
            return self._withheld(
                message, pending, f"the proxy failed to inspect it (an internal error){kept}"
            )
        if cleaned is None:
            return message
        return {**message, member: cleaned if member == "result" else cleaned["error"]}

    def _trust(self, task: bool, tool: str | None) -> tuple[bool, str]:
        """Whether an answer of `tool` (of a task it started, with `task`) is untrusted, and why:
        decided by the policy alone, so once per tool."""
        key = (task, tool)
        found = self._trusts.get(key)
        if found is None:
            if len(self._trusts) >= TRUSTS_KEPT:
                self._trusts.clear()
            judge = untrusted_task if task else untrusted_tool
            found = self._trusts[key] = judge(self.server_policy, tool)
        return found

    def _withheld(self, message: dict, pending: Pending, why: str) -> dict:
        subject = f"{self.server}/{pending.tool or pending.method}"
        self.log(f"withheld the result of {subject}: {why}")
        notice = f"[lazaretto: withheld the result of {subject}: {why}. Tell the user.]"
        if pending.method in ("tools/call", "tasks/result"):
            return {
                "jsonrpc": "2.0",
                "id": message["id"],
                "result": {"content": [{"type": "text", "text": notice}], "isError": True},
            }
        return error_response(
            message["id"], INTERNAL_ERROR, notice, {"reason": ErrorReason.WITHHELD}
        )

    def _learn_tools(self, result: dict) -> None:
        rows = self.tools.learn(result)
        if rows is None:
            return
        try:
            self.store.tools.record_many(self.server, rows)
        except StoreUnavailable as exc:
            self.log(f"could not record tool classifications: {exc}")

    def _unreadable_from_server(
        self, head: bytes, size: int, exc: LineError, out: Outgoing
    ) -> None:
        # Unscanned server text never reaches the agent; a waiting request gets an error.
        self._dropped("server", f"a {size}-byte line that could not be inspected: {exc}", None)
        self._answer_unusable(
            head, f"it could not be inspected ({exc})", ErrorReason.UNREADABLE_REPLY, out
        )

    def _answer_unusable(self, head: bytes, why: str, reason: ErrorReason, out: Outgoing) -> None:
        """The client request a line that cannot be passed on seems to answer (by the id at its
        start) gets an error saying why, rather than waiting for an answer that never comes."""
        pending = self._pop_recovered(head)
        if pending is not None:
            out.to_client.append(
                dump_line(
                    error_response(
                        pending.request_id,
                        INTERNAL_ERROR,
                        f"lazaretto: withheld the server's reply: {why}",
                        {"reason": reason},
                    )
                )
            )

    def _pop_recovered(self, head: bytes) -> Pending | None:
        """The client request an unreadable line seems to answer (by the id at its start), if any."""
        pending = self.requests.answered(recover_id(head))
        return None if pending is None or pending.own else pending

    # -- time limits ----------------------------------------------------------------------

    def expire(self, timeout: float, now: float | None = None) -> Outgoing:
        """Answer every request older than `timeout` seconds with an error, and cancel it at the server."""
        now = time.monotonic() if now is None else now
        out = Outgoing()
        for pending in self.requests.expired(timeout, now):
            self.log(
                f"request {pending.request_id!r} ({pending.method}) timed out after {timeout:g} s"
            )
            out.to_server.append(
                dump_line(
                    {
                        "jsonrpc": "2.0",
                        "method": "notifications/cancelled",
                        "params": {
                            "requestId": pending.request_id,
                            "reason": "lazaretto: request timed out",
                        },
                    }
                )
            )
            if pending.own:
                continue
            out.to_client.append(
                dump_line(
                    error_response(
                        pending.request_id,
                        INTERNAL_ERROR,
                        f"lazaretto: the server did not answer {pending.method} within {timeout:g} seconds",
                        {"reason": ErrorReason.TIMEOUT, "timeout_seconds": timeout},
                    )
                )
            )
        return self._release(out)

    # -- ends -----------------------------------------------------------------------------

    def oversized(self, direction: str, prefix: bytes, size: int, limit: int) -> Outgoing:
        """A line over the size limit was discarded; answer whoever waits for it."""
        out = Outgoing()
        reason = f"a {size}-byte line exceeds the {limit}-byte limit"
        if direction == "client":
            self.log(f"discarded a client line: {reason}")
            out.to_client.append(
                dump_line(
                    error_response(recover_id(prefix), PARSE_ERROR, f"lazaretto: refused: {reason}")
                )
            )
            return out
        self._dropped("server", reason, None)
        self._answer_unusable(prefix, reason, ErrorReason.OVERSIZED_REPLY, out)
        return self._release(out)

    def waiting(self, request_id: Any) -> bool:
        """Whether a request the client (or the proxy) sent is still unanswered."""
        return self.requests.waiting(request_id)

    def undelivered(self, request_id: Any, message: str, reason: str) -> Outgoing:
        """The transport could not bring the server's answer whole: the waiting request gets an error."""
        out = Outgoing()
        pending = self.requests.take(request_id)
        if pending is None:
            return out
        self.log(f"request {request_id!r} ({pending.method}) failed: {message}")
        if pending.own:
            return self._release(out)
        out.to_client.append(
            dump_line(
                error_response(
                    request_id, INTERNAL_ERROR, f"lazaretto: {message}", {"reason": reason}
                )
            )
        )
        return self._release(out)

    def server_gone(self, exit_code: int | None) -> Outgoing:
        """The server closed its output: every waiting request gets an error."""
        out = Outgoing()
        waiting = self.requests.drain()
        _notices, held = self._hold.release(everything=True)
        for raw in held:
            # Calls held back during a tool re-check never reached the server: answer them too.
            try:
                message, _repeated = parse_line(raw)
            except LineError as exc:
                out.to_client.append(
                    dump_line(error_response(None, PARSE_ERROR, f"lazaretto: line {exc}"))
                )
                continue
            for element in message if isinstance(message, list) else [message]:
                if shape_of(element).kind is _REQUEST:
                    waiting.append(Pending(element["id"], element["method"]))
        for pending in waiting:
            if pending.own:
                continue  # the proxy's own re-check: the client never asked
            out.to_client.append(
                dump_line(
                    error_response(
                        pending.request_id,
                        INTERNAL_ERROR,
                        f"lazaretto: the server exited (code {exit_code}) before answering {pending.method}",
                        {"reason": ErrorReason.SERVER_EXITED, "exit_code": exit_code},
                    )
                )
            )
        return out
