"""Large untrusted results (64 KiB, 1 MiB, 16 MiB): time added over direct and the bare relay, and the proxy's peak memory.

Run as a plain script: `python tests/bench/large_results.py [--rounds R]`. Each round starts,
for every size, the scripted server direct, behind the bare relay and behind `lazaretto proxy`
(untrusted), and times a few `prose` calls of that size (clean English text). Memory is the proxy process's own peak
resident set (VmHWM) above what it held after start-up and one small call, as a ratio to the
message size. The table shows medians over the rounds; the last line is one JSON object.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from docs_block import add_flag, write_docs

HERE = Path(__file__).resolve().parent
SERVER = [sys.executable, str(HERE.parent / "fixtures" / "scripted_server.py")]
RELAY = [sys.executable, str(HERE / "bare_relay.py")]
PROXY = [sys.executable, "-m", "lazaretto.app", "proxy", "-n", "bench", "--"]
KIB = 1024
SIZES = {
    "64 KiB": (64 * KIB, 40),
    "1 MiB": (1024 * KIB, 8),
    "16 MiB": (16 * 1024 * KIB, 2),
}  # size, calls


def call_line(n: int, tool: str, arguments: dict) -> bytes:
    return (
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {"name": tool, "arguments": arguments},
            }
        ).encode()
        + b"\n"
    )


def peak_kib(pid: int) -> int:
    """The process's peak resident set so far (Linux /proc), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise SystemExit("no VmHWM in /proc: this benchmark needs Linux")


def timed_calls(proc: subprocess.Popen, size: int, calls: int) -> list[float]:
    assert proc.stdin is not None and proc.stdout is not None
    times = []
    for n in range(calls):
        line = call_line(n + 10, "prose", {"bytes": size})
        began = time.perf_counter()
        proc.stdin.write(line)
        proc.stdin.flush()
        reply = proc.stdout.readline()
        times.append(time.perf_counter() - began)
        if len(reply) < size or b'"isError"' in reply:
            raise SystemExit(f"unexpected reply of {len(reply)} bytes: {reply[:200]!r}")
    return times


def run_one(argv: list[str], env: dict, size: int, calls: int) -> tuple[float, int]:
    """Median call time, and the peak memory (KiB) the calls added to the process."""
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(call_line(1, "echo", {"warm": "up"}))
    proc.stdin.flush()
    proc.stdout.readline()
    baseline = peak_kib(proc.pid)
    median = statistics.median(timed_calls(proc, size, calls))
    added = peak_kib(proc.pid) - baseline
    proc.stdin.close()
    proc.wait(60)
    return median, added


def measure(rounds: int) -> dict[str, dict]:
    samples = {label: {"direct": [], "relay": [], "proxy": [], "memory": []} for label in SIZES}
    with tempfile.TemporaryDirectory() as tmp:
        policy = Path(tmp) / "untrusted.toml"
        policy.write_text('[servers.bench]\ntrust = "untrusted"\n')
        env = {
            **os.environ,
            "LAZARETTO_SESSION": "bench",
            "LAZARETTO_STORE": str(Path(tmp) / "bench.db"),
            "LAZARETTO_POLICY": str(policy),
        }
        for _ in range(rounds):
            for label, (size, calls) in SIZES.items():
                direct, _ = run_one(SERVER, env, size, calls)
                relayed, _ = run_one(RELAY + SERVER, env, size, calls)
                proxied, added = run_one(PROXY + SERVER, env, size, calls)
                samples[label]["direct"].append(direct)
                samples[label]["relay"].append(relayed)
                samples[label]["proxy"].append(proxied)
                samples[label]["memory"].append(added * KIB)
    figures = {}
    for label, (size, _) in SIZES.items():
        s = samples[label]
        direct, relayed, proxied, memory = (
            statistics.median(s[k]) for k in ("direct", "relay", "proxy", "memory")
        )
        figures[label] = {
            "bytes": size,
            "direct_ms": direct * 1e3,
            "relay_ms": relayed * 1e3,
            "proxy_ms": proxied * 1e3,
            "added_ms": (proxied - direct) * 1e3,
            "x_direct": proxied / direct,
            "x_relay": proxied / relayed,
            "peak_added_mib": memory / 2**20,
            "peak_x_message": memory / size,
        }
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    add_flag(parser)
    args = parser.parse_args()
    figures = measure(args.rounds)
    table = [
        f"{'result':<9}{'direct ms':>11}{'relay ms':>11}{'proxy ms':>11}{'added ms':>11}"
        f"{'x direct':>10}{'x relay':>9}{'peak +MiB':>11}{'peak x msg':>12}"
    ]
    for label, f in figures.items():
        table.append(
            f"{label:<9}{f['direct_ms']:>11.2f}{f['relay_ms']:>11.2f}{f['proxy_ms']:>11.2f}"
            f"{f['added_ms']:>11.2f}{f['x_direct']:>10.2f}{f['x_relay']:>9.2f}"
            f"{f['peak_added_mib']:>11.1f}{f['peak_x_message']:>12.2f}"
        )
    print("\n".join(table))
    write_docs(args.write_docs, table)
    print(
        json.dumps(
            {
                "benchmark": "large_results",
                "rounds": args.rounds,
                "results": {k: {m: round(v, 3) for m, v in f.items()} for k, f in figures.items()},
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
