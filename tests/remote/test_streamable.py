"""The official SDK's client through `lazaretto proxy --url` to the official SDK's server over HTTP.

Stateful and stateless, JSON bodies and SSE streams: the client sees what it sees directly, the
server's own requests and notifications on the streams arrive (judged), and a stream the server
cuts is resumed.
"""

import os
import sys

import anyio
import mcp.types as types
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from support.terminal import READ_TIMEOUT

MODES = {
    "stateful-sse": [],
    "stateful-json": ["--json"],
    "stateless-sse": ["--stateless"],
    "stateless-json": ["--stateless", "--json"],
}
TRUSTED_LAB = '[servers.lab]\ntrust = "trusted"\n'


def proxied(env: dict, url: str, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "lazaretto.app", "proxy", "-n", "lab", "--url", url, *extra],
        env=env,
    )


class Seen:
    """What the client's callbacks received."""

    def __init__(self) -> None:
        self.progress: list[tuple[float, str | None]] = []
        self.logs: list[types.LoggingMessageNotificationParams] = []
        self.questions: list[str] = []

    async def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.progress.append((progress, message))

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    async def on_elicit(self, context, params: types.ElicitRequestParams):
        self.questions.append(params.message)
        return types.ElicitResult(action="accept", content={"answer": "yes"})


async def survey(streams, seen: Seen, streaming: bool) -> dict:
    read, write = streams[0], streams[1]
    async with ClientSession(
        read, write, elicitation_callback=seen.on_elicit, logging_callback=seen.on_log
    ) as session:
        init = await session.initialize()
        out = {
            "server": init.serverInfo.name,
            "tools": sorted(tool.name for tool in (await session.list_tools()).tools),
            "echo": (await session.call_tool("echo", {"text": "hello"})).model_dump(),
            "progress": (
                await session.call_tool(
                    "progress", {"steps": 3}, progress_callback=seen.on_progress
                )
            ).model_dump(),
            "blob": (await session.call_tool("blob", {"size": 200_000})).model_dump(),
        }
        if streaming:
            # Only a stateful server that answers with SSE can send its own requests and notices.
            out["ask"] = (await session.call_tool("ask", {"question": "Go on?"})).model_dump()
            out["notice"] = (await session.call_tool("notice", {"text": "heads up"})).model_dump()
            out["reconnect"] = (await session.call_tool("reconnect", {"text": "x"})).model_dump()
            with anyio.fail_after(READ_TIMEOUT):  # bounds a hang: the notice is awaited
                while not seen.logs:
                    await anyio.sleep(0.05)
        return out


async def direct(url: str, seen: Seen, streaming: bool) -> dict:
    async with streamable_http_client(url) as streams:
        return await survey(streams, seen, streaming)


async def through(params: StdioServerParameters, seen: Seen, streaming: bool) -> dict:
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as streams:
            return await survey(streams, seen, streaming)


@pytest.mark.parametrize("mode", MODES)
def test_the_sdk_client_sees_the_same_server_through_the_proxy(
    mode, sdk_server, proxy_env, tmp_path
):
    policy = tmp_path / "trusted.toml"
    policy.write_text(TRUSTED_LAB)
    env = {**proxy_env, "LAZARETTO_POLICY": str(policy)}
    url = sdk_server("lab", *MODES[mode])
    streaming = mode == "stateful-sse"
    alone, proxied_seen = Seen(), Seen()
    expected = anyio.run(direct, url, alone, streaming)
    got = anyio.run(through, proxied(env, url), proxied_seen, streaming)
    assert got == expected
    assert got["echo"]["content"][0]["text"] == "hello"
    assert len(got["blob"]["content"][0]["text"]) == 200_000
    if streaming:
        # Progress on the request's stream, a question back to the client on it, a notice on the
        # GET stream, and a stream the server cut mid-call, resumed from its last event id.
        assert proxied_seen.progress == alone.progress and len(alone.progress) == 3
        assert proxied_seen.questions == ["Go on?"]
        assert "accept: yes" in str(got["ask"])
        assert [log.data for log in proxied_seen.logs] == ["heads up"]
        assert "after the cut: x" in str(got["reconnect"])


def test_an_untrusted_remote_result_is_cleaned_and_taints(sdk_server, proxy_env, store):
    url = sdk_server("web")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "lazaretto.app", "proxy", "-n", "web", "--url", url],
        env=proxy_env,
    )

    async def read_page():
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await session.call_tool("fetch_page", {"url": "https://github.com/acme"})

    page = anyio.run(read_page)
    block = page.content[0]
    assert isinstance(block, types.TextContent)
    text = block.text
    assert "lazaretto: withheld" in text
    assert store.sessions.state("test-session").tainted
    assert store.sessions.state("test-session").reasons[0]["server"] == "web"
