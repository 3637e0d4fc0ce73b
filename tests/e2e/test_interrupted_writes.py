"""A write to the client that a signal interrupts still delivers the whole message.

With `PYTHONUNBUFFERED=1` the proxy's stdout is the raw pipe: a stop and continue (a debugger or
profiler attaching, job control) makes a blocked write return after part of a large line. The
client must still read that line whole, and every line after it.
"""

import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest
from support.proxy_harness import SCRIPTED_SERVER

SIZE = 2 * 1024 * 1024


class Client:
    """The proxy's client, reading its stdout only when asked (so the proxy's writes block)."""

    def __init__(self, env: dict) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "lazaretto.app",
                "proxy",
                "-n",
                "scripted",
                "--",
                *SCRIPTED_SERVER,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        self.buffer = b""

    def send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def read_some(self, size: int, timeout: float = 20) -> None:
        """Read until at least `size` bytes are buffered."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while len(self.buffer) < size:
            ready, _, _ = select.select([self.proc.stdout], [], [], deadline - time.monotonic())
            if not ready:
                return
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                return
            self.buffer += chunk

    def line(self, timeout: float = 20) -> bytes:
        """The next whole line; fails the test when the proxy never ends it."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer and time.monotonic() < deadline:
            self.read_some(len(self.buffer) + 1, deadline - time.monotonic())
        line, newline, self.buffer = self.buffer.partition(b"\n")
        assert newline, f"the proxy stopped after {len(line)} bytes of a line"
        return line


@pytest.mark.parametrize("trust", ["trusted", "untrusted"])
def test_a_large_result_interrupted_mid_write_reaches_the_client_whole(proxy_env, tmp_path, trust):
    policy = tmp_path / "scripted.toml"
    policy.write_text(f'[servers.scripted]\ntrust = "{trust}"\n')
    client = Client({**proxy_env, "LAZARETTO_POLICY": str(policy), "PYTHONUNBUFFERED": "1"})
    try:
        client.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}})
        json.loads(client.line())
        for request_id in (1, 2):
            client.send(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "method": "tools/call",
                    "params": {"name": "prose", "arguments": {"bytes": SIZE}},
                }
            )
            # The proxy has begun the line and is blocked writing the rest into the full pipe.
            client.read_some(1 << 16)
            assert client.buffer, "the proxy wrote nothing of the result"
            for _ in range(3):
                client.proc.send_signal(signal.SIGSTOP)
                time.sleep(0.05)
                client.proc.send_signal(signal.SIGCONT)
                time.sleep(0.05)
                client.read_some(len(client.buffer) + 1)
            reply = json.loads(client.line())
            assert reply["id"] == request_id
            assert len(reply["result"]["content"][0]["text"]) == SIZE
    finally:
        client.proc.kill()
        client.proc.wait()
