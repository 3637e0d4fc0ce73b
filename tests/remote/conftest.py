"""Fixtures for the remote tests: real HTTP servers on 127.0.0.1 and proxies in front of them."""

import subprocess
import sys
from pathlib import Path

import pytest
from support.scripted_http import ScriptedHTTP

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
HTTP_SERVER = [sys.executable, str(FIXTURES / "http_server.py")]


@pytest.fixture
def sdk_server(proxy_env):
    """Start the SDK's server (`http_server.py ROLE FLAGS...`); returns its URL."""
    started: list[subprocess.Popen] = []

    def start(*args: str, env: dict | None = None) -> str:
        proc = subprocess.Popen(
            [*HTTP_SERVER, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env or proxy_env,
            text=True,
        )
        started.append(proc)
        assert proc.stdout is not None  # a pipe
        url = proc.stdout.readline().strip()
        assert url.startswith("http"), "the test server did not start"
        return url

    yield start
    for proc in started:
        proc.kill()
        proc.wait()


@pytest.fixture
def scripted():
    """Start a scripted HTTP server (see fixtures/scripted_http.py); closed after the test."""
    started: list[ScriptedHTTP] = []

    def start(respond, tls=None) -> ScriptedHTTP:
        server = ScriptedHTTP(respond, tls)
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()
