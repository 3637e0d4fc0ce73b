"""The matches of an alternation of patterns, each pattern searched for on its own.

`re` skips ahead to a pattern's one first character far faster than to any of several (a class
or an alternation is tested character by character): patterns that never open at the same place
are searched for one by one, and their matches chained as their alternation would find them.
"""

import re
from collections.abc import Iterator, Sequence


def leftmost(
    text: str,
    patterns: Sequence[tuple[re.Pattern[str], int]],
    low: int = 0,
    high: int | None = None,
) -> Iterator[tuple[int, re.Match[str]]]:
    """Where each match of the alternation of `patterns` in `text[low:high]` opens, and the
    match: from each match's end, the leftmost next one. Each pattern is given how far before
    its own match the alternation's would open (letters its match looks behind for); no two may
    open at the same place."""
    if high is None:
        high = len(text)
    at = low
    # Each pattern's next match from `at` on, with where it opens; (-1, None) until searched.
    upcoming: list[tuple[int, re.Match[str] | None]] = [(-1, None)] * len(patterns)
    while True:
        for index, (pattern, ahead) in enumerate(patterns):
            if upcoming[index][0] < at:
                match = pattern.search(text, at + ahead, high)
                upcoming[index] = (match.start() - ahead, match) if match else (high, None)
        start, index = min((start, index) for index, (start, _) in enumerate(upcoming))
        match = upcoming[index][1]
        if match is None:
            return
        yield start, match
        at = match.end()
