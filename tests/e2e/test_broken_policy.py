"""A proxy whose policy cannot be used fails closed where the person sees it: the official SDK
client, starting it as a client starts an MCP server, gets `initialize` answered with an error
naming the file, line and key and what to do; the server is never started."""

import asyncio
import subprocess
import sys
from datetime import timedelta

import pytest
from mcp import ClientSession, McpError, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import ErrorData
from support.proxy_harness import DEMO_SERVER, server_calls

from lazaretto.proxy.mcp.jsonrpc import NOT_STARTED


async def _initialize(command: list[str], env: dict) -> McpError | None:
    """The error the SDK client raised while initializing (None: it initialized)."""
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    try:
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write, read_timeout_seconds=timedelta(seconds=20)) as session,
        ):
            await session.initialize()
    except BaseException as caught:  # the SDK wraps it in task-group exception groups
        return _mcp_error(caught)
    return None


def _mcp_error(caught: BaseException) -> McpError:
    while isinstance(caught, BaseExceptionGroup):
        [caught] = caught.exceptions
    assert isinstance(caught, McpError), caught
    return caught


def started_by_the_sdk(env: dict, policy, name: str = "slack") -> tuple[ErrorData, dict]:
    """The error the SDK client got for `initialize` from a proxy reading `policy`, and its data."""
    command = [sys.executable, "-m", "lazaretto.app", "proxy", "-p", str(policy), "-n", name]
    raised = asyncio.run(_initialize([*command, "--", *DEMO_SERVER, name], env))
    assert raised is not None, "the proxy started under a broken policy"
    assert not server_calls(env)  # the server never ran, so it never saw a call
    data = raised.error.data
    assert isinstance(data, dict)
    return raised.error, data


@pytest.mark.parametrize(
    ("name", "text", "line", "says"),
    [
        (
            "lazaretto.toml",
            '[servers.slack]\ntrust = "untrusted"\noutbond = ["post_message"]\n',
            "line 3",
            "unknown key `outbond` in `servers.slack`: did you mean `outbound`?",
        ),
        (
            "lazaretto.toml",
            '[servers.slack]\ntrust = "untrustd"\n',
            "line 2",
            '`servers.slack.trust` must be "trusted" or "untrusted", not "untrustd"',
        ),
        (
            "lazaretto.toml",
            '[servers.slack\ntrust = "untrusted"\n',
            "line 1, column 15",
            "not valid TOML",
        ),
        (
            "gate.json",
            '{"servers": {"slack": {"untrusted": ["read_channel"], "outbond": ["post"]}}}',
            "line 1, column 55",
            "unknown key `outbond` in `servers.slack`",
        ),
    ],
)
def test_the_sdk_client_is_told_why_the_proxy_did_not_start(
    proxy_env, tmp_path, name, text, line, says
):
    policy = tmp_path / name
    policy.write_text(text)
    error, data = started_by_the_sdk(proxy_env, policy)
    assert error.code == NOT_STARTED
    assert error.message.startswith(
        "lazaretto proxy did not start slack: its policy cannot be used"
    )
    assert f"{policy}, {line}: " in error.message and says in error.message
    assert error.message.endswith(f"check it again with: lazaretto policy check {policy}")
    assert data["reason"] == "policy_error" and data["policy"] == str(policy)
    assert says in data["problems"][0]["message"]


def test_a_lock_file_that_cannot_be_used_is_said_the_same_way(proxy_env, tmp_path):
    policy = tmp_path / "lazaretto.toml"
    policy.write_text('[servers.slack]\ntrust = "untrusted"\nlock = "missing.lock.json"\n')
    error, data = started_by_the_sdk(proxy_env, policy)
    assert error.code == NOT_STARTED and data["reason"] == "policy_error"
    assert "servers.slack.lock" in error.message and "lazaretto pin export" in error.message
    assert data["lock"] == str(tmp_path / "missing.lock.json")


def test_a_broken_policy_started_by_hand_says_why_and_exits(lazaretto_cmd, proxy_env, tmp_path):
    policy = tmp_path / "lazaretto.toml"
    policy.write_text("colour = 'red'\n")
    done = subprocess.run(
        [*lazaretto_cmd, "proxy", "-p", str(policy), "-n", "slack", "--", *DEMO_SERVER, "slack"],
        input="",
        capture_output=True,
        text=True,
        env=proxy_env,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""  # no request came, so none is answered
    # Said on stderr too, where a client's log keeps it.
    assert f"{policy}, line 1: unknown key `colour` at the top level" in done.stderr
