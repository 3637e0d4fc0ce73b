"""Which answer belongs to which request, in both directions, each request answered exactly once."""

import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..mcp.envelope import request_key, response_keys
from ..mcp.jsonrpc import dump_line

if TYPE_CHECKING:
    from .pin_checks import CallHold

LISTING = "tools/list"

# Server requests passed to the client and not yet answered; past this many, the oldest is
# forgotten (its late answer is dropped), so a server that never hears back cannot grow the map.
SERVER_REQUESTS_KEPT = 4096


@dataclass(slots=True)  # not frozen: a frozen init costs a microsecond on every call
class Pending:
    """A client request waiting for the server's answer."""

    request_id: Any
    method: str
    tool: str | None = None
    first_page: bool = True  # a list request without a cursor
    own: bool = False  # sent by the proxy itself (a pin re-check), not by the client
    sent_at: float = field(default_factory=time.monotonic)


class Correlation:
    """The requests waiting for an answer: the client's (and the proxy's own) at the server, and
    the server's at the client, matched by id the way clients match them."""

    def __init__(self, hold: "CallHold | None" = None) -> None:
        # Told when a tools/list goes out and when it is answered (or given up on), if given.
        self._hold = hold
        self.pending: dict[int | str, Pending] = {}  # client requests, by envelope.request_key
        # A request is answered exactly once: by the server or by a timeout, whichever pops it
        # first under this lock; the ids answered by a timeout drop the server's late reply.
        self._lock = threading.Lock()
        self._timed_out: set[int | str] = set()
        # The server's requests the client was shown and has not answered: key -> method.
        self._server_requests: dict[int | str, str] = {}
        self._own_requests = 0

    # -- the client's requests, at the server ------------------------------------------------

    def waiting(self, request_id: Any) -> bool:
        """Whether a request the client (or the proxy) sent is still unanswered."""
        return request_key(request_id) in self.pending

    def expect(self, key: int | str, pending: Pending) -> None:
        """Remember a request passed to the server, under its `request_key`."""
        self.pending[key] = pending
        self._sent(pending)

    def own_request(self, method: str) -> bytes:
        """A request of the proxy's own; its answer is screened and never reaches the client."""
        while True:
            self._own_requests += 1
            request_id = f"lazaretto-{self._own_requests}"
            if request_id not in self.pending:  # a string no number spells is its own key
                break
        self.pending[request_id] = pending = Pending(request_id, method, own=True)
        self._sent(pending)
        return dump_line({"jsonrpc": "2.0", "id": request_id, "method": method})

    def answered(self, response_id: Any) -> Pending | None:
        """The request a server response answers, taken out; None when none waits for it."""
        pending = self._pop(self.pending, response_id)
        self._gone(pending)
        return pending

    def timed_out(self, response_id: Any) -> bool:
        """Whether `response_id` answers a request a timeout answered already (asked once)."""
        with self._lock:
            late = next((key for key in response_keys(response_id) if key in self._timed_out), None)
            if late is not None:
                self._timed_out.discard(late)
        return late is not None

    def take(self, request_id: Any) -> Pending | None:
        """The request with exactly this id, taken out (the transport failed to bring its answer)."""
        with self._lock:
            key = request_key(request_id)
            pending = self.pending.pop(key, None) if key is not None else None
        self._gone(pending)
        return pending

    def expired(self, timeout: float, now: float) -> list[Pending]:
        """Every request older than `timeout` seconds, taken out; their late answers are dropped."""
        gone = []
        for key, pending in list(self.pending.items()):
            if now - pending.sent_at < timeout:
                continue
            with self._lock:
                if self.pending.pop(key, None) is None:
                    continue  # answered meanwhile
                self._timed_out.add(key)
            self._gone(pending)
            gone.append(pending)
        return gone

    def drain(self) -> list[Pending]:
        """Every waiting request, taken out (the server is gone)."""
        waiting = list(self.pending.values())
        self.pending.clear()
        for pending in waiting:
            self._gone(pending)
        return waiting

    def _sent(self, pending: Pending) -> None:
        if self._hold is not None and pending.method == LISTING:
            self._hold.started()

    def _gone(self, pending: Pending | None) -> None:
        if self._hold is not None and pending is not None and pending.method == LISTING:
            self._hold.ended()

    # -- the server's requests, at the client ------------------------------------------------

    def server_waits(self, request_id: Any) -> bool:
        """Whether a server request reuses the id of one the client has yet to answer."""
        with self._lock:
            return any(key in self._server_requests for key in response_keys(request_id))

    def await_client(self, request_id: Any, method: str) -> None:
        """Remember a server request passed to the client, for its answer."""
        key = request_key(request_id)
        assert key is not None  # shape_of accepted the id
        with self._lock:
            if len(self._server_requests) >= SERVER_REQUESTS_KEPT:
                self._server_requests.pop(next(iter(self._server_requests)))
            self._server_requests[key] = method

    def client_answered(self, response_id: Any) -> str | None:
        """The method of the server request a client answer answers, taken out; else None."""
        return self._pop(self._server_requests, response_id)

    def _pop(self, waiting: dict, response_id: Any) -> Any:
        """What `waiting` holds under the first key a client would match `response_id` to,
        taken out (one answer each, whoever pops it first); None when nothing matches."""
        with self._lock:
            # The most exact key first, on its own: most answers carry the very id of their request.
            exact = request_key(response_id)
            found = None if exact is None else waiting.pop(exact, None)
            if found is not None:
                return found
            for key in response_keys(response_id)[1:]:
                found = waiting.pop(key, None)
                if found is not None:
                    return found
        return None
