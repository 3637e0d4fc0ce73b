"""`lazaretto proxy --url`: the client on stdio, the server over HTTP, the same mediator in between."""

import threading
from typing import Any, BinaryIO

import httpx

from ...mediator.router import Mediator
from ...policy import Policy
from ..client_link import DEFAULT_MAX_LINE, ClientLink
from .connection import open_client
from .failures import Failure
from .options import RemoteOptions
from .streamable import StreamableHTTP


class RemoteRelay(ClientLink):
    """Relays between the client's stdio and a remote server until the client closes its input."""

    def __init__(
        self,
        url: str,
        client: httpx.Client,
        mediator: Mediator,
        *,
        host: str,
        legacy_first: bool = False,
        max_line: int = DEFAULT_MAX_LINE,
        grace: float = 2.0,
        request_timeout: float | None = None,
        client_in: BinaryIO | None = None,
        client_out: BinaryIO | None = None,
    ) -> None:
        super().__init__(
            mediator,
            max_line=max_line,
            request_timeout=request_timeout,
            client_in=client_in,
            client_out=client_out,
        )
        self.grace = grace
        # One server message at a time through the mediator, as from a stdio server's output;
        # re-entrant because the mediator's answer to it may be sent from the same thread.
        self._delivery_lock = threading.RLock()
        self._ended = threading.Event()
        self._exit_code = 0
        self.transport = StreamableHTTP(
            url,
            client,
            self,
            max_bytes=max_line,
            host=host,
            log=mediator.log,
            legacy_first=legacy_first,
        )

    def run(self) -> int:
        """Relay until the client's input ends (or the server is gone); return the exit code."""
        self._install_signal_handlers()
        threading.Thread(target=self._client_loop, name="client->server", daemon=True).start()
        self._start_timeouts()
        self._ended.wait()
        self.transport.close(self.grace)
        self._server_finished()
        self._send_client(
            self.mediator.server_gone(None if self._exit_code == 0 else self._exit_code)
        )
        return self._exit_status(self._exit_code)

    # -- the server's half, for ClientLink ------------------------------------------------

    def _send_server(self, lines: list[bytes]) -> None:
        for line in lines:
            self.transport.send(line)

    def _client_closed(self) -> None:
        self._ended.set()

    # -- the transport's sink -----------------------------------------------------------

    def deliver(self, handed: list[bytes]) -> None:
        """One whole message from the server, handed over: judged like a stdio server's line."""
        with self._delivery_lock:
            out = self.mediator.from_server(handed)
            self._send_client(out)
            self._send_server(out.to_server)

    def undelivered(self, request_id: Any, failure: Failure, sentence: str) -> None:
        """The answer to a request cannot arrive: the client gets an error saying why."""
        with self._delivery_lock:
            out = self.mediator.undelivered(request_id, sentence, str(failure))
            self._send_client(out)
            self._send_server(out.to_server)

    def oversized(self, head: bytes, size: int) -> None:
        """A message on the GET stream passed the limit; whoever waits for it is answered."""
        with self._delivery_lock:
            self._send_client(self.mediator.oversized("server", head, size, self.max_line))

    def waiting(self, request_id: Any) -> bool:
        """Whether the request is still unanswered."""
        return self.mediator.waiting(request_id)

    def ended(self, sentence: str) -> None:
        """The server went away for good: answer what waits and stop."""
        self.mediator.log(sentence)
        self._exit_code = 1
        self._ended.set()


def serve(options: RemoteOptions, mediator: Mediator, policy: Policy, server: str) -> int:
    """Run `lazaretto proxy --url` for one server; return the exit code."""
    auth = None
    if not options.has_credentials:
        from .bearer import StoredLogin
        from .logins import LoginStore

        auth = StoredLogin(LoginStore(server, options.url), server, options.host)
    client = open_client(options, auth)
    try:
        return RemoteRelay(
            options.url,
            client,
            mediator,
            host=options.host,
            legacy_first=options.legacy_sse,
            max_line=policy.max_line_bytes,
            request_timeout=policy.request_timeout_seconds,
        ).run()
    finally:
        client.close()
