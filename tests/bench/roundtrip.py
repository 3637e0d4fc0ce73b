"""Round trips of tools/call and proxy start-up: direct, a bare relay, and Lazaretto, side by side in one run.

Run as a plain script: `python tests/bench/roundtrip.py [--calls N] [--rounds R]`. Five calls
(a small echo, a clean 4 KB text, 4 KB of real tool output, a short text carrying an injection,
and 50 issue-tracker records as one 17 KB JSON text, 800 strings to read) go direct to the
scripted server, through a bare line relay, and through `lazaretto proxy` with the server trusted or
untrusted. Every configuration gets N calls in all, spread over R rounds that interleave the
configurations, so a busy machine slows them alike. The table shows the median of the round
medians and the p95 over all calls (microseconds), the ratios to direct and to the bare relay
with the same call, and start-up (spawn to the first answer, with Lazaretto's modules compiled as an
installed package has them, see `bytecode.py`); the last line is one JSON object.
Reference rows run the untrusted proxy with its cleaning step taken out, its relay alone with
every line passed on unread, and the proxy with its detector finding nothing in any text
(`uncleaned_proxy.py`): the differences are what cleaning, protocol handling and detection cost.
The start-up of "untrusted, first start" is that of a proxy whose server's
`initialize` answer was never judged under this policy and code (its remembered clean answers are
removed before each start, see `quarantine.clean_answers`): the first start after an install, an
upgrade, a policy edit or a change of the server. The station rows run the untrusted proxy on a station (`lazaretto station run`, a
process of its own) instead of an embedded store; `x embedded` divides them by the same call on
the embedded store.

`--pin` (Linux, two CPUs or more) runs this script on the first CPU and every process it starts
on the second: one layout for every configuration. Unpinned, the scheduler sometimes keeps the
client and a directly connected server on one core, and the direct round trip halves for that run.
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

from bytecode import compile_lazaretto
from docs_block import add_flag, write_docs
from station_process import StationProcess

from lazaretto.proxy.matcher import cache_folder
from lazaretto.proxy.quarantine.clean_answers import KIND as CLEAN_ANSWER

HERE = Path(__file__).resolve().parent
SERVER = [sys.executable, str(HERE.parent / "fixtures" / "scripted_server.py")]
RELAY = [sys.executable, str(HERE / "bare_relay.py")]
UNCLEANED = [sys.executable, str(HERE / "uncleaned_proxy.py"), "-n", "bench", "--"]
PROXY = [sys.executable, "-m", "lazaretto.app", "proxy", "-n", "bench", "--"]
INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "0"},
    },
}
CALLS = {
    "small": ("echo", {"q": "small call"}),
    "clean 4 KB": ("prose", {"bytes": 4096}),
    # AgentDojo's clean tool results (the vendored corpus), a different 4 KB piece each call.
    "tool output 4 KB": ("tool_output", {"bytes": 4096}),
    "injected": ("injected", {"tag": "bench"}),
    "50 records": ("records", {"count": 50}),
}
# (label, path, call): the five configurations and the proxy's other calls first, then the
# references they are divided by, then the proxy with part of its work taken out.
CONFIGURATIONS = [
    ("direct", "direct", "small"),
    ("bare relay", "relay", "small"),
    ("trusted, small", "trusted", "small"),
    ("untrusted, clean 4 KB", "untrusted", "clean 4 KB"),
    ("untrusted, tool output 4 KB", "untrusted", "tool output 4 KB"),
    ("untrusted, injected", "untrusted", "injected"),
    ("untrusted, small", "untrusted", "small"),
    ("untrusted, 50 records", "untrusted", "50 records"),
    ("untrusted, first start", "first", "small"),
    ("direct, clean 4 KB", "direct", "clean 4 KB"),
    ("bare relay, clean 4 KB", "relay", "clean 4 KB"),
    ("direct, tool output 4 KB", "direct", "tool output 4 KB"),
    ("bare relay, tool output 4 KB", "relay", "tool output 4 KB"),
    ("direct, injected", "direct", "injected"),
    ("bare relay, injected", "relay", "injected"),
    ("direct, 50 records", "direct", "50 records"),
    ("bare relay, 50 records", "relay", "50 records"),
    # The proxy without its cleaning step (what parsing, gate, taint and relay cost on their own), and
    # its relay alone, passing lines on unread.
    ("uncleaned, small", "uncleaned", "small"),
    ("relay alone, small", "unread", "small"),
    ("uncleaned, clean 4 KB", "uncleaned", "clean 4 KB"),
    # The proxy with every step but detection (sanitizing, the readings' marks, the store): what
    # judging a text costs beyond what it says.
    ("undetected, clean 4 KB", "undetected", "clean 4 KB"),
    ("undetected, tool output 4 KB", "undetected", "tool output 4 KB"),
    # The untrusted proxy with its store behind a station, for the same calls.
    ("station, untrusted, small", "station", "small"),
    ("station, clean 4 KB", "station", "clean 4 KB"),
    ("station, injected", "station", "injected"),
    ("station, 50 records", "station", "50 records"),
]


def commands(workdir: Path, station: StationProcess) -> dict[str, tuple[list[str], dict]]:
    """How to start each path, and its environment (one store and session for all proxies)."""
    base = {
        **os.environ,
        "LAZARETTO_SESSION": "bench",
        "LAZARETTO_STORE": str(workdir / "bench.db"),
    }
    paths = {"direct": (SERVER, base), "relay": (RELAY + SERVER, base)}
    for trust in ("trusted", "untrusted"):
        policy = workdir / f"{trust}.toml"
        policy.write_text(f'[servers.bench]\ntrust = "{trust}"\n')
        paths[trust] = (PROXY + SERVER, {**base, "LAZARETTO_POLICY": str(policy)})
    paths["first"] = paths["untrusted"]
    paths["uncleaned"] = (UNCLEANED + SERVER, paths["untrusted"][1])
    paths["unread"] = (UNCLEANED[:2] + ["--unread"] + UNCLEANED[2:] + SERVER, paths["trusted"][1])
    paths["undetected"] = (
        UNCLEANED[:2] + ["--undetected"] + UNCLEANED[2:] + SERVER,
        paths["untrusted"][1],
    )
    paths["station"] = (PROXY + SERVER, station.env(paths["untrusted"][1]))
    return paths


def forget_clean_answers() -> None:
    """Remove the `initialize` answers proxies remembered as judged clean: the next untrusted
    start judges its answer, as the first one after an install does."""
    folder = cache_folder.path()
    if folder.is_dir():
        for kept in folder.glob(f"{CLEAN_ANSWER}-*"):
            kept.unlink(missing_ok=True)


def start(
    argv: list[str], env: dict, cpus: set[int] | None = None
) -> tuple[subprocess.Popen, float]:
    """Spawn (on `cpus`, if given) and time spawn-to-first-response (an initialize round trip)."""
    began = time.perf_counter()
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        preexec_fn=pin,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INIT).encode() + b"\n")
    proc.stdin.flush()
    proc.stdout.readline()
    return proc, time.perf_counter() - began


def round_trips(proc: subprocess.Popen, call: str, count: int) -> list[float]:
    """Time `count` sequential calls; each line is built before the clock starts."""
    assert proc.stdin is not None and proc.stdout is not None
    tool, arguments = CALLS[call]
    times = []
    for n in range(1, count + 1):
        line = (
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


def measure(calls: int, rounds: int, cpus: set[int] | None = None) -> dict[str, dict]:
    per_round = max(1, calls // rounds)
    with tempfile.TemporaryDirectory() as tmp:
        station = StationProcess(Path(tmp) / "station").start(cpus)
        paths = commands(Path(tmp), station)
        samples = {
            label: {"all": [], "medians": [], "startups": []} for label, _, _ in CONFIGURATIONS
        }
        for _ in range(rounds):
            for label, path, call in CONFIGURATIONS:
                argv, env = paths[path]
                if path == "first":
                    forget_clean_answers()
                proc, startup = start(argv, env, cpus)
                times = round_trips(proc, call, per_round)
                assert proc.stdin is not None  # start() opened it as a pipe
                proc.stdin.close()
                proc.wait(30)
                samples[label]["all"].extend(times)
                samples[label]["medians"].append(statistics.median(times))
                samples[label]["startups"].append(startup)
        station.stop()
    figures = {}
    for label, path, call in CONFIGURATIONS:
        s = samples[label]
        figures[label] = {
            "path": path,
            "call": call,
            "median_us": statistics.median(s["medians"]) * 1e6,
            "p95_us": p95(s["all"]) * 1e6,
            "startup_ms": statistics.median(s["startups"]) * 1e3,
        }
    reference = {
        (f["path"], f["call"]): f for f in figures.values() if f["path"] in ("direct", "relay")
    }
    embedded = {f["call"]: f for f in figures.values() if f["path"] == "untrusted"}
    for f in figures.values():
        f["x_embedded"] = (
            f["median_us"] / embedded[f["call"]]["median_us"] if f["path"] == "station" else None
        )
        f["x_direct"] = f["median_us"] / reference["direct", f["call"]]["median_us"]
        f["x_relay"] = f["median_us"] / reference["relay", f["call"]]["median_us"]
        f["startup_x_relay"] = f["startup_ms"] / reference["relay", "small"]["startup_ms"]
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument(
        "--calls", type=int, default=2000, help="calls per configuration, over all rounds"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--pin",
        action="store_true",
        help="this script on the first CPU, what it starts on the second",
    )
    add_flag(parser)
    args = parser.parse_args()
    cpus = None
    if args.pin:
        available = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        if len(available) < 2:
            raise SystemExit("--pin needs Linux and two CPUs or more")
        os.sched_setaffinity(0, {available[0]})
        cpus = {available[1]}
    compile_lazaretto()
    figures = measure(args.calls, args.rounds, cpus)
    table = [
        f"{'configuration':<30}{'median µs':>11}{'p95 µs':>10}{'x direct':>10}{'x relay':>9}"
        f"{'x embedded':>12}{'start ms':>10}{'start x relay':>15}"
    ]
    for label, f in figures.items():
        embedded = f"{f['x_embedded']:>12.2f}" if f["x_embedded"] is not None else f"{'':>12}"
        table.append(
            f"{label:<30}{f['median_us']:>11.1f}{f['p95_us']:>10.1f}{f['x_direct']:>10.2f}{f['x_relay']:>9.2f}"
            f"{embedded}{f['startup_ms']:>10.1f}{f['startup_x_relay']:>15.2f}"
        )
    print("\n".join(table))
    write_docs(args.write_docs, table)
    print(
        json.dumps(
            {
                "benchmark": "roundtrip",
                "calls": args.calls,
                "rounds": args.rounds,
                "pinned": args.pin,
                "results": {
                    label: {k: round(v, 3) if isinstance(v, float) else v for k, v in f.items()}
                    for label, f in figures.items()
                },
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
