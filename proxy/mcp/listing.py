"""The records of a listing: value fields grouped by the item of a list they belong to.

A result that lists things (a server's tools, search hits, rows) holds each item's fields side
by side: a name, a title, a description. Read as one document, the weak evidence of unrelated
items adds up ("prints the environment" in one tool, "trigger" in another). An item with fields
of its own is read on its own; values that are no such item's (content blocks, loose strings)
are read together, as a sentence split across them still reaches the model whole.
"""

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

Part = TypeVar("Part")

# A step of a surface path that indexes a list: "/tools/3", "#/hits/0" (JSON inside a text).
_STEP = re.compile(r"/\d+(?=[/#@]|$)")


_TYPE = "/type"


# A tool's results repeat their paths from call to call ("/content/0/text#/3/body").
@lru_cache(maxsize=8192)
def _items(path: str) -> tuple[str, ...]:
    """The prefixes of `path` that end at a list index, deepest first ("/tools/3", ...)."""
    return tuple(path[: match.end()] for match in reversed(list(_STEP.finditer(path))))


def records(parts: Sequence[tuple[str, Part]]) -> list[list[tuple[str, Part]]]:
    """`parts` (path, anything), in order, grouped into documents: each list item holding two
    value fields or more besides a `type` is one (the deepest such item a path lies in), and
    every part that lies in none is one more, together."""
    items = [_items(path) for path, _ in parts]
    # A content block's `type` names its kind: the block has one field of its own.
    fields = Counter(
        item
        for (path, _), prefixes in zip(parts, items, strict=True)
        if not path.endswith(_TYPE)
        for item in prefixes
    )
    groups: dict[str | None, list[tuple[str, Part]]] = {}
    for part, prefixes in zip(parts, items, strict=True):
        group = None
        for item in prefixes:
            if fields[item] >= 2:
                group = item
                break
        groups.setdefault(group, []).append(part)
    return list(groups.values())
