"""The agent client's half of every relay: its lines to the mediator, the mediator's answers back.

The server's half (a child process over stdio, or a remote server over HTTP) is a subclass's; both
hand every message to the same Mediator, so what is judged does not depend on the transport.
"""

import signal
import sys
import threading
from typing import IO, BinaryIO

from ..mediator.router import Mediator, Outgoing
from .whole_writes import flush_whole, write_whole

DEFAULT_MAX_LINE = 64 * 1024 * 1024
_CHUNK = 1024 * 1024


class ClientLink:
    """Reads the client's lines, has the mediator judge them and writes its answers to the client."""

    def __init__(
        self,
        mediator: Mediator,
        *,
        max_line: int = DEFAULT_MAX_LINE,
        request_timeout: float | None = None,
        client_in: BinaryIO | None = None,
        client_out: BinaryIO | None = None,
    ) -> None:
        self.mediator = mediator
        self.max_line = max_line
        self.request_timeout = request_timeout
        self.client_in = client_in or sys.stdin.buffer
        self.client_out = client_out or sys.stdout.buffer
        self._client_lock = threading.Lock()
        self._server_done = threading.Event()
        self._expiry_lock = threading.Lock()
        self._stopped_by: int | None = None  # the signal that stopped the relay, if one did

    # -- the server's half ------------------------------------------------------------------

    def _send_server(self, lines: list[bytes]) -> None:
        """Pass lines the mediator let through on to the server."""
        raise NotImplementedError

    def _client_closed(self) -> None:
        """The client's input ended, or its output broke: wind the server side down."""
        raise NotImplementedError

    def _signalled(self, signum: int) -> None:
        """A signal stops the relay: the server's half passes it on where it can (default: no)."""

    # -- signals ----------------------------------------------------------------------------

    def _install_signal_handlers(self) -> None:
        """SIGTERM, SIGINT and SIGHUP wind the relay down as the client leaving does."""
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)):
            if signum is not None:
                signal.signal(signum, self._on_signal)

    def _on_signal(self, signum: int, _frame) -> None:
        self._stopped_by = signum
        self._signalled(signum)
        # On a thread of its own: the code this handler interrupted may hold a lock that winding
        # down takes (the main thread writing to the server holds the server's).
        threading.Thread(target=self._client_closed, name="signal", daemon=True).start()

    def _exit_status(self, code: int) -> int:
        """What the relay exits with: 128 + the signal's number when one stopped it, as a process
        the signal ended (whether the server died of it, ignored it or exited on its own), else
        `code`."""
        return code if self._stopped_by is None else 128 + self._stopped_by

    # -- the client's half ------------------------------------------------------------------

    def _client_loop(self) -> None:
        try:
            for line in self._lines(self.client_in, "client"):
                if isinstance(line, Outgoing):
                    self._send_client(line)
                    continue
                out = self.mediator.from_client(line.pop())
                self._send_client(out)
                self._send_server(out.to_server)
                # The output may not stay alive while the next line is read.
                del out
        finally:
            self._client_closed()

    def _start_timeouts(self) -> None:
        if self.request_timeout:
            threading.Thread(target=self._watch_timeouts, name="timeouts", daemon=True).start()

    def _watch_timeouts(self) -> None:
        timeout = self.request_timeout
        if not timeout:
            return
        # A quarter of the limit between checks: a request is answered within 1.25x its limit.
        interval = min(timeout / 4, 1.0)
        while not self._server_done.wait(interval):
            with self._expiry_lock:
                if self._server_done.is_set():
                    return
                out = self.mediator.expire(timeout)
                self._send_client(out)
                self._send_server(out.to_server)

    def _server_finished(self) -> None:
        """From here on no timeout answers a request: the caller answers every one left."""
        self._server_done.set()
        with self._expiry_lock:
            pass

    def _lines(self, stream: IO[bytes], direction: str):
        """Yield each complete line in a one-element list the consumer empties (so nothing here keeps
        it alive); a line over the limit is skipped and an Outgoing explains it."""
        while True:
            try:
                line = stream.readline(self.max_line + 1)
            except (OSError, ValueError):
                return
            if not line:
                return
            if len(line) > self.max_line and not line.endswith(b"\n"):
                # Keep only the head (for the request id) while the rest is skipped.
                head, size, line = line[:4096], len(line), None
                size += self._discard_rest(stream)
                yield self.mediator.oversized(direction, head, size, self.max_line)
                continue
            if not line.isspace():  # a blank line is skipped (strip() would copy every line)
                handed, line = [line if line.endswith(b"\n") else line + b"\n"], None
                yield handed

    @staticmethod
    def _discard_rest(stream: IO[bytes]) -> int:
        skipped = 0
        while True:
            chunk = stream.readline(_CHUNK)
            skipped += len(chunk)
            if not chunk or chunk.endswith(b"\n"):
                return skipped

    def _send_client(self, out: Outgoing) -> None:
        if not out.to_client:
            return
        with self._client_lock:
            try:
                for line in out.to_client:
                    write_whole(self.client_out, line)
                flush_whole(self.client_out)
            except (BrokenPipeError, OSError, ValueError):
                # The client is gone: nobody is left to serve.
                self._client_closed()
                return
        self.mediator.answered()
