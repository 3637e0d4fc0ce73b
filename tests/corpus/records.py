"""The third-party evaluation corpus vendored in data/: the names of its files and their records."""

import json
import lzma
from collections.abc import Iterator
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
# Each file is kept xz-compressed; callers name it by the JSON Lines file it holds.
NAMES = tuple(sorted(path.name.removesuffix(".xz") for path in DATA.glob("*.jsonl.xz")))


def path(name: str) -> Path:
    """Where the compressed copy of one corpus file is, e.g. `path("garak_benign.jsonl")`."""
    return DATA / f"{name}.xz"


def records(name: str) -> Iterator[dict]:
    """The records of one corpus file: `text`, `label`, `category`, `source` and more."""
    with lzma.open(path(name), "rt", encoding="utf-8") as handle:
        for line in handle:
            yield json.loads(line)
