"""The protocol logic between client and server: track requests, gate calls, taint, clean results.

The relay hands each line here and writes back what it returns. Lines that nothing
rewrites are forwarded as the very bytes that arrived; only rewritten messages are
re-serialized.
"""

import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

from lazaretto.store import StoreUnavailable

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

from .classify import ToolVerdict, classify, untrusted_tool
from .gate import Gate, Refusal
from .jsonrpc import (
    INTERNAL_ERROR,
    PARSE_ERROR,
    LineError,
    decode_line,
    dump_line,
    error_response,
    id_key,
    is_request,
    is_response,
    parse_line,
    parse_text,
    recover_id,
)
from .pins import INSTRUCTIONS, LISTS, PinGuard
from .policy import Policy

# Requests whose results carry text a stranger may have written.
EXPOSURE_METHODS = frozenset({"tools/call", "tasks/result", "resources/read", "prompts/get"})
# A server line this large waits in a temporary file while it is scanned; smaller ones stay in
# memory, where a copy costs less than the round trip through a file.
SPILL_BYTES = 1024 * 1024


@dataclass
class Outgoing:
    """Lines for each side, produced by handling one incoming line."""

    to_server: list[bytes] = field(default_factory=list)
    to_client: list[bytes] = field(default_factory=list)


@dataclass(slots=True)  # not frozen: a frozen init costs a microsecond on every call
class Pending:
    """A client request waiting for the server's answer."""

    request_id: Any
    method: str
    tool: str | None = None
    first_page: bool = True  # a list request without a cursor
    own: bool = False  # sent by the proxy itself (a pin re-check), not by the client
    sent_at: float = field(default_factory=time.monotonic)


# Cleans one payload: (method, tool, request_id, payload, untrusted, plain, line) -> new payload or None.
# `plain`: the line was ASCII without \u escapes, so it cannot hold an invisible character;
# `line`: the line itself when plain and smaller than SPILL_BYTES (a cheap look before any walk).
Cleaner = Callable[
    [str, "str | None", "str | None", dict, bool, bool, "bytes | None"], "dict | None"
]


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
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.policy = policy
        self.server = server
        self.session = session
        self.server_policy = policy.server(server)
        self.gate = Gate(store, policy, server, session)
        self.cleaner = cleaner
        self.pins = pins
        self._own_requests = 0
        # While the proxy re-lists tools after the server said they changed, tool calls wait,
        # and so does the server's notice; both go on once the new list has been screened.
        self._recheck_lock = threading.Lock()
        self._rechecking: dict | None = None  # {"notice": bytes, "deferred": [bytes]}
        self.log = log or (
            lambda text: print(f"lazaretto[{server}]: {text}", file=sys.stderr, flush=True)
        )
        self.pending: dict[tuple, Pending] = {}  # client request ids
        # A request is answered exactly once: by the server or by a timeout, whichever pops it
        # first under this lock; the ids answered by a timeout drop the server's late reply.
        self._answer_lock = threading.Lock()
        self._timed_out: set[tuple] = set()
        self.annotations: dict[str, dict | None] = {}
        self.task_tools: dict[str, str] = {}
        self._verdicts: dict[str, ToolVerdict] = {}
        # (tool, method) -> the store's data_version when its open taint was last confirmed;
        # while nothing else commits, a repeated read of the same source needs no write.
        self._exposure_seen: dict[tuple, int] = {}

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
        with self._recheck_lock:
            if self._rechecking is not None and b'"tools/call"' in raw:
                self._rechecking["deferred"].append(raw)
                return out
        try:
            message = parse_line(raw)
        except LineError as exc:
            # Never forward what we could not read: the gate could not have checked it.
            self.log(f"refused a client line ({len(raw)} bytes): {exc}")
            out.to_client.append(
                dump_line(error_response(None, PARSE_ERROR, f"lazaretto: line {exc}"))
            )
            return out
        if isinstance(message, list):
            kept, replies = [], []
            for element in message:
                reply = self._client_message(element)
                if reply is None:
                    kept.append(element)
                else:
                    replies.append(reply)
            if kept:
                out.to_server.append(raw if not replies else dump_line(kept))
            if replies:
                out.to_client.append(dump_line(replies))
            return out
        reply = self._client_message(message)
        if reply is None:
            out.to_server.append(raw)
        else:
            out.to_client.append(dump_line(reply))
        return out

    def _client_message(self, message: Any) -> dict | None:
        """Track or gate one message; return a reply to send instead of forwarding it."""
        if is_request(message):
            method = message["method"]
            params = message.get("params") if isinstance(message.get("params"), dict) else {}
            tool = None
            if method in ("tools/call", "prompts/get"):
                tool = params.get("name") if isinstance(params.get("name"), str) else ""
                drifted = self.pins and self.pins.refusal(
                    "tool" if method == "tools/call" else "prompt", tool, message["id"]
                )
                if drifted:
                    self.log(f"refused {tool}: pin drift")
                    return drifted
            if method == "tools/call":
                verdict = self.verdict(tool)
                if verdict.outbound and not self.store.writable():
                    # The taint of a read that failed to record is unknown: refuse until the store is back.
                    refusal = Refusal(
                        "store_unavailable",
                        f"{tool} is outbound and the store cannot be written"
                        f" ({self.store.write_failure})",
                        None,
                    )
                else:
                    refusal = self.gate.check(verdict, params.get("arguments"), message["id"])
                if refusal is not None:
                    self.log(f"refused {tool}: {refusal.code}")
                    return refusal.response(message["id"], self.server, tool)
            elif method == "tasks/result":
                tool = self.task_tools.get(str(params.get("taskId")))
            self.pending[id_key(message["id"])] = Pending(
                message["id"], method, tool, "cursor" not in params
            )
        # Everything else (notifications, answers to the server's own requests) passes untouched.
        return None

    def verdict(self, tool: str) -> ToolVerdict:
        """Classify a tool with the annotations its server last listed (cached until it lists again)."""
        verdict = self._verdicts.get(tool)
        if verdict is None:
            verdict = self._verdicts[tool] = classify(
                self.server_policy, tool, self.annotations.get(tool)
            )
        return verdict

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
                return self._from_server(handed, head, size)
        except Exception as exc:
            out = Outgoing()
            self._unreadable_from_server(
                head, size, LineError(f"internal error ({type(exc).__name__}: {exc})"), out
            )
            return out

    def _from_server(self, handed: list[bytes], head: bytes, size: int) -> Outgoing:
        out = Outgoing()
        raw = handed.pop()
        plain = raw.isascii() and b"\\u" not in raw
        line = raw if plain and size < SPILL_BYTES else None  # small: _Arrived keeps it anyway
        try:
            text = decode_line(raw)
        except LineError as exc:
            self._unreadable_from_server(head, size, exc, out)
            return out
        arrived = _Arrived(raw)
        del (
            raw
        )  # a spilled line now exists only in its file, so parsing runs beside one copy, not two
        try:
            message = parse_text(text)
        except LineError as exc:
            arrived.close()
            self._unreadable_from_server(head, size, exc, out)
            return out
        del text
        try:
            if isinstance(message, list):
                results = [self._server_message(element, out, plain, line) for element in message]
                kept = [result for result in results if result is not None]
                if not kept:
                    return out
                if len(kept) == len(message) and all(
                    a is b for a, b in zip(results, message, strict=False)
                ):
                    # Unchanged: the bytes as they came, or (spill lost) the same message re-serialized.
                    out.to_client.append(arrived.read() or dump_line(kept))
                else:
                    del message, results  # free the original texts before the rewrite is serialized
                    arrived.close()
                    out.to_client.append(dump_line(kept))
                return out
            result = self._server_message(message, out, plain, line)
            if result is message:
                out.to_client.append(arrived.read() or dump_line(message))
            elif result is not None:
                del message  # as above: the replaced text goes before the serialization
                arrived.close()
                out.to_client.append(dump_line(result))
            return out
        finally:
            arrived.close()

    def _server_message(self, message: Any, out: Outgoing, plain: bool, line: bytes | None) -> Any:
        """Return what to forward (the same object when unchanged), or None to drop it."""
        if is_response(message):
            key = id_key(message["id"])
            with self._answer_lock:
                pending = self.pending.pop(key, None)
                if pending is None and key in self._timed_out:
                    self._timed_out.discard(key)
                    self.log(
                        f"dropped a late answer to request {message['id']!r}: it had timed out"
                    )
                    return None
            if pending is not None and pending.own and not isinstance(message.get("result"), dict):
                self._recheck_done(out)
                return None  # the proxy's own request failed; the client never asked
            if pending is None or not isinstance(message.get("result"), dict):
                return message
            return self._result(message, pending, out, plain, line)
        if not (isinstance(message, dict) and isinstance(message.get("method"), str)):
            return message
        if message["method"] == "notifications/tools/list_changed" and self.pins is not None:
            with self._recheck_lock:
                if self._rechecking is None:
                    self._rechecking = {"notice": dump_line(message), "deferred": []}
                    out.to_server.append(self._own_request("tools/list"))
                    return None
        params = message.get("params")
        if isinstance(params, dict):
            untrusted, _ = untrusted_tool(self.server_policy, None)
            try:
                cleaned = self.cleaner(
                    message["method"], None, None, params, untrusted, plain, line
                )
            except Exception as exc:
                self.log(f"withheld a server {message['method']}: {exc}")
                if "id" in message:
                    out.to_server.append(
                        dump_line(
                            error_response(
                                message["id"], INTERNAL_ERROR, f"lazaretto: withheld: {exc}"
                            )
                        )
                    )
                return None
            if cleaned is not None:
                message = {**message, "params": cleaned}
        return message

    def _own_request(self, method: str) -> bytes:
        """A request of the proxy's own; its answer is screened and never reaches the client."""
        self._own_requests += 1
        request_id = f"lazaretto-{self._own_requests}"
        self.pending[id_key(request_id)] = Pending(request_id, method, own=True)
        return dump_line({"jsonrpc": "2.0", "id": request_id, "method": method})

    def _recheck_done(self, out: Outgoing) -> None:
        """The re-list was screened: pass the server's notice on and replay the calls that waited."""
        with self._recheck_lock:
            waiting, self._rechecking = self._rechecking, None
        if waiting is None:
            return
        out.to_client.append(waiting["notice"])
        for raw in waiting["deferred"]:
            replay = self._from_client(raw)
            out.to_server.extend(replay.to_server)
            out.to_client.extend(replay.to_client)

    def _result(
        self, message: dict, pending: Pending, out: Outgoing, plain: bool, line: bytes | None
    ) -> dict | None:
        result = message["result"]
        request_id = str(message["id"])
        if pending.method == "tools/list":
            self._learn_tools(result)
        screened = self._screen_pins(pending, result)
        if pending.own:
            self._recheck_done(out)
            return None
        if screened is not None:
            result = screened
            message = {**message, "result": screened}
        if pending.method == "tools/call":
            task = result.get("task")
            if isinstance(task, dict) and isinstance(task.get("taskId"), str) and pending.tool:
                self.task_tools[task["taskId"]] = pending.tool
        untrusted, why = untrusted_tool(self.server_policy, pending.tool)
        try:
            if untrusted and pending.method in EXPOSURE_METHODS:
                subject = f"{self.server}/{pending.tool or pending.method}"
                self._expose(pending, request_id, f"{subject} returned untrusted content ({why})")
            cleaned = self.cleaner(
                pending.method, pending.tool, request_id, result, untrusted, plain, line
            )
        except StoreUnavailable as exc:
            # The read cannot be recorded, so the agent must not read it either.
            return self._withheld(
                message, pending, f"the quarantine store cannot be written ({exc})"
            )
        except Exception as exc:
            return self._withheld(
                message, pending, f"it could not be inspected ({type(exc).__name__}: {exc})"
            )
        return message if cleaned is None else {**message, "result": cleaned}

    def _expose(self, pending: Pending, request_id: str, reason: str) -> None:
        """Taint the session with this read; one open event per source is enough."""
        source = (pending.tool, pending.method)
        version = self.store.data_version()
        if self._exposure_seen.get(source) == version:
            return
        if not self.store.sessions.has_open_taint(
            self.session, self.server, pending.tool
        ) and self.store.sessions.taint(
            self.session,
            server=self.server,
            tool=pending.tool,
            method=pending.method,
            reason=reason,
            request_id=request_id,
        ):
            self.log(f"tainted session {self.session}: {reason}")
        self._exposure_seen[source] = version

    def _screen_pins(self, pending: Pending, result: dict) -> dict | None:
        if self.pins is None:
            return None
        try:
            if pending.method in LISTS:
                complete = pending.first_page and not result.get("nextCursor")
                return self.pins.screen_list(pending.method, result, complete)
            if pending.method in ("initialize", "server/discover"):
                return self.pins.screen_instructions(result)
        except StoreUnavailable as exc:
            # Without the store nothing can be compared: show no entry that is not known good.
            self.log(f"pin check impossible, list withheld: {exc}")
            return _emptied(pending.method, result)
        return None

    def _withheld(self, message: dict, pending: Pending, why: str) -> dict:
        subject = f"{self.server}/{pending.tool or pending.method}"
        self.log(f"withheld the result of {subject}: {why}")
        notice = f"[lazaretto: withheld the result of {subject}: {why}. Tell the user.]"
        if pending.method in ("tools/call", "tasks/result"):
            return {
                **message,
                "result": {"content": [{"type": "text", "text": notice}], "isError": True},
            }
        return error_response(message["id"], INTERNAL_ERROR, notice, {"reason": "withheld"})

    def _learn_tools(self, result: dict) -> None:
        tools = result.get("tools")
        if not isinstance(tools, list):
            return
        verdicts = []
        for tool in tools:
            if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                annotations = (
                    tool.get("annotations") if isinstance(tool.get("annotations"), dict) else None
                )
                self.annotations[tool["name"]] = annotations
                self._verdicts.pop(tool["name"], None)
                verdicts.append(self.verdict(tool["name"]).as_row())
        try:
            self.store.tools.record_many(self.server, verdicts)
        except StoreUnavailable as exc:
            self.log(f"could not record tool classifications: {exc}")

    def _unreadable_from_server(
        self, head: bytes, size: int, exc: LineError, out: Outgoing
    ) -> None:
        # Unscanned server text never reaches the agent; a waiting request gets an error.
        self.log(f"dropped a server line ({size} bytes) that could not be inspected: {exc}")
        request_id = recover_id(head)
        if request_id is not None and self.pending.pop(id_key(request_id), None) is not None:
            out.to_client.append(
                dump_line(
                    error_response(
                        request_id,
                        INTERNAL_ERROR,
                        f"lazaretto: withheld the server's reply: it could not be inspected ({exc})",
                        {"reason": "unreadable_reply"},
                    )
                )
            )

    # -- time limits ----------------------------------------------------------------------

    def expire(self, timeout: float, now: float | None = None) -> Outgoing:
        """Answer every request older than `timeout` seconds with an error, and cancel it at the server."""
        now = time.monotonic() if now is None else now
        out = Outgoing()
        for key, pending in list(self.pending.items()):
            if now - pending.sent_at < timeout:
                continue
            with self._answer_lock:
                if self.pending.pop(key, None) is None:
                    continue  # answered meanwhile
                self._timed_out.add(key)
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
                self._recheck_done(out)
                continue
            out.to_client.append(
                dump_line(
                    error_response(
                        pending.request_id,
                        INTERNAL_ERROR,
                        f"lazaretto: the server did not answer {pending.method} within {timeout:g} seconds",
                        {"reason": "timeout", "timeout_seconds": timeout},
                    )
                )
            )
        return out

    # -- ends -----------------------------------------------------------------------------

    def oversized(self, direction: str, prefix: bytes, size: int, limit: int) -> Outgoing:
        """A line over the size limit was discarded; answer whoever waits for it."""
        out = Outgoing()
        reason = f"a {size}-byte line exceeds the {limit}-byte limit"
        request_id = recover_id(prefix)
        self.log(f"discarded a {direction} line: {reason}")
        if direction == "client":
            out.to_client.append(
                dump_line(error_response(request_id, PARSE_ERROR, f"lazaretto: refused: {reason}"))
            )
        elif request_id is not None and self.pending.pop(id_key(request_id), None) is not None:
            out.to_client.append(
                dump_line(
                    error_response(
                        request_id,
                        INTERNAL_ERROR,
                        f"lazaretto: withheld the server's reply: {reason}",
                        {"reason": "oversized_reply"},
                    )
                )
            )
        return out

    def server_gone(self, exit_code: int | None) -> Outgoing:
        """The server closed its output: every waiting request gets an error."""
        out = Outgoing()
        waiting = list(self.pending.values())
        with self._recheck_lock:
            held, self._rechecking = self._rechecking, None
        for raw in held["deferred"] if held else []:
            # Calls held back during a tool re-check never reached the server: answer them too.
            try:
                message = parse_line(raw)
            except LineError as exc:
                out.to_client.append(
                    dump_line(error_response(None, PARSE_ERROR, f"lazaretto: line {exc}"))
                )
                continue
            for element in message if isinstance(message, list) else [message]:
                if is_request(element):
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
                        {"reason": "server_exited", "exit_code": exit_code},
                    )
                )
            )
        self.pending.clear()
        return out


class _Arrived:
    """A server line's bytes as they arrived, forwarded unchanged when nothing rewrites the message.

    A large line is written to an unlinked temporary file while its message is scanned, so the scan
    does not run beside a second full copy of the message; without room on disk it stays in memory.
    """

    def __init__(self, raw: bytes) -> None:
        self._raw: bytes | None = raw
        self._file: BinaryIO | None = None
        self._size = len(raw)
        if len(raw) < SPILL_BYTES:
            return
        try:
            spill = tempfile.TemporaryFile()  # noqa: SIM115 - open until the line is forwarded or dropped
        except OSError:
            return
        try:
            spill.write(raw)
        except OSError:
            spill.close()
            return
        self._file, self._raw = spill, None

    def read(self) -> bytes | None:
        """The line, byte for byte; None if its temporary file could not be read back whole."""
        if self._file is None:
            return self._raw
        try:
            self._file.seek(0)
            data = self._file.read()
        except OSError:
            return None
        return data if len(data) == self._size else None

    def close(self) -> None:
        """Let go of the bytes: the message is being re-serialized, or it is done."""
        self._raw = None
        if self._file is not None:
            self._file.close()
            self._file = None


def _emptied(method: str, result: dict) -> dict:
    """A list result with every entry withheld, or instructions withheld."""
    if method in LISTS:
        return {**result, LISTS[method][1]: []}
    return {
        **result,
        INSTRUCTIONS[0]: "[lazaretto: instructions withheld: the pin store is unavailable.]",
    }
