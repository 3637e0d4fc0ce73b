"""The official MCP client SDKs (Python and TypeScript) as the end-to-end tests' agents.

`run_client(kind, command, env, requests)` spawns `command` over stdio with the SDK's own
transport, initializes, makes each request in turn and returns one outcome per request:
`{"result": {...}}` or `{"error": {"code", "message"}}` (a request the client never saw answered
times out into an error). Whatever the SDK accepts is what a real agent would have read.
"""

import asyncio
import json
import os
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, McpError, StdioServerParameters, types
from mcp.client.stdio import stdio_client

TS_CLIENT = Path(__file__).resolve().parent.parent / "e2e" / "ts_client.mjs"
TS_SDK = Path(__file__).resolve().parent.parent / "node_modules" / "@modelcontextprotocol" / "sdk"
KINDS = ["python", "typescript"]
REQUEST_TIMEOUT = 5.0


def run_client(kind: str, command: list[str], env: dict, requests: list[dict]) -> list[dict]:
    """The outcome of each request, as the `kind` SDK client received it."""
    if kind == "python":
        return asyncio.run(_python(command, env, requests))
    return _typescript(command, env, requests)


async def _python(command: list[str], env: dict, requests: list[dict]) -> list[dict]:
    outcomes: list[dict] = []
    try:
        await _python_session(command, env, requests, outcomes)
    except* anyio.BrokenResourceError:
        # A line that arrives while the client shuts down has nowhere to go; it is not an outcome.
        if len(outcomes) < len(requests):
            raise
    return outcomes


async def _python_session(
    command: list[str], env: dict, requests: list[dict], outcomes: list[dict]
) -> None:
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    with open(os.devnull, "w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(
                read, write, read_timeout_seconds=timedelta(seconds=REQUEST_TIMEOUT)
            ) as session,
        ):
            await session.initialize()
            for request in requests:
                message = types.ClientRequest.model_validate(request)
                try:
                    result = await session.send_request(message, types.Result)
                except McpError as exc:
                    outcomes.append(
                        {"error": {"code": exc.error.code, "message": exc.error.message}}
                    )
                else:
                    outcomes.append({"result": result.model_dump(mode="json", exclude_none=True)})


def _typescript(command: list[str], env: dict, requests: list[dict]) -> list[dict]:
    if shutil.which("node") is None or not TS_SDK.exists():
        pytest.skip("the TypeScript SDK is installed by tests/install-npm-servers (needs node)")
    spec = {
        "command": command[0],
        "args": command[1:],
        "env": env,
        "requests": requests,
        "timeoutMs": int(REQUEST_TIMEOUT * 1000),
    }
    done = subprocess.run(
        ["node", str(TS_CLIENT), json.dumps(spec)],
        capture_output=True,
        text=True,
        timeout=60 + REQUEST_TIMEOUT * len(requests),
        cwd=TS_CLIENT.parent,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return [line for line in lines if "client_errors" not in line]
