"""The stdio relay: the server as a child process, one thread per direction, clean shutdown.

Threads rather than asyncio: each direction is a blocking readline in C with the GIL
released, which keeps the added latency per message small, and store calls may block.
"""

import subprocess
import sys
import threading
from typing import IO, BinaryIO

from ..mediator.router import Mediator, Outgoing
from .client_link import DEFAULT_MAX_LINE, ClientLink
from .whole_writes import flush_whole, write_whole

# The buffer of each pipe to the server: as much as a Linux pipe holds, so a long line is read in
# a sixteenth of the calls the default buffer of 8 KiB takes (128 for 1 MiB).
PIPE_BUFFER = 1 << 16


class Relay(ClientLink):
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
        super().__init__(
            mediator,
            max_line=max_line,
            request_timeout=request_timeout,
            client_in=client_in,
            client_out=client_out,
        )
        self.command = command
        self.grace = grace
        self._server_lock = threading.Lock()
        self._stopping = threading.Event()
        # Set by run() before any thread starts: the server and its two pipes.
        self.process: subprocess.Popen[bytes]
        self._server_in: IO[bytes]
        self._server_out: IO[bytes]

    def run(self) -> int:
        """Start the server, relay until its output ends, and return its exit code (128 + the
        signal's number when a signal stopped the relay)."""
        try:
            # stderr is inherited: the server's logs reach the client untouched.
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=PIPE_BUFFER
            )
        except OSError as exc:
            print(f"lazaretto: cannot start {self.command[0]!r}: {exc}", file=sys.stderr)
            return 127 if isinstance(exc, FileNotFoundError) else 126
        assert self.process.stdin is not None and self.process.stdout is not None  # both pipes
        self._server_in, self._server_out = self.process.stdin, self.process.stdout
        self._install_signal_handlers()
        client = threading.Thread(target=self._client_loop, name="client->server", daemon=True)
        client.start()
        self._start_timeouts()
        self._server_loop()
        self._server_finished()
        code = self._reap()
        self._send_client(self.mediator.server_gone(code))
        return self._exit_status(code)

    def _server_loop(self) -> None:
        for line in self._lines(self._server_out, "server"):
            # The mediator takes the line out of its list: it may set a large one aside while scanning.
            out = line if isinstance(line, Outgoing) else self.mediator.from_server(line)
            self._send_client(out)
            self._send_server(out.to_server)
            del line, out  # as in the client loop: one large line in memory at a time

    def _send_server(self, lines: list[bytes]) -> None:
        if not lines:
            return
        with self._server_lock:
            try:
                for line in lines:
                    write_whole(self._server_in, line)
                flush_whole(self._server_in)
            except (BrokenPipeError, OSError, ValueError):
                pass  # the server's exit is noticed by the server loop

    # -- shutdown -----------------------------------------------------------------------

    def _client_closed(self) -> None:
        self._close_server_stdin()
        self._stop_server_after_grace()

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

    def _signalled(self, signum: int) -> None:
        # Pass the signal on, so the server shuts down the way it would have without us.
        try:
            self.process.send_signal(signum)
        except OSError:
            pass
