"""Decide which signal patterns can match a folded text, and where to look: one word pass per text.

Running every pattern over every field cost more than the rest of the proxy together. Each
pattern names trigger substrings (see `signals`), and every match contains one trigger of each
group. One pass collects the text's words; a cached table says which trigger pieces each word
contains. A pattern whose triggers are absent is skipped; one whose triggers occur only a few
times runs on windows around those occurrences instead of over the whole text.
"""

import re
from dataclasses import dataclass

from .signals import PATTERNS, Pattern

_WORD = re.compile(r"[a-z]+")
# A window reaches this far either side of a trigger occurrence. The longest match any pattern
# made on the evaluation corpus spans under 100 characters; a longer one would need filler
# far beyond what the table's phrases allow.
_REACH = 200
# Beyond this many trigger occurrences, windows cost more than one scan of the whole text.
_MAX_WINDOWS = 16
# The word table grows with the vocabulary seen; a text of random letters (an encoded blob)
# could grow it without end, so it starts over past this size.
_WORD_TABLE_LIMIT = 200_000
_NOTHING: frozenset[str] = frozenset()


def _key(trigger: str) -> str:
    """What is looked up for a trigger: its longest run of letters, which lies inside one word
    wherever the trigger occurs; a trigger without letters is searched for as it is."""
    runs = _WORD.findall(trigger)
    return max(runs, key=len) if runs else trigger


@dataclass(frozen=True)
class _Gate:
    """One pattern's trigger groups as keys: every group needs one key present."""

    pattern: Pattern
    groups: tuple[frozenset[str], ...]


_GATES: tuple[_Gate, ...] = tuple(
    _Gate(p, tuple(frozenset(map(_key, group)) for group in p.triggers)) for p in PATTERNS
)
_ALL_KEYS = frozenset(k for gate in _GATES for group in gate.groups for k in group)
_LETTER_KEYS = frozenset(k for k in _ALL_KEYS if k.isalpha())
_OTHER_KEYS = tuple(sorted(_ALL_KEYS - _LETTER_KEYS))
# key -> the gates it can open, so a text's keys lead straight to its few candidate patterns.
_GATES_BY_KEY: dict[str, tuple[int, ...]] = {
    key: tuple(i for i, gate in enumerate(_GATES) if any(key in group for group in gate.groups)) for key in _ALL_KEYS
}


# Letter keys by their first two letters, so a new word is checked against a handful of keys.
_BY_PREFIX: dict[str, tuple[str, ...]] = {}
for _k in sorted(_LETTER_KEYS):
    _BY_PREFIX[_k[:2]] = _BY_PREFIX.get(_k[:2], ()) + (_k,)
_SHORT_KEYS = tuple(k for k in _LETTER_KEYS if len(k) < 2)


class _WordTable(dict):
    """word -> the letter keys it contains, computed on first sight."""

    def __missing__(self, word: str) -> frozenset[str]:
        found = {key for i in range(len(word) - 1) for key in _BY_PREFIX.get(word[i : i + 2], ())
                 if word.startswith(key, i)}
        found.update(k for k in _SHORT_KEYS if k in word)
        value = frozenset(found) if found else _NOTHING
        if len(self) >= _WORD_TABLE_LIMIT:
            self.clear()
        self[word] = value
        return value


_WORD_TABLE = _WordTable()


def _windows(text: str, keys: list[str]) -> list[tuple[int, int]]:
    """Merged windows around every occurrence of `keys`."""
    spots = []
    for key in keys:
        at = text.find(key)
        while at >= 0:
            spots.append((max(0, at - _REACH), at + len(key) + _REACH))
            at = text.find(key, at + 1)
    spots.sort()
    merged = [spots[0]]
    for start, end in spots[1:]:
        if start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def candidates(text: str) -> list[tuple[Pattern, list[tuple[int, int]]]]:
    """The patterns that can match the folded `text`, each with the spans worth searching."""
    present = set(_NOTHING.union(*map(_WORD_TABLE.__getitem__, set(_WORD.findall(text)))))
    present.update(k for k in _OTHER_KEYS if k in text)
    opened = sorted({i for key in present for i in _GATES_BY_KEY[key]})
    whole = [(0, len(text))]
    plan = []
    for index in opened:
        gate = _GATES[index]
        # The group with the fewest occurrences places the windows: every match contains one.
        best: list[str] = []
        fewest = _MAX_WINDOWS + 1
        for group in gate.groups:
            keys = [k for k in group if k in present]
            if not keys:
                break
            occurrences = sum(map(text.count, keys))
            if occurrences < fewest:
                best, fewest = keys, occurrences
        else:
            plan.append((gate.pattern, _windows(text, best) if best else whole))
    return plan
