"""The detector's paired cases, read from `tests/detect/cases/*.jsonl` (one JSON object a line)."""

import json
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "detect" / "cases"


def topics() -> list[str]:
    """The topics, one file each, in name order."""
    return sorted(path.stem for path in FOLDER.glob("*.jsonl"))


def cases(topic: str) -> list[dict]:
    """The cases of one topic, in file order."""
    with (FOLDER / f"{topic}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]
