"""The golden hook exchanges (tests/hooks/golden/CLIENT/*.json), and how their replies are compared."""

import json
import re
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "hooks" / "golden"
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
    # Each run's own config directory: the policy file a refusal names.
    (re.compile(r"[^\s\"]*/lazaretto/lazaretto\.toml"), "POLICY"),
]


def normalize(value):
    """Replace what differs between runs (quarantine ids, approval tokens, times) with fixed marks."""
    text = json.dumps(value, ensure_ascii=False)
    for pattern, mark in _NORMALIZE:
        text = pattern.sub(mark, text)
    return json.loads(text)
