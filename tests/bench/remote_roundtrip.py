"""tools/call round trips to a remote server: the official SDK client direct over HTTP, and the same
client through `lazaretto proxy --url`, side by side in one run.

Run as a plain script: `python tests/bench/remote_roundtrip.py [--calls N] [--rounds R] [--big BYTES]
[--json]`. The server is the SDK's own (tests/fixtures/http_server.py, role `lab`, stateful) on
127.0.0.1, answering with SSE streams (its default) or, with `--json`, JSON bodies. Two calls: a small echo, and a plain-prose text of `--big` bytes (1 MiB by default).
The client is the SDK's ClientSession: over `streamable_http_client` direct, over `stdio_client`
to the proxy with the server trusted or untrusted (-n names a policy entry of each). Sessions stay
open for the whole run; every configuration gets N calls of each kind spread over R rounds that
interleave the configurations. The table shows the median of the round medians, the p95 over all
calls (milliseconds) and the ratio to direct for the same call; the last line is one JSON object.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from docs_block import add_flag, write_docs
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

HERE = Path(__file__).resolve().parent
SERVER = [sys.executable, str(HERE.parent / "fixtures" / "http_server.py"), "lab"]
PATHS = ("direct", "proxy, trusted", "proxy, untrusted")
TARGETS = {"small": 1.5, "big": 3.0}  # at most this many times direct


def start_server(env: dict, json_bodies: bool) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        SERVER + (["--json"] if json_bodies else []),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert proc.stdout is not None  # a pipe
    url = proc.stdout.readline().strip()
    if not url.startswith("http"):
        raise SystemExit("the SDK server did not start")
    return proc, url


async def open_sessions(stack: AsyncExitStack, url: str, env: dict) -> dict[str, ClientSession]:
    sessions = {}
    streams = await stack.enter_async_context(streamable_http_client(url))
    sessions["direct"] = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
    errlog = stack.enter_context(open(os.devnull, "w"))  # noqa: SIM115 - the stack closes it
    for path in PATHS[1:]:
        name = "bench-" + path.split(", ")[1]
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "lazaretto.app", "proxy", "-n", name, "--url", url],
            env=env,
        )
        read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
        sessions[path] = await stack.enter_async_context(ClientSession(read, write))
    for session in sessions.values():
        await session.initialize()
        await session.list_tools()
    return sessions


async def timed_calls(
    session: ClientSession, tool: str, arguments: dict, count: int
) -> list[float]:
    times = []
    for _ in range(count):
        began = time.perf_counter()
        result = await session.call_tool(tool, arguments)
        times.append(time.perf_counter() - began)
        if result.isError:
            raise SystemExit(f"the call failed: {result.content[0]}")
    return times


async def measure(url: str, env: dict, calls: int, rounds: int, big: int) -> dict:
    kinds = {"small": ("echo", {"text": "small call"}), "big": ("blob", {"size": big})}
    per_round = max(1, calls // rounds)
    samples = {(p, k): {"all": [], "medians": []} for p in PATHS for k in kinds}
    async with AsyncExitStack() as stack:
        sessions = await open_sessions(stack, url, env)
        for _ in range(rounds):
            for kind, (tool, arguments) in kinds.items():
                for path in PATHS:
                    times = await timed_calls(sessions[path], tool, arguments, per_round)
                    samples[path, kind]["all"].extend(times)
                    samples[path, kind]["medians"].append(statistics.median(times))
    figures = {}
    for (path, kind), s in samples.items():
        ordered = sorted(s["all"])
        figures[f"{path}, {kind}"] = {
            "path": path,
            "call": kind,
            "median_ms": statistics.median(s["medians"]) * 1e3,
            "p95_ms": ordered[int(len(ordered) * 0.95)] * 1e3,
        }
    for f in figures.values():
        f["x_direct"] = f["median_ms"] / figures[f"direct, {f['call']}"]["median_ms"]
        f["target"] = None if f["path"] == "direct" else TARGETS[f["call"]]
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--calls", type=int, default=100, help="calls of each kind per configuration"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--big", type=int, default=1024 * 1024, help="bytes of the large result")
    parser.add_argument("--json", action="store_true", help="the server answers with JSON bodies")
    add_flag(parser)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        policy = Path(tmp) / "bench.toml"
        policy.write_text(
            '[servers.bench-trusted]\ntrust = "trusted"\n[servers.bench-untrusted]\ntrust = "untrusted"\n'
        )
        env = {
            **os.environ,
            "LAZARETTO_SESSION": "remote-bench",
            "LAZARETTO_STORE": str(Path(tmp) / "bench.db"),
            "LAZARETTO_POLICY": str(policy),
            "XDG_STATE_HOME": str(Path(tmp) / "state"),
        }
        server, url = start_server(env, args.json)
        try:
            figures = anyio.run(measure, url, env, args.calls, args.rounds, args.big)
        finally:
            server.kill()
            server.wait()
    table = [f"{'configuration':<28}{'median ms':>11}{'p95 ms':>10}{'x direct':>10}{'target':>8}"]
    for label, f in figures.items():
        target = f"{f['target']:.1f}x" if f["target"] else ""
        table.append(
            f"{label:<28}{f['median_ms']:>11.3f}{f['p95_ms']:>10.3f}{f['x_direct']:>10.2f}{target:>8}"
        )
    print("\n".join(table))
    write_docs(args.write_docs, table)
    print(
        json.dumps(
            {
                "benchmark": "remote_roundtrip",
                "calls": args.calls,
                "rounds": args.rounds,
                "big_bytes": args.big,
                "server_answers": "json" if args.json else "sse",
                "results": {
                    label: {k: round(v, 4) if isinstance(v, float) else v for k, v in f.items()}
                    for label, f in figures.items()
                },
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
