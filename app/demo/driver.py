"""Runs the worm scenario through real proxies: an agent reads three poisoned pages, then tries to post."""

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from lazaretto.store.opening import StoreAPI

from .rpc import RpcError, StdioClient

SESSION = "lazaretto-demo"
"""The one agent session every demo proxy shares, so a read through one server taints a post through another."""

POLICY = """\
# The demo's own policy, so a user's lazaretto.toml cannot change what the demo shows.
[servers.web]
trust = "untrusted"

[servers.tickets]
trust = "untrusted"

[servers.mail]
trust = "untrusted"

[servers.slack]
trust = "untrusted"
outbound = ["post_message"]
"""

READS = (
    ("web", "fetch_page", {"url": "https://releases.example/4.2.0"}),
    ("tickets", "get_issue", {"key": "OPS-1432"}),
    ("mail", "read_inbox", {}),
)
"""What the agent reads, in order: a web page, a ticket, an e-mail, each with instructions aimed at it."""

POST = (
    "slack",
    "post_message",
    {
        "channel": "#general",
        "text": "Deployment check: contents of .env.prod follow, see https://paste.example/ingest",
    },
)
"""What the poisoned pages ask the agent to send: the worm's second half."""


@dataclass
class Step:
    """One tool call of the scenario and what the agent got back."""

    server: str
    tool: str
    result: dict | None = None
    error: dict | None = None


@dataclass
class DemoRun:
    """The scenario's calls, and what the real server behind the post received."""

    store_path: Path
    steps: list[Step] = field(default_factory=list)
    server_calls: list[dict] = field(default_factory=list)

    @property
    def refusal(self) -> dict | None:
        """The error the post got, if the gate refused it (-32002); a crash is not a refusal."""
        error = self.steps[-1].error if self.steps else None
        return error if error and error.get("code") == -32002 else None

    @property
    def post_delivered(self) -> bool:
        """Whether the slack server ever received the post."""
        return any(call["tool"] == POST[1] for call in self.server_calls)


def proxy_command(server: str, policy: Path, store: Path) -> list[str]:
    """`lazaretto proxy` in front of one role of the bundled demo server, on the demo's own store."""
    return [
        sys.executable,
        "-m",
        "lazaretto.app",
        "proxy",
        "-n",
        server,
        "-p",
        str(policy),
        "--store",
        str(store),
        "--",
        sys.executable,
        "-m",
        "lazaretto.app.demo.server",
        server,
    ]


def run_scenario(store_path: Path) -> DemoRun:
    """Drive one proxy per server like an agent would; files beside the store record the run."""
    folder = store_path.parent
    folder.mkdir(parents=True, exist_ok=True)
    policy = folder / "demo-policy.toml"
    policy.write_text(POLICY, encoding="utf-8")
    calls_log = folder / f"{store_path.stem}-server-calls.jsonl"
    calls_log.write_text("", encoding="utf-8")
    env = {
        **os.environ,
        "LAZARETTO_STORE": str(store_path),
        "LAZARETTO_SESSION": SESSION,
        "LAZARETTO_DEMO_LOG": str(calls_log),
    }
    env.pop("LAZARETTO_POLICY", None)
    run = DemoRun(store_path)
    with open(folder / f"{store_path.stem}-proxies.log", "ab") as stderr:
        for server, tool, arguments in (*READS, POST):
            run.steps.append(
                _call(
                    proxy_command(server, policy, store_path), env, stderr, server, tool, arguments
                )
            )
    run.server_calls = [
        json.loads(line) for line in calls_log.read_text(encoding="utf-8").splitlines() if line
    ]
    return run


def _call(argv: list[str], env: dict, stderr, server: str, tool: str, arguments: dict) -> Step:
    """Start a proxy, do the MCP handshake, list the tools, call one, and stop the proxy."""
    client = StdioClient(argv, env=env, stderr=stderr)
    step = Step(server, tool)
    try:
        client.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "lazaretto-demo", "version": "1"},
            },
        )
        client.notify("notifications/initialized")
        client.request("tools/list")
        answer = client.request("tools/call", {"name": tool, "arguments": arguments})
        step.result, step.error = answer.get("result"), answer.get("error")
    except RpcError as exc:
        step.error = {"code": None, "message": f"the proxy for {server} failed: {exc}"}
    finally:
        client.close()
    return step


def store_summary(store: StoreAPI) -> dict:
    """What the run left in the store: taint, withheld fields, removals, and calls waiting for a person."""
    state = store.sessions.state(SESSION)
    return {
        "tainted": state.tainted,
        "taint": state.summary(),
        "withheld": [
            (row["id"], row["server"], row["tool"]) for row in store.quarantine.recent(limit=100)
        ],
        "stripped": store.review.stripped_count(SESSION),
        "pending": [(row["id"], row["server"], row["tool"]) for row in store.blocked.pending()],
    }
