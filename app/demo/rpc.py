"""A minimal MCP client over stdio: newline-delimited JSON-RPC to one child process."""

import json
import queue
import subprocess
import threading
from typing import IO, Any

REPLY_TIMEOUT = 30.0
"""Seconds to wait for one answer: the demo server answers at once, so a wait this long means it is stuck."""


class RpcError(RuntimeError):
    """The child went away or did not answer in time."""


class StdioClient:
    """Starts a command and exchanges JSON-RPC lines with it; a reader thread collects its answers."""

    def __init__(self, argv: list[str], *, env: dict[str, str], stderr: IO[bytes]) -> None:
        self._process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env
        )
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def notify(self, method: str, params: dict | None = None) -> None:
        """Send a notification (no answer expected)."""
        self._send(
            {
                "jsonrpc": "2.0",
                "method": method,
                **({"params": params} if params is not None else {}),
            }
        )

    def request(self, method: str, params: dict | None = None) -> dict:
        """Send a request and return the whole response message (with `result` or `error`)."""
        request_id = self._next_id
        self._next_id += 1
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}})
        while True:
            try:
                line = self._lines.get(timeout=REPLY_TIMEOUT)
            except queue.Empty:
                raise RpcError(f"no answer to {method} within {REPLY_TIMEOUT:g} seconds") from None
            if line is None:
                raise RpcError(f"the process exited before answering {method}")
            message: Any = json.loads(line)
            # Server notifications and requests are not what we wait for.
            if (
                isinstance(message, dict)
                and message.get("id") == request_id
                and "method" not in message
            ):
                return message

    def _send(self, message: dict) -> None:
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
            self._process.stdin.flush()
        except OSError as exc:
            raise RpcError(f"cannot write to the process: {exc}") from exc

    def close(self) -> int:
        """End input, wait for the child to exit, and return its exit code."""
        assert self._process.stdin is not None
        try:
            self._process.stdin.close()
        except OSError:
            pass
        try:
            return self._process.wait(timeout=REPLY_TIMEOUT)
        except subprocess.TimeoutExpired:
            self._process.kill()
            return self._process.wait()
