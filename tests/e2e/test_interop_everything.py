"""Transparency: the official MCP Python SDK sees the same server through the proxy as without it."""

import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

EVERYTHING = (
    Path(__file__).resolve().parent.parent / "node_modules" / ".bin" / "mcp-server-everything"
)

pytestmark = [
    pytest.mark.npm,
    pytest.mark.skipif(
        not EVERYTHING.exists(), reason="run tests/install-npm-servers (done by .ci/run)"
    ),
]


async def survey(params: StdioServerParameters) -> dict:
    """Everything a client reads from the server, as plain data."""
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            tools = await session.list_tools()
            prompts = await session.list_prompts()
            resources = await session.list_resources()
            templates = await session.list_resource_templates()
            first = resources.resources[0]
            return {
                "tools": tools.model_dump(),
                "prompts": prompts.model_dump(),
                "resources": resources.model_dump(),
                "templates": templates.model_dump(),
                "read": (await session.read_resource(first.uri)).model_dump(),
                "prompt": (await session.get_prompt("simple-prompt")).model_dump(),
                "echo": (
                    await session.call_tool("echo", {"message": "hello through the gate"})
                ).model_dump(),
                "sum": (await session.call_tool("get-sum", {"a": 2, "b": 40})).model_dump(),
            }


def proxied(env: dict, *proxy_args: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "lazaretto.app", "proxy", *proxy_args, "--", str(EVERYTHING), "stdio"],
        env=env,
    )


@pytest.mark.parametrize("trust", ["trusted", "untrusted"])
def test_sdk_sees_the_same_server(tmp_path, proxy_env, trust):
    policy = tmp_path / f"{trust}.toml"
    policy.write_text(f'[servers.everything]\ntrust = "{trust}"\n')
    env = {**proxy_env, "LAZARETTO_POLICY": str(policy)}
    direct = anyio.run(
        survey, StdioServerParameters(command=str(EVERYTHING), args=["stdio"], env=env)
    )
    through = anyio.run(survey, proxied(env, "-n", "everything"))
    for key in direct:
        assert through[key] == direct[key], key
    assert "42" in str(through["sum"])
