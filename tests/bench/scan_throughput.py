"""Scan throughput on the corpus: the full pipeline, detection alone, sanitizing alone, and a bare JSONL echo.

Run as a plain script: `python tests/bench/scan_throughput.py [--rounds R] [--every N]` (N: read
every Nth corpus text only, for a quick run; the default reads them all). Two rows run as
processes over the same JSON Lines input (`lazaretto scan --jsonl` and a bare echo that only
parses and re-writes each line); the others call the pipeline's functions in this process on
the corpus texts, once over all of them and once over the tool outputs alone. Each figure is
the best of R rounds. The table shows MB/s (UTF-8 bytes of input) and fields/s; the last line
is one JSON object with the same figures.
"""

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# Run as a script, this file sees only its own folder; the corpus reader is imported from tests/.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus.records import NAMES, records
from docs_block import add_flag, write_docs

from lazaretto.proxy.detect import detect
from lazaretto.proxy.quarantine import scan
from lazaretto.proxy.quarantine.scan import ScanRules, scan_text
from lazaretto.proxy.sanitize import SanitizeRules, sanitize

ECHO = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    sys.stdout.write(json.dumps({'text': json.loads(line)['text']}, ensure_ascii=False) + '\\n')\n"
)


def load(every: int) -> tuple[list[str], list[str]]:
    """Every `every`th corpus text, and those of them that are whole tool outputs."""
    texts, tool_outputs = [], []
    for name in NAMES:
        for record in itertools.islice(records(name), 0, None, every):
            texts.append(record["text"])
            if record.get("granularity") == "tool_output":
                tool_outputs.append(record["text"])
    return texts, tool_outputs


def best_of(rounds: int, work) -> float:
    best = float("inf")
    for _ in range(rounds):
        # scan_text remembers the verdicts of short texts: each round must scan them again, or the
        # later rounds would measure the memory rather than the scan.
        scan._SHORT_VERDICTS.clear()
        began = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - began)
    return best


def in_process(texts: list[str], function) -> Callable[[], object]:
    return lambda: [function(text) for text in texts]


def as_process(cmd: list[str], data: bytes, env: dict) -> Callable[[], None]:
    def work() -> None:
        done = subprocess.run(cmd, input=data, capture_output=True, env=env, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{cmd[-2:]} failed: {done.stderr.decode()[-500:]}")

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--every", type=int, default=1, help="read every Nth corpus text only")
    add_flag(parser)
    args = parser.parse_args()
    texts, tool_outputs = load(args.every)
    jsonl = "".join(json.dumps({"text": t}, ensure_ascii=False) + "\n" for t in texts).encode()
    rules = ScanRules()
    untrusted = SanitizeRules(untrusted=True)
    with tempfile.TemporaryDirectory(prefix="lazaretto-bench-") as folder:
        # An empty policy and store of its own, so the user's settings do not change the figures.
        env = {
            **os.environ,
            "LAZARETTO_STORE": str(Path(folder) / "store.db"),
            "LAZARETTO_POLICY": str(Path(folder) / "policy.toml"),
        }
        Path(env["LAZARETTO_POLICY"]).write_text("")
        rows = [
            (
                "bare JSONL echo (process)",
                len(jsonl),
                len(texts),
                as_process([sys.executable, "-c", ECHO], jsonl, env),
            ),
            (
                "lazaretto scan --jsonl (process)",
                len(jsonl),
                len(texts),
                as_process([sys.executable, "-m", "lazaretto.app", "scan", "--jsonl"], jsonl, env),
            ),
        ]
        for label, subset in (("all", texts), ("tool outputs", tool_outputs)):
            size = sum(len(t.encode()) for t in subset)
            rows += [
                (
                    f"scan_text, {label}",
                    size,
                    len(subset),
                    in_process(subset, lambda t: scan_text(t, rules)),
                ),
                (f"detect alone, {label}", size, len(subset), in_process(subset, detect)),
                (
                    f"sanitize alone, {label}",
                    size,
                    len(subset),
                    in_process(subset, lambda t: sanitize(t, untrusted)),
                ),
            ]
        figures = {}
        for name, size, count, work in rows:
            seconds = best_of(args.rounds, work)
            figures[name] = {
                "seconds": round(seconds, 4),
                "mb_per_s": round(size / 1e6 / seconds, 2),
                "fields_per_s": round(count / seconds),
                "mb": round(size / 1e6, 2),
                "fields": count,
            }
    table = [f"{'':36}{'MB':>7}{'fields':>8}{'seconds':>9}{'MB/s':>9}{'fields/s':>10}"]
    for name, f in figures.items():
        table.append(
            f"{name:36}{f['mb']:>7.2f}{f['fields']:>8}{f['seconds']:>9.3f}{f['mb_per_s']:>9.2f}{f['fields_per_s']:>10}"
        )
    print("\n".join(table))
    write_docs(args.write_docs, table)
    print(json.dumps({"rounds": args.rounds, "every": args.every, "figures": figures}))


if __name__ == "__main__":
    main()
