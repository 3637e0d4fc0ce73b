"""The stdio relay: the server as a child process, one thread per direction, clean shutdown.

Threads rather than asyncio: each direction is a blocking readline in C with the GIL
released, which keeps the added latency per message small, and store calls may block.
"""

import signal
import subprocess
import sys
import threading
from typing import IO, BinaryIO

from .mediator import Mediator, Outgoing

DEFAULT_MAX_LINE = 64 * 1024 * 1024
_CHUNK = 1024 * 1024


class Relay:
    """Runs `command` as the MCP server and relays lines through a Mediator until it exits."""

    def __init__(
        self,
        command: list[str],
        mediator: Mediator,
        *,
        max_line: int = DEFAULT_MAX_LINE,
        grace: float = 2.0,
        request_timeout: float | None = None,
        client_in: BinaryIO | None = None,
        client_out: BinaryIO | None = None,
    ) -> None:
        self.command = command
        self.mediator = mediator
        self.max_line = max_line
        self.grace = grace
        self.request_timeout = request_timeout
        self.client_in = client_in or sys.stdin.buffer
        self.client_out = client_out or sys.stdout.buffer
        self._client_lock = threading.Lock()
        self._server_lock = threading.Lock()
        self._stopping = threading.Event()
        self._server_done = threading.Event()
        self._expiry_lock = threading.Lock()
        # Set by run() before any thread starts: the server and its two pipes.
        self.process: subprocess.Popen[bytes]
        self._server_in: IO[bytes]
        self._server_out: IO[bytes]

    def run(self) -> int:
        """Start the server, relay until its output ends, and return its exit code."""
        try:
            # stderr is inherited: the server's logs reach the client untouched.
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE
            )
        except OSError as exc:
            print(f"lazaretto: cannot start {self.command[0]!r}: {exc}", file=sys.stderr)
            return 127 if isinstance(exc, FileNotFoundError) else 126
        assert self.process.stdin is not None and self.process.stdout is not None  # both pipes
        self._server_in, self._server_out = self.process.stdin, self.process.stdout
        self._install_signal_handlers()
        client = threading.Thread(target=self._client_loop, name="client->server", daemon=True)
        client.start()
        if self.request_timeout:
            threading.Thread(
                target=self._watch_timeouts,
                args=(self.request_timeout,),
                name="timeouts",
                daemon=True,
            ).start()
        self._server_loop()
        # From here on no timeout answers a request: server_gone answers every one left.
        self._server_done.set()
        with self._expiry_lock:
            pass
        code = self._reap()
        self._send_client(self.mediator.server_gone(code))
        return code

    # -- directions ---------------------------------------------------------------------

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
            self._close_server_stdin()
            self._stop_server_after_grace()

    def _server_loop(self) -> None:
        for line in self._lines(self._server_out, "server"):
            # The mediator takes the line out of its list: it may set a large one aside while scanning.
            out = line if isinstance(line, Outgoing) else self.mediator.from_server(line)
            self._send_client(out)
            self._send_server(out.to_server)
            del line, out  # as in the client loop: one large line in memory at a time

    def _watch_timeouts(self, limit: float) -> None:
        # A quarter of the limit between checks: a request is answered within 1.25x its limit.
        interval = min(limit / 4, 1.0)
        while not self._server_done.wait(interval):
            with self._expiry_lock:
                if self._server_done.is_set():
                    return
                out = self.mediator.expire(limit)
                self._send_client(out)
                self._send_server(out.to_server)

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
            if line.strip():
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

    # -- writing ------------------------------------------------------------------------

    def _send_client(self, out: Outgoing) -> None:
        if not out.to_client:
            return
        with self._client_lock:
            try:
                for line in out.to_client:
                    self.client_out.write(line)
                self.client_out.flush()
            except (BrokenPipeError, OSError, ValueError):
                # The client is gone: nobody is left to serve.
                self._close_server_stdin()
                self._stop_server_after_grace()

    def _send_server(self, lines: list[bytes]) -> None:
        if not lines:
            return
        with self._server_lock:
            try:
                for line in lines:
                    self._server_in.write(line)
                self._server_in.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass  # the server's exit is noticed by the server loop

    # -- shutdown -----------------------------------------------------------------------

    def _close_server_stdin(self) -> None:
        with self._server_lock:
            try:
                self._server_in.close()
            except OSError:
                pass

    def _stop_server_after_grace(self) -> None:
        """Stdin closed; then SIGTERM after a grace period, then SIGKILL (in the background)."""
        if self._stopping.is_set():
            return
        self._stopping.set()
        threading.Thread(target=self._escalate, name="shutdown", daemon=True).start()

    def _escalate(self) -> None:
        for step in (None, self.process.terminate, self.process.kill):
            if step is not None:
                try:
                    step()
                except OSError:
                    return
            try:
                self.process.wait(self.grace)
                return
            except subprocess.TimeoutExpired:
                continue

    def _reap(self) -> int:
        # The server closed its output; it may still be running (or ignoring EOF).
        try:
            code = self.process.wait(self.grace * 3)
        except subprocess.TimeoutExpired:
            self._stop_server_after_grace()
            code = self.process.wait()
        return 128 - code if code < 0 else code

    def _install_signal_handlers(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return

        def stop(signum: int, _frame) -> None:
            # Pass the signal on, so the server shuts down the way it would have without us.
            try:
                self.process.send_signal(signum)
            except OSError:
                pass
            self._close_server_stdin()
            self._stop_server_after_grace()

        for signum in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)):
            if signum is not None:
                signal.signal(signum, stop)
