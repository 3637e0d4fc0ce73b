"""Golden hook exchanges per client and event: documented input shapes in, the exact reply out.

Each file under golden/CLIENT/ is a sequence of steps run against one session and one store; ids,
tokens and times are normalized. `UPDATE_GOLDEN=1` rewrites the expected replies (review the diff).
"""

import json
import os
import re
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(GOLDEN.glob("*/*.json"))
_NORMALIZE = [
    (re.compile(r"\bQ-[0-9A-Z]{6}\b"), "Q-XXXXXX"),
    (re.compile(r"\b[0-9A-Z]{4}-[0-9A-Z]{4}\b"), "TOKN-TOKN"),
    # The detector's wording of its reasons is its own business; the notice around them is the contract.
    (
        re.compile(r"reads like instructions to the agent \([^)]*\)"),
        "reads like instructions to the agent (...)",
    ),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z"), "TIME"),
]


def normalize(value):
    """Replace what differs between runs (quarantine ids, approval tokens, times) with fixed marks."""
    text = json.dumps(value, ensure_ascii=False)
    for pattern, mark in _NORMALIZE:
        text = pattern.sub(mark, text)
    return json.loads(text)


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_golden(path, run_hook):
    case = json.loads(path.read_text(encoding="utf-8"))
    updating = os.environ.get("UPDATE_GOLDEN") == "1"
    for number, step in enumerate(case["steps"], 1):
        code, stdout, _ = run_hook(case["client"], step["event"], step["input"])
        if updating:
            step["exit"], step["stdout"] = code, normalize(stdout)
            continue
        assert (code, normalize(stdout)) == (step["exit"], step["stdout"]), (
            f"step {number}: {step['event']}"
        )
    if updating:
        path.write_text(json.dumps(case, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
