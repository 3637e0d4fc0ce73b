"""Streamable HTTP toward one remote MCP server: the client side of the transport, 2025-03-26 to 2026-07-28.

Every message the mediator let through is POSTed on its own. Answers come back as one JSON body or
an SSE stream; the GET stream (when the server offers one) brings the server's own requests and
notifications; a stream cut after an event id is resumed with `Last-Event-ID`. Each server message
goes whole to the sink (the relay, which hands it to the mediator); an answer that cannot arrive
whole becomes an error for the request that waits for it. The first exchange falls back to the
2024-11-05 HTTP+SSE transport as the specification describes.
"""

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

import httpx

from ...mcp.envelope import Kind as MessageKind
from ...mcp.envelope import request_key, shape_of
from .bodies import (
    Oversized,
    as_line,
    events,
    hang_up,
    is_event_stream,
    is_json,
    read_body,
    read_line,
)
from .failures import Failure, Undeliverable, from_http_error, http_status
from .legacy import LegacyEndpoint
from .metadata import ParamHeaders, protocol_version, request_headers

ACCEPT_POST = "application/json, text/event-stream"
ACCEPT_STREAM = "text/event-stream"
SESSION_HEADER = "Mcp-Session-Id"
# Error codes only a 2026-07-28 server answers with: a 4xx carrying one is no reason for HTTP+SSE.
_MODERN_ERRORS = frozenset({-32020, -32021, -32022, -32601})
_MODERN = "2026-07-28"  # from this revision on, closing a request's stream is its cancellation
_RESUMES = 3
_DEFAULT_RETRY_MS = 1000
_LISTEN_FAILURES = 3
_GET_STREAM = ("get",)
# Concurrent requests, each waiting for its own answer; more wait for a free worker.
_WORKERS = 256


class Sink(Protocol):
    """Where the transport brings what the server sent, and reports what it could not bring."""

    def deliver(self, handed: list[bytes]) -> None:
        """One whole server message, as a line in a one-element list the sink empties: the
        transport keeps no other reference, so a large line is not held twice while it is judged."""

    def undelivered(self, request_id: Any, failure: Failure, sentence: str) -> None:
        """The answer to this request cannot arrive."""

    def oversized(self, head: bytes, size: int) -> None:
        """A message outside any request's stream passed the size limit."""

    def waiting(self, request_id: Any) -> bool:
        """Whether this request still waits for an answer."""
        ...

    def ended(self, sentence: str) -> None:
        """The server is gone for good."""


class Kind(Enum):
    """What a POST body holds."""

    REQUEST = "request"
    NOTIFICATION = "notification"
    ANSWER = "answer"  # a response to one of the server's requests
    BATCH = "batch"  # a JSON array, from a 2025-03-26 client


_KINDS = {MessageKind.REQUEST: Kind.REQUEST, MessageKind.NOTIFICATION: Kind.NOTIFICATION}


@dataclass(slots=True)
class Sent:
    """One POST body and what the transport needs to know of it."""

    body: bytes
    message: Any
    kind: Kind

    @classmethod
    def of(cls, line: bytes) -> "Sent":
        """Read one line the mediator let through."""
        body = line.rstrip(b"\r\n")
        try:
            message = json.loads(body)
        except ValueError:
            message = None
        if isinstance(message, list):
            kind = Kind.BATCH
        else:
            kind = _KINDS.get(shape_of(message).kind, Kind.ANSWER)
        return cls(body, message, kind)

    @property
    def method(self) -> str | None:
        """The method of a request or notification."""
        return self.message.get("method") if isinstance(self.message, dict) else None

    @property
    def request_ids(self) -> list:
        """The ids of the requests in the body (one, or each request of a batch)."""
        if self.kind is Kind.REQUEST:
            return [self.message["id"]]
        if self.kind is Kind.BATCH:
            return [e["id"] for e in self.message if shape_of(e).kind is MessageKind.REQUEST]
        return []

    @property
    def key(self) -> tuple:
        """The body's key among the open streams."""
        ids = self.request_ids
        return ("request", request_key(ids[0])) if ids else ("body", id(self))


class StreamableHTTP:
    """One remote MCP endpoint: sessions, POSTs and their streams, the GET stream, resumption."""

    def __init__(
        self,
        url: str,
        client: httpx.Client,
        sink: Sink,
        *,
        max_bytes: int,
        host: str,
        log: Callable[[str], None],
        legacy_first: bool = False,
    ) -> None:
        self.url = url
        self.legacy_first = legacy_first
        self.client = client
        self.sink = sink
        self.max_bytes = max_bytes
        self.host = host
        self.log = log
        self.session_id: str | None = None
        self.protocol_version: str | None = None  # agreed by initialize
        self.params = ParamHeaders()
        self._declared_version: str | None = None  # the last version a request's `_meta` named
        self._initialize: bytes | None = None  # replayed when the server ends the session
        self._initialized: bytes | None = None
        self._era_known = False
        self._legacy: LegacyEndpoint | None = None
        self._session_lock = threading.Lock()
        self._fallback_lock = threading.Lock()
        self._streams: dict[tuple, httpx.Response] = {}
        self._streams_lock = threading.Lock()
        self._cancelled: set[tuple] = set()
        self._listening = False
        self._closed = threading.Event()
        self._busy = 0
        self._idle = threading.Condition()
        self._own = 0
        self._workers = ThreadPoolExecutor(
            max_workers=_WORKERS, thread_name_prefix="lazaretto-post"
        )

    # -- sending ------------------------------------------------------------------------

    def send(self, line: bytes) -> None:
        """Send one line the mediator let through. Requests are answered on a worker; answers and
        notifications are sent in order before the caller goes on, as the SDK's client does."""
        sent = Sent.of(line)
        if sent.kind is Kind.REQUEST:
            declared = protocol_version(sent.message, None)
            if declared:
                self._declared_version = declared
            if sent.method == "initialize":
                self._initialize = sent.body
        elif sent.method == "notifications/initialized":
            self._initialized = sent.body
        elif sent.method == "notifications/cancelled" and self._cancel(sent):
            return
        ending = Undeliverable(Failure.CONNECTION_ENDED, "the proxy is shutting down")
        if self._closed.is_set():
            # The client left while this line was being judged: nobody reads an answer anymore.
            self._fail(sent, ending)
            return
        if sent.kind in (Kind.REQUEST, Kind.BATCH):
            with self._idle:
                self._busy += 1
            try:
                self._workers.submit(self._on_worker, sent)
            except RuntimeError:  # the workers stopped between the check and here
                with self._idle:
                    self._busy -= 1
                self._fail(sent, ending)
        else:
            self._exchange(sent)

    def _on_worker(self, sent: Sent) -> None:
        try:
            self._exchange(sent)
        finally:
            with self._idle:
                self._busy -= 1
                self._idle.notify_all()

    def _cancel(self, sent: Sent) -> bool:
        """Close the stream of a cancelled request; True when the notification is not to be sent.

        From 2026-07-28 on, closing the stream is the cancellation. Before, the notification goes to
        the server and the stream stays open for its last word, unless nobody waits for it anymore
        (the proxy answered the request itself, after a timeout).
        """
        params = sent.message.get("params")
        request_id = params.get("requestId") if isinstance(params, dict) else None
        if request_id is None:
            return False
        modern = (self._declared_version or self.protocol_version or "") >= _MODERN
        key = ("request", request_key(request_id))
        if modern or not self.sink.waiting(request_id):
            with self._streams_lock:  # seen by `_track` if the answer has not begun yet
                self._cancelled.add(key)
            self._hang_up(key)
        return modern

    def _exchange(self, sent: Sent) -> None:
        """POST one body and bring back its answer; any failure answers the requests in it."""
        try:
            legacy = self._legacy or (self._connect_legacy() if self.legacy_first else None)
            if legacy is not None:
                legacy.post(sent.body)
                return
            self._post(sent, renew=True)
            if self._legacy is not None:
                return  # it moved to HTTP+SSE: the answer comes on that stream
        except Oversized as exc:
            self._fail(
                sent,
                Undeliverable(
                    Failure.OVERSIZED,
                    f"the server's answer exceeds the {self.max_bytes}-byte limit "
                    f"(more than {exc.size} bytes); ask for less, or raise proxy.max_line_bytes in the policy",
                ),
            )
            return
        except Exception as exc:
            # httpx and TLS errors, the login's own refusals; anything else fails closed the same way.
            self._fail(sent, from_http_error(exc, self.host))
            return
        if not sent.request_ids:
            return
        if sent.key in self._cancelled:
            self._cancelled.discard(sent.key)
            self._fail(sent, Undeliverable(Failure.CANCELLED, "the request was cancelled"))
            return
        # Still waiting after the exchange: the server never sent the response.
        self._fail(
            sent,
            Undeliverable(
                Failure.STREAM_CUT,
                "the server ended its answer before the response arrived whole; retry the request",
            ),
        )

    def _fail(self, sent: Sent, exc: Undeliverable) -> None:
        """Every request of the body that still waits gets the error; others are only logged."""
        ids = [request_id for request_id in sent.request_ids if self.sink.waiting(request_id)]
        for request_id in ids:
            self.sink.undelivered(request_id, exc.failure, exc.sentence)
        if not sent.request_ids:
            self.log(f"could not send a {sent.method or 'response'}: {exc.sentence}")

    def _headers(self, sent: Sent | None, accept: str = ACCEPT_POST) -> dict[str, str]:
        headers = {"Accept": accept}
        if sent is not None:
            headers["Content-Type"] = "application/json"
            headers.update(request_headers(sent.message, self.protocol_version, self.params))
        elif self.protocol_version:
            headers["MCP-Protocol-Version"] = self.protocol_version
        if self.session_id:
            headers[SESSION_HEADER] = self.session_id
        return headers

    def _post(self, sent: Sent, renew: bool) -> None:
        session = self.session_id
        expired = False
        with self.client.stream(
            "POST", self.url, content=sent.body, headers=self._headers(sent)
        ) as response:
            self._track(sent.key, response)
            try:
                if response.status_code == 404 and session is not None and renew:
                    expired = sent.method != "initialize"
                if not expired:
                    self._answer(sent, response)
            finally:
                self._untrack(sent.key, response)
        if expired and session is not None:
            if not self._renew(session):
                raise Undeliverable(
                    Failure.SESSION_LOST,
                    f"{self.host} ended the session and a new one could not be started; restart the client",
                )
            self._post(sent, renew=False)

    def _answer(self, sent: Sent, response: httpx.Response) -> None:
        status = response.status_code
        if not 200 <= status < 300:
            body = read_body(response, self.max_bytes)
            if self._try_fallback(sent, status, body):
                return
            self._era_known = True
            if not sent.request_ids:
                # Nobody waits for an answer to a notification: its refusal goes to the log only.
                raise http_status(status, self.host)
            if status in (401, 403) or not _is_jsonrpc(body):
                raise http_status(status, self.host)
            self._receive(sent, [as_line(body)])  # a JSON-RPC error in an HTTP error: judged
            return
        self._era_known = True
        if sent.method == "initialize" and response.headers.get(SESSION_HEADER):
            self.session_id = response.headers[SESSION_HEADER]
        if status == 202:
            pass
        elif is_event_stream(response):
            self._read_stream(sent, response)
        elif is_json(response):
            handed = [read_line(response, self.max_bytes)]
            if not handed[0].isspace():
                self._receive(sent, handed)
        elif sent.request_ids:
            kind = response.headers.get("content-type", "none")
            raise Undeliverable(
                Failure.NOT_MCP,
                f"{self.host} answered with content type {kind!r}, not JSON or an event stream; "
                "check that the URL is the server's MCP endpoint",
            )
        if sent.method == "notifications/initialized":
            self._start_listening()

    def _receive(self, sent: Sent, handed: list[bytes]) -> None:
        """Deliver the answer's line, handed over in a one-element list (see Sink.deliver)."""
        if sent.method in ("initialize", "tools/list"):
            self._learn(sent, handed[0])
        self.sink.deliver(handed)

    def _learn(self, sent: Sent, line: bytes) -> None:
        """The agreed protocol version, and the tools' `x-mcp-header` annotations."""
        try:
            message = json.loads(line)
        except ValueError:
            return
        if not (isinstance(message, dict) and isinstance(message.get("result"), dict)):
            return
        if message.get("id") != sent.message.get("id"):
            return
        result = message["result"]
        if sent.method == "initialize" and isinstance(result.get("protocolVersion"), str):
            self.protocol_version = result["protocolVersion"]
        elif sent.method == "tools/list":
            for name in self.params.learn(result):
                self.log(f"tool {name} has invalid x-mcp-header annotations; its calls carry none")

    # -- streams ------------------------------------------------------------------------

    def _read_stream(self, sent: Sent, response: httpx.Response) -> None:
        """Read a POST's SSE stream until its answer; resume a cut stream from its last event id."""
        last_id, retry = self._consume(sent, response, None, None)
        for _ in range(_RESUMES):
            if last_id is None or not self._unanswered(sent) or self._closed.is_set():
                return
            time.sleep((retry if retry is not None else _DEFAULT_RETRY_MS) / 1000)
            headers = {**self._headers(None, ACCEPT_STREAM), "Last-Event-ID": last_id}
            with self.client.stream("GET", self.url, headers=headers) as resumed:
                if resumed.status_code != 200 or not is_event_stream(resumed):
                    raise Undeliverable(
                        Failure.STREAM_CUT,
                        "the server's stream ended before its answer and resuming it was refused "
                        f"(HTTP {resumed.status_code}); retry the request",
                    )
                self._track(sent.key, resumed)
                try:
                    last_id, retry = self._consume(sent, resumed, last_id, retry)
                finally:
                    self._untrack(sent.key, resumed)

    def _consume(
        self, sent: Sent, response: httpx.Response, last_id: str | None, retry: int | None
    ) -> tuple[str | None, int | None]:
        """Deliver the stream's messages until the request is answered or the stream ends."""
        try:
            for event in events(response, self.max_bytes):
                last_id = event.id or last_id
                retry = event.retry if event.retry is not None else retry
                if event.data and event.event in ("", "message"):
                    self._receive(sent, [as_line(event.data)])
                    if not self._unanswered(sent):
                        # Answered: whatever the server streams after it is no one's to read.
                        return None, retry
        except httpx.HTTPError as exc:
            if sent.key not in self._cancelled:
                self.log(f"a stream from {self.host} broke: {exc}")
        return last_id, retry

    def _unanswered(self, sent: Sent) -> bool:
        if sent.key in self._cancelled:
            return False
        return any(self.sink.waiting(request_id) for request_id in sent.request_ids)

    def _start_listening(self) -> None:
        with self._streams_lock:
            if self._listening or not self.session_id or self._closed.is_set():
                return
            self._listening = True
        threading.Thread(target=self._listen, name="get-stream", daemon=True).start()

    def _listen(self) -> None:
        """The GET stream: the server's requests and notifications outside any request."""
        last_id: str | None = None
        retry: int | None = None
        failures = 0
        try:
            while not self._closed.is_set() and self.session_id and failures < _LISTEN_FAILURES:
                headers = self._headers(None, ACCEPT_STREAM)
                if last_id:
                    headers["Last-Event-ID"] = last_id
                try:
                    with self.client.stream("GET", self.url, headers=headers) as response:
                        if response.status_code == 405:
                            return  # the server offers no such stream
                        if response.status_code != 200 or not is_event_stream(response):
                            failures += 1
                            self.log(f"the GET stream was refused (HTTP {response.status_code})")
                        else:
                            failures = 0
                            self._track(_GET_STREAM, response)
                            try:
                                for event in events(response, self.max_bytes):
                                    last_id = event.id or last_id
                                    retry = event.retry if event.retry is not None else retry
                                    if event.data and event.event in ("", "message"):
                                        self.sink.deliver([as_line(event.data)])
                            finally:
                                self._untrack(_GET_STREAM, response)
                except Oversized as exc:
                    self.sink.oversized(exc.head, exc.size)
                except Exception as exc:
                    failures += 1
                    if not self._closed.is_set():
                        self.log(
                            f"the GET stream broke: {from_http_error(exc, self.host).sentence}"
                        )
                delay = (retry if retry is not None else _DEFAULT_RETRY_MS) / 1000
                if self._closed.wait(delay):
                    return
        finally:
            with self._streams_lock:
                self._listening = False

    def _track(self, key: tuple, response: httpx.Response) -> None:
        with self._streams_lock:
            self._streams[key] = response
            cancelled = key in self._cancelled
        if cancelled:
            # Cancelled before its answer began: there was no stream to hang up then.
            hang_up(response)

    def _untrack(self, key: tuple, response: httpx.Response) -> None:
        with self._streams_lock:
            if self._streams.get(key) is response:
                del self._streams[key]

    def _hang_up(self, key: tuple) -> None:
        with self._streams_lock:
            response = self._streams.get(key)
        if response is not None:
            hang_up(response)

    # -- sessions and eras --------------------------------------------------------------

    def _renew(self, stale: str) -> bool:
        """The server ended the session (404): start a new one with the client's own initialize."""
        with self._session_lock:
            if self.session_id != stale:
                return self.session_id is not None  # another request renewed it meanwhile
            if self._initialize is None:
                return False
            self.session_id = None
            self._own += 1
            own_id = f"lazaretto-session-{self._own}"
            request = {**json.loads(self._initialize), "id": own_id}
            sent = Sent.of(json.dumps(request).encode())
            with self.client.stream(
                "POST", self.url, content=sent.body, headers=self._headers(sent)
            ) as response:
                if response.status_code != 200:
                    return False
                session = response.headers.get(SESSION_HEADER)
                result = self._own_result(response, own_id)
            if result is None:
                return False
            self.session_id = session
            if isinstance(result.get("protocolVersion"), str):
                self.protocol_version = result["protocolVersion"]
            if self._initialized is not None:
                self.client.post(
                    self.url,
                    content=self._initialized,
                    headers=self._headers(Sent.of(self._initialized)),
                )
            self.log(f"{self.host} ended session {stale}; started a new one")
        self._start_listening()
        return True

    def _own_result(self, response: httpx.Response, own_id: str) -> dict | None:
        """The result of the proxy's own request; nothing on its stream reaches the client."""
        if is_json(response):
            bodies: Any = [read_body(response, self.max_bytes)]
        elif is_event_stream(response):
            bodies = (event.data for event in events(response, self.max_bytes) if event.data)
        else:
            return None
        for body in bodies:
            try:
                message = json.loads(body)
            except ValueError:
                continue
            if isinstance(message, dict) and message.get("id") == own_id:
                result = message.get("result")
                return result if isinstance(result, dict) else None
        return None

    def _try_fallback(self, sent: Sent, status: int, body: bytes) -> bool:
        """On the first exchange, a 400/404/405 without a modern MCP error means HTTP+SSE."""
        if self._era_known or status not in (400, 404, 405) or _modern_error(body):
            return False
        legacy = self._connect_legacy()
        if legacy is None:
            return False
        legacy.post(sent.body)
        return True

    def _connect_legacy(self) -> LegacyEndpoint | None:
        """Open the HTTP+SSE stream once; later calls get the same one (or None)."""
        with self._fallback_lock:
            if self._legacy is None and not self._era_known:
                self._era_known = True
                self._legacy = LegacyEndpoint.connect(
                    self.client,
                    self.url,
                    self.sink,
                    max_bytes=self.max_bytes,
                    host=self.host,
                    log=self.log,
                )
            return self._legacy

    # -- the end ------------------------------------------------------------------------

    def close(self, grace: float) -> None:
        """Let requests in flight finish for up to `grace` seconds, then end the session (DELETE)."""
        deadline = time.monotonic() + grace
        with self._idle:
            while self._busy and time.monotonic() < deadline:
                self._idle.wait(deadline - time.monotonic())
        self._closed.set()
        with self._streams_lock:
            open_streams = list(self._streams.values())
        for response in open_streams:
            hang_up(response)
        if self._legacy is not None:
            self._legacy.close()
        elif self.session_id:
            try:
                self.client.delete(self.url, headers=self._headers(None), timeout=5.0)
            except Exception as exc:
                self.log(f"could not end the session: {from_http_error(exc, self.host).sentence}")
        self._workers.shutdown(wait=False, cancel_futures=True)


def _is_jsonrpc(body: bytes) -> bool:
    try:
        message = json.loads(body)
    except ValueError:
        return False
    return isinstance(message, (dict, list)) and bool(message)


def _modern_error(body: bytes) -> bool:
    try:
        message = json.loads(body)
    except ValueError:
        return False
    error = message.get("error") if isinstance(message, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return not isinstance(code, (dict, list)) and code in _MODERN_ERRORS
