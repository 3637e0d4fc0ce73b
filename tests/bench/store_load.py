"""The store under load: 16 proxies writing at once while the review app is open on the same store.

Run as a plain script: `python tests/bench/store_load.py [--proxies P] [--calls N] [--rate R]
[--no-cpu-groups]`. Each proxy (untrusted, one session each) answers N `injected` calls, each with
its own tag, so every call withholds a new field: one quarantine row, its fingerprints and an
audit row. Meanwhile the review app (`lazaretto review`, in a pseudo-terminal) is open on the same
store and follows it, and two probe processes each time one small write transaction every 20 ms:
one at the users' priority, whose times include its own wait for a core among the busy proxies
(`write p95`), and, as root, one at the station's priority, whose times are the store's own
(`store p95`). The same runs with a single proxy first, as the reference. The 16 proxies run
twice: flat out, which on a small machine measures CPU starvation (some 32 busy processes on a few
cores: a writer holding the lock loses its core), and paced at R calls per second each (default
10, each client at its own phase: ten times a busy agent), which leaves the CPU room and so
measures waiting for the store. Reported: rows lost (quarantine ids the agents were given that the
store does not hold, plus calls not withheld), errors (failed calls, probe writes, a review app
that died), the audit chain check, the probes' write p95 and the call round trip p95, each as a
ratio to the single proxy. Every run is made twice, side by side: on an embedded store (each proxy
writes the SQLite file itself) and through a station (`lazaretto station run`, the only writer;
proxies, probes and review app are its clients). As root the station runs as its installed
service unit has it: at the unit's priority, and in a CPU group of its own beside one holding
everything else (`cpu_groups.py`; `--no-cpu-groups` leaves it among the benchmark's processes, as
a station started by hand is). The last line is one JSON object.
"""

import argparse
import fcntl
import json
import os
import random
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

from cpu_groups import CpuGroups
from docs_block import add_flag, write_docs
from station_process import StationProcess

from lazaretto.app.station.units import NICE
from lazaretto.store import Store, StoreUnavailable
from lazaretto.store.station.client import StationStore
from lazaretto.store.station.marker import Marker

HERE = Path(__file__).resolve().parent
SERVER = [sys.executable, str(HERE.parent / "fixtures" / "scripted_server.py")]
PROXY = [sys.executable, "-m", "lazaretto.app", "proxy", "-n", "bench", "--"]
QUARANTINE_ID = re.compile(r"withheld field (Q-[0-9A-Z]{6})")
PROBE_SECONDS = 0.02


def p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95)] if values else float("nan")


class Client(threading.Thread):
    """One proxy driven with sequential injected calls; collects the ids it was given and its errors."""

    def __init__(self, index: int, calls: int, env: dict, rate: float) -> None:
        super().__init__(daemon=True)
        self.index, self.calls, self.rate = index, calls, rate
        self.env = {**env, "LAZARETTO_SESSION": f"load-{index}"}
        self.ids: list[str] = []
        self.errors: list[str] = []
        self.times: list[float] = []

    def run(self) -> None:
        proc = subprocess.Popen(
            PROXY + SERVER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=self.env,
        )
        assert proc.stdin is not None and proc.stdout is not None
        # Each client keeps its own phase, as agents do: in step, all sixteen would write at once.
        start = time.perf_counter() + (random.uniform(0, 1 / self.rate) if self.rate else 0)
        for n in range(self.calls):
            if self.rate:
                time.sleep(max(0.0, start + n / self.rate - time.perf_counter()))
            line = (
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": n,
                        "method": "tools/call",
                        "params": {"name": "injected", "arguments": {"tag": f"p{self.index}-c{n}"}},
                    }
                ).encode()
                + b"\n"
            )
            began = time.perf_counter()
            proc.stdin.write(line)
            proc.stdin.flush()
            reply = proc.stdout.readline()
            self.times.append(time.perf_counter() - began)
            found = QUARANTINE_ID.search(reply.decode("utf-8", "replace"))
            if found and b'"result"' in reply:
                self.ids.append(found.group(1))
            else:
                self.errors.append(reply[:300].decode("utf-8", "replace"))
        proc.stdin.close()
        if proc.wait(60) != 0:
            self.errors.append(f"proxy {self.index} exited with {proc.returncode}")


def probe(path: Path | None, socket: str | None, nice: int | None) -> int:
    """The probe process: one small write transaction every PROBE_SECONDS until stdin closes,
    then the timings and errors as one JSON line. A process of its own, so that its timings are
    the store's and not the wait for this script's GIL behind sixteen client threads. With
    `socket`, the write goes through that station; with `nice`, it runs at that priority."""
    if nice is not None:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
    store = StationStore(Marker(path=None, socket=socket)) if socket else Store(path)
    times, errors = [], []
    while not select.select([sys.stdin], [], [], PROBE_SECONDS)[0]:
        try:
            began = time.perf_counter()
            store.sessions.ensure("load-probe")  # an upsert: one small write transaction
            times.append(time.perf_counter() - began)
        except StoreUnavailable as exc:
            errors.append(str(exc))
    store.close()
    print(json.dumps({"times": times, "errors": errors}))
    return 0


class ReviewApp:
    """`lazaretto review` on the store, in a pseudo-terminal whose output is drained and dropped."""

    def __init__(self, env: dict) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        env = {**env, "TERM": "xterm-256color"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lazaretto.app", "review"],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self.tail = b""
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.tail = (self.tail + chunk)[-2000:]

    def close(self) -> list[str]:
        """Quit (ctrl+q) as a person would; an app that died or would not quit is an error."""
        if self.proc.poll() is not None:
            return [f"the review app exited early ({self.proc.returncode}): {self.tail[-300:]!r}"]
        os.write(self.master, b"\x11")
        try:
            code = self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return ["the review app did not quit"]
        return [] if code == 0 else [f"the review app exited with {code}: {self.tail[-300:]!r}"]


def start_probe(probe_args: list[str], nice: int | None) -> subprocess.Popen:
    """A probe process (see `probe`), at `nice` if given."""
    return subprocess.Popen(
        [
            sys.executable,
            __file__,
            *probe_args,
            *([] if nice is None else ["--probe-nice", str(nice)]),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def run(
    proxies: int,
    calls: int,
    workdir: Path,
    rate: float = 0.0,
    station: bool = False,
    groups: CpuGroups | None = None,
) -> dict:
    name = f"load-{'station' if station else 'embedded'}-{proxies}-{rate:g}"
    policy = workdir / "untrusted.toml"
    policy.write_text('[servers.bench]\ntrust = "untrusted"\n')
    base = {**os.environ, "LAZARETTO_POLICY": str(policy)}
    in_child = groups.join_station if groups is not None else None
    served = StationProcess(workdir / name, in_child).start() if station else None
    if served is not None:
        store_path, env = served.store, served.env(base)
        probe_args = ["--probe-station", str(served.socket)]
    else:
        store_path = workdir / f"{name}.db"
        env = {**base, "LAZARETTO_STORE": str(store_path)}
        probe_args = ["--probe", str(store_path)]
        Store(store_path).sessions.ensure("load-setup")  # migrated before the proxies race
    review = ReviewApp(env)
    # Two probes: one at the users' priority, whose times include its own wait for a core among
    # the busy proxies; one at the station's (root only), whose times are the store's alone.
    probers = {"user": start_probe(probe_args, None)}
    if os.geteuid() == 0:
        probers["raised"] = start_probe(probe_args, NICE)
    time.sleep(1.0)  # the app has opened and drawn its first page
    clients = [Client(i, calls, env, rate) for i in range(proxies)]
    began = time.perf_counter()
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    elapsed = time.perf_counter() - began
    probed = {which: json.loads(p.communicate("", timeout=60)[0]) for which, p in probers.items()}
    review_errors = review.close()
    if served is not None:
        served.stop()
    given = {qid for client in clients for qid in client.ids}
    store = Store(store_path)
    stored = {row["id"] for row in store.query("SELECT id FROM quarantine")}
    verified = store.audit.verify().ok
    store.close()
    not_withheld = sum(len(client.errors) for client in clients)
    probe_errors = [e for p in probed.values() for e in p["errors"]]
    user, raised = probed["user"]["times"], probed.get("raised", {}).get("times")
    return {
        "transport": "station" if station else "embedded",
        "station_nice": served.nice if served is not None else None,
        "proxies": proxies,
        "rate": rate,
        "calls": proxies * calls,
        "seconds": elapsed,
        "rows_expected": proxies * calls,
        "rows_found": len(stored & given),
        "rows_lost": len(given - stored) + not_withheld,
        "errors": not_withheld + len(review_errors) + len(probe_errors),
        "audit_ok": verified,
        "write_p95_ms": p95(user) * 1e3,
        "write_median_ms": statistics.median(user) * 1e3,
        "store_write_p95_ms": p95(raised) * 1e3 if raised else None,
        "store_write_median_ms": statistics.median(raised) * 1e3 if raised else None,
        "call_p95_ms": p95([t for client in clients for t in client.times]) * 1e3,
        "probe_writes": len(user),
        "error_samples": [e for c in clients for e in c.errors][:3]
        + review_errors
        + probe_errors[:3],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--proxies", type=int, default=16)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument(
        "--rate", type=float, default=10.0, help="calls per second per proxy in the paced run"
    )
    parser.add_argument(
        "--no-cpu-groups",
        action="store_true",
        help="leave the station among the benchmark's processes, as when it is started by hand",
    )
    # The probe process (internal): a store file, or a station's socket, and its priority.
    parser.add_argument("--probe", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--probe-station", help=argparse.SUPPRESS)
    parser.add_argument("--probe-nice", type=int, help=argparse.SUPPRESS)
    add_flag(parser)
    args = parser.parse_args()
    if args.probe or args.probe_station:
        return probe(args.probe, args.probe_station, args.probe_nice)
    runs = {}
    with tempfile.TemporaryDirectory() as tmp, CpuGroups(not args.no_cpu_groups) as groups:
        for station in (False, True):
            where = "station" if station else "embedded"
            keys = (f"{where}, single", f"{where}, flat out", f"{where}, paced")
            for key, proxies, rate in zip(
                keys, (1, args.proxies, args.proxies), (0, 0, args.rate), strict=True
            ):
                runs[key] = run(proxies, args.calls, Path(tmp), rate, station, groups)
            single = runs[keys[0]]
            for key in keys:
                r = runs[key]
                for figure in ("write_p95", "store_write_p95", "call_p95"):
                    if r[f"{figure}_ms"] is not None:
                        r[f"{figure}_x_single"] = r[f"{figure}_ms"] / single[f"{figure}_ms"]
        placed = groups.describe()
    table = [
        f"{'run':<20}{'proxies':>8}{'calls/s':>9}{'calls':>8}{'rows lost':>11}{'errors':>8}{'audit':>7}"
        f"{'store p95 ms':>14}{'x single':>10}{'write p95 ms':>14}{'x single':>10}"
        f"{'call p95 ms':>13}{'x single':>10}{'seconds':>9}"
    ]
    for name, r in runs.items():
        store = (
            f"{r['store_write_p95_ms']:>14.2f}{r['store_write_p95_x_single']:>10.2f}"
            if r["store_write_p95_ms"] is not None
            else f"{'-':>14}{'-':>10}"
        )
        table.append(
            f"{name:<20}{r['proxies']:>8}{r['rate'] or '-':>9}{r['calls']:>8}{r['rows_lost']:>11}{r['errors']:>8}"
            f"{'ok' if r['audit_ok'] else 'BAD':>7}{store}"
            f"{r['write_p95_ms']:>14.2f}{r['write_p95_x_single']:>10.2f}"
            f"{r['call_p95_ms']:>13.2f}{r['call_p95_x_single']:>10.2f}{r['seconds']:>9.1f}"
        )
    nice = runs["station, single"]["station_nice"]
    table += [
        f"the station ran at nice {nice}" + ("" if nice == NICE else f", not the unit's {NICE}"),
        placed,
        "store p95: the probe at the station's priority (root only), the store's own latency;"
        " write p95: the probe at the users' priority, its own wait for a core included",
    ]
    print("\n".join(table))
    write_docs(args.write_docs, table)
    print(json.dumps({"benchmark": "store_load", **runs}, default=float))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
