"""Real proxies around real servers, spoken to in newline-delimited JSON-RPC, for end-to-end tests."""

import io
import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

DEMO_SERVER = [sys.executable, "-m", "lazaretto.app.demo.server"]
SCRIPTED_SERVER = [
    sys.executable,
    str(Path(__file__).resolve().parent.parent / "fixtures" / "scripted_server.py"),
]

WORM_POLICY = """
allow_hosts = ["github.com", "api.github.com"]
[servers.web]
trust = "untrusted"          # every result is exposure
[servers.slack]
untrusted = ["read_channel"]
outbound = ["post_message"]
"""


class ProxyProcess:
    """`lazaretto proxy ... -- CMD` as a child process, with line-level send and receive."""

    def __init__(
        self,
        args: list[str],
        env: dict,
        stdin=subprocess.PIPE,
        *,
        python: str = sys.executable,
        **popen,
    ) -> None:
        # `popen`: user, group, cwd... (the station's tests run proxies as another account).
        self.proc = subprocess.Popen(
            [python, "-m", "lazaretto.app", "proxy", *args],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            **popen,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr = bytearray()
        threading.Thread(
            target=self._pump, args=(self.proc.stdout, self.lines), daemon=True
        ).start()
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        self._next_id = 0
        self.notifications: list[dict] = []

    @staticmethod
    def _pump(stream, sink) -> None:
        for line in iter(stream.readline, b""):
            sink.put(line)
        sink.put(None)

    def _drain_stderr(self) -> None:
        stderr = self.proc.stderr
        assert isinstance(stderr, io.BufferedReader)  # a pipe, with Popen's default buffering
        for chunk in iter(lambda: stderr.read1(65536), b""):
            self.stderr.extend(chunk)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None, "this proxy was started with its stdin elsewhere"
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message) -> None:
        self.send_raw(json.dumps(message).encode() + b"\n")

    def recv_raw(self, timeout: float = 20) -> bytes | None:
        return self.lines.get(timeout=timeout)

    def recv(self, timeout: float = 20):
        line = self.recv_raw(timeout)
        assert line is not None, (
            f"proxy closed its output; stderr: {self.stderr.decode(errors='replace')}"
        )
        return json.loads(line)

    def request(self, method: str, params: dict | None = None, timeout: float = 20) -> dict:
        self._next_id += 1
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        while True:
            reply = self.recv(timeout)
            if "id" in reply or "method" not in reply:
                break
            self.notifications.append(reply)  # notifications may arrive before the answer
        assert reply.get("id") == self._next_id, reply
        return reply

    def initialize(self) -> dict:
        reply = self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def call(self, tool: str, arguments: dict | None = None) -> dict:
        return self.request("tools/call", {"name": tool, "arguments": arguments or {}})

    def close(self, timeout: float = 15) -> int:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        code = self.proc.wait(timeout)
        self._stderr_thread.join(timeout)  # everything the proxy logged is in self.stderr now
        return code


def server_calls(env: dict) -> list[dict]:
    """What the demo servers say they received."""
    path = Path(env["LAZARETTO_DEMO_LOG"])
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]
