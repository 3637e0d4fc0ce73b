"""Transparency against the npm reference server in its HTTP modes: the official SDK client sees
the same tools, prompts and resources directly and through `lazaretto proxy --url`, over
Streamable HTTP and over the older HTTP+SSE transport (the proxy's fallback)."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

EVERYTHING = (
    Path(__file__).resolve().parent.parent / "node_modules" / ".bin" / "mcp-server-everything"
)

pytestmark = [
    pytest.mark.npm,
    pytest.mark.skipif(
        not EVERYTHING.exists(), reason="run tests/install-npm-servers (done by .ci/run)"
    ),
]


@pytest.fixture
def everything(proxy_env):
    """Start server-everything in an HTTP mode on a free local port; returns its base URL."""
    started = []

    def start(mode: str) -> str:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        proc = subprocess.Popen(
            [str(EVERYTHING), mode],
            env={**proxy_env, "PORT": str(port)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started.append(proc)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return f"http://127.0.0.1:{port}"
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"server-everything {mode} did not start")

    yield start
    for proc in started:
        proc.kill()
        proc.wait()


async def survey(read, write) -> dict:
    async with ClientSession(read, write) as session:
        await session.initialize()
        resources = await session.list_resources()
        return {
            "tools": (await session.list_tools()).model_dump(),
            "prompts": (await session.list_prompts()).model_dump(),
            "resources": resources.model_dump(),
            "templates": (await session.list_resource_templates()).model_dump(),
            "read": (await session.read_resource(resources.resources[0].uri)).model_dump(),
            "prompt": (await session.get_prompt("simple-prompt")).model_dump(),
            "echo": (await session.call_tool("echo", {"message": "hello"})).model_dump(),
            "sum": (await session.call_tool("get-sum", {"a": 2, "b": 40})).model_dump(),
        }


async def direct(url: str, legacy: bool) -> dict:
    transport = sse_client(url) if legacy else streamable_http_client(url)
    async with transport as streams:
        return await survey(streams[0], streams[1])


async def through(env: dict, url: str, *extra: str) -> dict:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "lazaretto.app", "proxy", "-n", "everything", "--url", url, *extra],
        env=env,
    )
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            return await survey(read, write)


@pytest.mark.parametrize(
    ("mode", "path", "extra"),
    [
        ("streamableHttp", "/mcp", ()),
        ("sse", "/sse", ()),  # found by the fallback
        ("sse", "/sse", ("--transport", "sse")),  # as `wrap` writes a `type: sse` entry
    ],
    ids=["streamable-http", "sse-by-fallback", "sse-named"],
)
@pytest.mark.parametrize("trust", ["trusted", "untrusted"])
def test_the_sdk_sees_the_same_remote_server(
    everything, tmp_path, proxy_env, mode, path, extra, trust
):
    policy = tmp_path / f"{trust}.toml"
    policy.write_text(f'[servers.everything]\ntrust = "{trust}"\n')
    env = {**proxy_env, "LAZARETTO_POLICY": str(policy)}
    url = everything(mode) + path
    expected = anyio.run(direct, url, mode == "sse")
    got = anyio.run(through, env, url, *extra)
    for key in expected:
        assert got[key] == expected[key], key
    assert "42" in str(got["sum"])
