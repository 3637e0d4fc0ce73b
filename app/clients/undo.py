"""Take a change to a client config back exactly, from the backup the change was made from.

`unwrap` and `uninstall` work out what to take out of the file as it is now. That gives back what
the entries meant, not always the text they had: an inline object comes back over lines, keys in
another order, an escape spelled out, an empty `"hooks": {}` of the user's own goes with ours.
Every change keeps a backup of the file as it was before it. When the change, made again to a
backup, gives the lines the file has now (lines changed elsewhere since, by the client or by hand,
stay as they are now), the backup's lines are put back in their place; what was changed since
around an entry is then taken out by meaning. The result is kept only if the change, made to it,
means what the change makes of the file taken out by meaning: it can differ from that only where
the change writes anyway, so a backup decides how the text looks, never what it says.
"""

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any


@dataclass(frozen=True)
class Change:
    """A change to a config's text that can be made again and taken out."""

    makers: Callable[[str], list[Callable[[str], str]]]
    """For the text as it is now, each way the change could have been made (one per executable
    path it wrote): a function from the text before to the text after."""
    take_out: Callable[[str], str]
    """The change taken out of a text by what it means (no backup needed)."""
    meaning: Callable[[str], Any]
    """The text's value (parsed JSON or TOML), to compare two texts by what they say."""


def undone(current: str, backups: Sequence[str], change: Change) -> str:
    """`current` with the change taken out: the text of the backup it was made from where that
    can be told, else by meaning. `backups` newest first."""
    by_meaning = change.take_out(current)
    for make in change.makers(current):
        # What the change makes of the file with it taken out: a text the backup helped with
        # must give the same (it then differs from `by_meaning` only where the change writes).
        remade = make(by_meaning)
        for index, older in enumerate(backups):
            made = make(older)
            if made == older:
                continue
            merged = merged_back(older, made, current)
            if merged == current or not _same_meaning(change, make(merged), remade):
                continue
            if change.take_out(merged) != merged:
                # Some of it is still in: an older change (its own backup may tell), or lines
                # changed since around an entry, which is then taken out by meaning.
                return undone(merged, backups[index + 1 :], change)
            return merged
    return by_meaning


def _same_meaning(change: Change, a: str, b: str) -> bool:
    try:
        return equal(change.meaning(a), change.meaning(b))
    except ValueError:  # lines put back where they no longer fit
        return False


def merged_back(older: str, made: str, current: str) -> str:
    """`current` with the lines a change turned from `older` into `made` turned back, wherever
    `current` still has them, with the line on each side, as the change left them."""
    if current == made:
        return older
    before, after, now = (text.splitlines(keepends=True) for text in (older, made, current))
    placed = _placement(after, now)
    result: list[str] = []
    taken = 0  # lines of `now` already in `result`
    for tag, i1, i2, j1, j2 in _opcodes(before, after):
        if tag == "equal":
            continue
        start = _start(placed, j1, j2, len(after), len(now))
        if start is None or start < taken:
            continue  # changed since: left as it is now
        result += now[taken:start] + before[i1:i2]
        taken = start + (j2 - j1)
    return "".join(result + now[taken:])


def _placement(after: list[str], now: list[str]) -> dict[int, int]:
    """Line index in `after` -> the same line's index in `now`, for the lines left as they were."""
    placed = {}
    for tag, i1, i2, j1, _ in _opcodes(after, now):
        if tag == "equal":
            placed.update({i1 + k: j1 + k for k in range(i2 - i1)})
    return placed


def _start(placed: dict[int, int], j1: int, j2: int, size: int, now_size: int) -> int | None:
    """Where lines `j1:j2` of `after` start in `now`, when they and a line each side (or the
    file's ends) are there in one piece; else None."""
    first = j1 - 1
    lines = range(max(first, 0), min(j2 + 1, size))
    if any(line not in placed for line in lines):
        return None
    start = placed[first] + 1 if first >= 0 else 0
    if any(placed[line] != start + line - j1 for line in lines):
        return None
    if j2 == size and start + (j2 - j1) != now_size:
        return None
    return start


Opcode = tuple[str, int, int, int, int]


def _opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    """difflib's opcodes, cheap for a large file: the lines both share at the ends are matched
    first, then the lines found once in each (in the same order) cut the rest into pieces
    difflib compares one by one (its own search grows with the pieces' length times their
    repeated lines, and a settings file repeats many: `},` and the like)."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    codes: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    i, j = head, head
    for anchor_i, anchor_j in [*_anchors(a, b, head, tail), (len(a) - tail, len(b) - tail)]:
        matcher = SequenceMatcher(None, a[i:anchor_i], b[j:anchor_j], autojunk=False)
        codes += [
            (tag, i1 + i, i2 + i, j1 + j, j2 + j) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        ]
        codes.append(("equal", anchor_i, anchor_i + 1, anchor_j, anchor_j + 1))
        i, j = anchor_i + 1, anchor_j + 1
    codes.pop()  # the end is no anchor
    if tail:
        codes.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return codes


def _anchors(a: list[str], b: list[str], head: int, tail: int) -> list[tuple[int, int]]:
    """(i, j) of lines found once in `a[head:-tail]` and once in `b[head:-tail]`, the longest
    run of them in the same order in both."""
    seen_a = Counter(a[head : len(a) - tail])
    seen_b = Counter(b[head : len(b) - tail])
    where_b = {line: j for j, line in enumerate(b[: len(b) - tail]) if j >= head}
    pairs = [
        (i, where_b[line])
        for i, line in enumerate(a[: len(a) - tail])
        if i >= head and seen_a[line] == 1 and seen_b.get(line) == 1
    ]
    # Longest increasing run of j (patience sorting), kept with a link to each one's predecessor.
    piles: list[int] = []  # the j ending each pile
    ends: list[int] = []  # index in pairs of the pair ending each pile
    before: list[int] = []
    for index, (_, j) in enumerate(pairs):
        pile = bisect_left(piles, j)
        before.append(ends[pile - 1] if pile else -1)
        if pile == len(piles):
            piles.append(j)
            ends.append(index)
        else:
            piles[pile], ends[pile] = j, index
    chain, index = [], ends[-1] if ends else -1
    while index >= 0:
        chain.append(pairs[index])
        index = before[index]
    return chain[::-1]


def equal(a: Any, b: Any) -> bool:
    """Values alike in type and content (`1 == True` and `1 == 1.0` in Python are not here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(equal(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(equal, a, b))
    return a == b
