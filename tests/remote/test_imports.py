"""The stdio proxy and the hooks never import the HTTP, SSE, OAuth or keyring libraries."""

import json
import subprocess
import sys

from support.proxy_harness import SCRIPTED_SERVER

REMOTE_ONLY = (
    "httpx",
    "httpx_sse",
    "httpcore",
    "mcp",
    "keyring",
    "lazaretto.proxy.transport.remote",
)


def imported(stderr: str) -> set[str]:
    """Top-level names of the modules `python -X importtime` reported."""
    names = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def loaded_remote_modules(names: set[str]) -> set[str]:
    return {n for n in names if any(n == m or n.startswith(m + ".") for m in REMOTE_ONLY)}


def traced(
    args: list[str], stdin: bytes, env: dict
) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run `lazaretto ARGS` under `python -X importtime`; the process and what it imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "lazaretto.app", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=60,
    )
    return done, imported(done.stderr.decode())


def test_the_stdio_proxy_never_loads_the_remote_machinery(proxy_env):
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    done, names = traced(
        ["proxy", "-n", "s", "--", *SCRIPTED_SERVER],
        (json.dumps(request) + "\n").encode(),
        proxy_env,
    )
    assert b'"id":1' in done.stdout.replace(b" ", b"")
    assert "lazaretto.proxy.mediator.router" in names  # the listing is real
    assert loaded_remote_modules(names) == set()


def test_a_hook_never_loads_the_remote_machinery(proxy_env):
    event = {
        "session_id": "s",
        "cwd": "/tmp",
        "hook_event_name": "PreToolUse",
        "tool_name": "mcp__web__fetch_page",
        "tool_input": {"url": "https://github.com/"},
        "tool_use_id": "t",
    }
    done, names = traced(
        ["hook", "claude-code", "pre-tool-use"], json.dumps(event).encode(), proxy_env
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "lazaretto.proxy.hooks.common" in names  # the listing is real
    assert loaded_remote_modules(names) == set()
