"""The store under load: 16 proxies writing at once while a reader polls it the way the review app does.

Run as a plain script: `python tests/bench/store_load.py [--proxies P] [--calls N]`. Each proxy
(untrusted, one session each) answers N `injected` calls, each with its own tag, so every call
withholds a new field: one quarantine row, its fingerprints and an audit row. Meanwhile a reader
polls `data_version` every 0.5 s and reads the newest page of the withheld queue when it moves,
and a probe writer times one small write transaction every 20 ms. The same runs with a single
proxy first, as the reference. The 16 proxies run twice: flat out, which on a small machine
mostly measures CPU starvation (32 busy processes on a few cores), and paced at `--rate` calls
per second each, which leaves the CPU room and so measures waiting for the store. Reported: rows lost (quarantine ids the agents were given that
the store does not hold, plus calls not withheld), errors (failed calls, reads or probe writes),
the audit chain check, p95 of the probe's write latency and of the call round trip, each as a
ratio to the single proxy. The last line is one JSON object.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from lazaretto.app.review.queue import WithheldFeed
from lazaretto.store import Store, StoreUnavailable

HERE = Path(__file__).resolve().parent
SERVER = [sys.executable, str(HERE.parent / "fixtures" / "scripted_server.py")]
PROXY = [sys.executable, "-m", "lazaretto.app", "proxy", "-n", "bench", "--"]
QUARANTINE_ID = re.compile(r"withheld field (Q-[0-9A-Z]{6})")
POLL_SECONDS = 0.5
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
        proc = subprocess.Popen(PROXY + SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=self.env)
        start = time.perf_counter()
        for n in range(self.calls):
            if self.rate:
                time.sleep(max(0.0, start + n / self.rate - time.perf_counter()))
            line = json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {
                "name": "injected", "arguments": {"tag": f"p{self.index}-c{n}"}}}).encode() + b"\n"
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


class Watcher(threading.Thread):
    """Polls like the review pane (reader) or times small writes (probe) until stopped."""

    def __init__(self, path: Path, probe: bool) -> None:
        super().__init__(daemon=True)
        self.store = Store(path)
        self.probe = probe
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.times: list[float] = []

    def run(self) -> None:
        feed, version = WithheldFeed(), None
        while not self.stop.wait(PROBE_SECONDS if self.probe else POLL_SECONDS):
            try:
                began = time.perf_counter()
                if self.probe:
                    self.store.sessions.ensure("load-probe")  # one small write transaction (an upsert)
                    self.times.append(time.perf_counter() - began)
                    continue
                current = self.store.data_version()
                if current != version:
                    feed.page(self.store)
                    version = current
                self.times.append(time.perf_counter() - began)
            except StoreUnavailable as exc:
                self.errors.append(str(exc))
        self.store.close()


def run(proxies: int, calls: int, workdir: Path, rate: float = 0.0) -> dict:
    store_path = workdir / f"load-{proxies}-{rate:g}.db"
    Store(store_path).sessions.ensure("load-setup")  # created and migrated before the proxies race
    policy = workdir / "untrusted.toml"
    policy.write_text('[servers.bench]\ntrust = "untrusted"\n')
    env = {**os.environ, "LAZARETTO_STORE": str(store_path), "LAZARETTO_POLICY": str(policy)}
    reader, probe = Watcher(store_path, probe=False), Watcher(store_path, probe=True)
    clients = [Client(i, calls, env, rate) for i in range(proxies)]
    reader.start()
    probe.start()
    began = time.perf_counter()
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    elapsed = time.perf_counter() - began
    for watcher in (reader, probe):
        watcher.stop.set()
        watcher.join()
    given = {qid for client in clients for qid in client.ids}
    store = Store(store_path)
    stored = {row["id"] for row in store.query("SELECT id FROM quarantine")}
    verified = store.audit.verify().ok
    store.close()
    not_withheld = sum(len(client.errors) for client in clients)
    return {
        "proxies": proxies, "rate": rate, "calls": proxies * calls, "seconds": elapsed,
        "rows_expected": proxies * calls, "rows_found": len(stored & given),
        "rows_lost": len(given - stored) + not_withheld,
        "errors": not_withheld + len(reader.errors) + len(probe.errors),
        "audit_ok": verified,
        "write_p95_ms": p95(probe.times) * 1e3, "write_median_ms": statistics.median(probe.times) * 1e3,
        "call_p95_ms": p95([t for client in clients for t in client.times]) * 1e3,
        "reader_polls": len(reader.times),
        "error_samples": [e for c in clients for e in c.errors][:3] + reader.errors[:3] + probe.errors[:3],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--proxies", type=int, default=16)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=40.0, help="calls per second per proxy in the paced run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        runs = {"single": run(1, args.calls, Path(tmp)),
                "flat out": run(args.proxies, args.calls, Path(tmp)),
                "paced": run(args.proxies, args.calls, Path(tmp), args.rate)}
    single = runs["single"]
    for r in runs.values():
        r["write_p95_x_single"] = r["write_p95_ms"] / single["write_p95_ms"]
        r["call_p95_x_single"] = r["call_p95_ms"] / single["call_p95_ms"]
    print(f"{'run':<10}{'proxies':>8}{'calls/s':>9}{'calls':>8}{'rows lost':>11}{'errors':>8}{'audit':>7}"
          f"{'write p95 ms':>14}{'x single':>10}{'call p95 ms':>13}{'x single':>10}{'seconds':>9}")
    for name, r in runs.items():
        print(f"{name:<10}{r['proxies']:>8}{r['rate'] or '-':>9}{r['calls']:>8}{r['rows_lost']:>11}{r['errors']:>8}"
              f"{'ok' if r['audit_ok'] else 'BAD':>7}{r['write_p95_ms']:>14.2f}{r['write_p95_x_single']:>10.2f}"
              f"{r['call_p95_ms']:>13.2f}{r['call_p95_x_single']:>10.2f}{r['seconds']:>9.1f}")
    print(json.dumps({"benchmark": "store_load", **runs}, default=float))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
