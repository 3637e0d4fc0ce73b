"""Throughput of `lazaretto scan --jsonl` over the corpus, next to a bare JSON-lines echo of the same data.

Printed, not asserted (timings depend on the machine): run with -s to see the figures.
"""

import json
import subprocess
import sys
import time

import pytest
from corpus.records import NAMES, records

# The baseline: parse each line and write one JSON line back, the least any JSONL filter does.
ECHO = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    sys.stdout.write(json.dumps({'text': json.loads(line)['text']}, ensure_ascii=False) + '\\n')\n"
)


@pytest.fixture(scope="module")
def corpus_lines():
    lines = [
        json.dumps({"text": record["text"]}, ensure_ascii=False)
        for name in NAMES
        for record in records(name)
    ]
    return "\n".join(lines) + "\n"


def _timed(cmd, data, env):
    start = time.perf_counter()
    done = subprocess.run(cmd, input=data, capture_output=True, text=True, env=env, timeout=600)
    return time.perf_counter() - start, done


@pytest.mark.slow
def test_scan_jsonl_throughput(corpus_lines, lazaretto_cmd, child_env):
    fields = corpus_lines.count("\n")
    megabytes = len(corpus_lines.encode()) / 1e6
    echo_seconds, echo = _timed([sys.executable, "-c", ECHO], corpus_lines, child_env)
    scan_seconds, scan = _timed(lazaretto_cmd + ["scan", "--jsonl"], corpus_lines, child_env)
    assert echo.returncode == 0 and scan.returncode == 0, scan.stderr
    assert scan.stdout.count("\n") == fields
    print(f"\n{fields} fields, {megabytes:.1f} MB")
    for name, seconds in (
        ("bare JSONL echo", echo_seconds),
        ("lazaretto scan --jsonl", scan_seconds),
    ):
        print(
            f"  {name:24} {seconds:6.2f} s  {megabytes / seconds:7.2f} MB/s  {fields / seconds:8.0f} fields/s"
        )
