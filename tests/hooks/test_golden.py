"""Golden hook exchanges per client and event: documented input shapes in, the exact reply out.

Each file under golden/CLIENT/ is a sequence of steps run against one session and one store; ids,
tokens and times are normalized. `UPDATE_GOLDEN=1` rewrites the expected replies (review the diff).
"""

import json
import os

import pytest
from support.hook_golden import CASES, normalize


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
