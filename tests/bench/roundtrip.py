"""Round trip of a small tools/call and proxy start-up: direct, bare relay, Lazaretto (trusted, untrusted).

Run as a plain script: `python tests/bench/roundtrip.py [--calls N] [--rounds R]`. Every
configuration is measured in the same run, interleaved round by round; the table shows
medians and p95 in microseconds and the ratios to direct and to the bare relay, and the
last line is one JSON object with the same figures.
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

HERE = Path(__file__).resolve().parent
SERVER = [sys.executable, str(HERE.parent / "fixtures" / "scripted_server.py")]
RELAY = [sys.executable, str(HERE / "bare_relay.py")]
PROXY = [sys.executable, "-m", "lazaretto.app", "proxy", "-n", "bench", "--"]
CALL = {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "echo", "arguments": {"q": "small call"}}}
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}}


def configurations(workdir: Path) -> dict[str, tuple[list[str], dict]]:
    base = {**os.environ, "LAZARETTO_SESSION": "bench", "LAZARETTO_STORE": str(workdir / "bench.db")}
    policies = {}
    for trust in ("trusted", "untrusted"):
        path = workdir / f"{trust}.toml"
        path.write_text(f'[servers.bench]\ntrust = "{trust}"\n')
        policies[trust] = {**base, "LAZARETTO_POLICY": str(path)}
    return {
        "direct": (SERVER, base),
        "bare relay": (RELAY + SERVER, base),
        "lazaretto trusted": (PROXY + SERVER, policies["trusted"]),
        "lazaretto untrusted": (PROXY + SERVER, policies["untrusted"]),
    }


def start(argv: list[str], env: dict) -> tuple[subprocess.Popen, float]:
    """Spawn and time spawn-to-first-response (an initialize round trip)."""
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    proc.stdin.write(json.dumps(INIT).encode() + b"\n")
    proc.stdin.flush()
    proc.stdout.readline()
    return proc, time.perf_counter() - began


def round_trips(proc: subprocess.Popen, calls: int) -> list[float]:
    times = []
    for n in range(1, calls + 1):
        line = json.dumps({**CALL, "id": n}).encode() + b"\n"
        began = time.perf_counter()
        proc.stdin.write(line)
        proc.stdin.flush()
        reply = proc.stdout.readline()
        times.append(time.perf_counter() - began)
        if b'"result"' not in reply:
            raise SystemExit(f"unexpected reply: {reply[:200]!r}")
    return times


def p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        configs = configurations(Path(tmp))
        latencies = {name: [] for name in configs}
        round_medians = {name: [] for name in configs}
        startups = {name: [] for name in configs}
        for _ in range(args.rounds):
            for name, (argv, env) in configs.items():
                proc, startup = start(argv, env)
                times = round_trips(proc, args.calls)
                proc.stdin.close()
                proc.wait(30)
                startups[name].append(startup)
                latencies[name].extend(times)
                round_medians[name].append(statistics.median(times))
    figures = {}
    for name in configs:
        figures[name] = {
            "median_us": statistics.median(round_medians[name]) * 1e6,
            "p95_us": p95(latencies[name]) * 1e6,
            "startup_ms": statistics.median(startups[name]) * 1e3,
        }
    direct, relay = figures["direct"], figures["bare relay"]
    for entry in figures.values():
        entry["x_direct"] = entry["median_us"] / direct["median_us"]
        entry["x_relay"] = entry["median_us"] / relay["median_us"]
        entry["startup_x_relay"] = entry["startup_ms"] / relay["startup_ms"]
    print(f"{'configuration':<22}{'median µs':>11}{'p95 µs':>10}{'x direct':>10}{'x relay':>9}"
          f"{'start ms':>10}{'start x relay':>15}")
    for name, f in figures.items():
        print(f"{name:<22}{f['median_us']:>11.1f}{f['p95_us']:>10.1f}{f['x_direct']:>10.2f}{f['x_relay']:>9.2f}"
              f"{f['startup_ms']:>10.1f}{f['startup_x_relay']:>15.2f}")
    print(json.dumps({"benchmark": "roundtrip", "calls": args.calls, "rounds": args.rounds,
                      "results": {k: {m: round(v, 3) for m, v in f.items()} for k, f in figures.items()}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
