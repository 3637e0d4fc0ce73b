"""The anchor words of withheld windows, looked for in a line by one literal scan.

A line holds a window of a withheld payload only if it holds the window's anchor word, and a
word of a lower-cased ASCII line is a substring of it: a line in which no anchor word occurs at
all is ruled out without splitting it into words. A hit is only a maybe (the word may sit inside
a longer one); the caller then tests words exactly.
"""

from collections.abc import Callable
from typing import Any

_LINE_WORD = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789")


class AnchorScan:
    """The anchor words a lower-cased ASCII text can hold, and which of them one holds."""

    def __init__(self) -> None:
        self._words: list[bytes] = []
        self._known: set[bytes] = set()
        # Compiled in memory on the first scan after a word was added, never kept on disk: the
        # words are withheld content. None while nothing is compiled (or on the plain path).
        self._database = None
        self._compiled = 0  # how many of _words the database holds
        # Hyperscan and its scan, loaded on the first scan with a word to look for: a proxy with
        # nothing withheld never loads them for this. _plain is None until then.
        self._hyperscan: Any = None
        self._scan_block: Callable[..., None] | None = None
        self._plain: bool | None = None

    def __len__(self) -> int:
        return len(self._words)

    def add(self, word: str) -> None:
        """Remember an anchor word (as `fingerprint.folded` gives it). A word an ASCII line cannot
        hold as one of its words (one with a non-ASCII letter) is left out: it is in no line."""
        data = word.encode("utf-8", "surrogatepass")
        if data and _LINE_WORD.issuperset(data) and data not in self._known:
            self._known.add(data)
            self._words.append(data)

    def found_in(self, lowered: bytes) -> set[bytes]:
        """The anchor words that occur in `lowered` (lower-cased ASCII), whole words or not."""
        if not self._words:
            return set()
        database = self._current()
        if database is None or self._scan_block is None:  # the plain path
            return {word for word in self._words if word in lowered}
        hits: list[int] = []
        self._scan_block(database, lowered, lambda index, *_: hits.append(index))
        return {self._words[index] for index in hits}

    def _current(self):
        """The compiled database of every word, rebuilt when words were added since; None on the
        plain path (no Hyperscan, or LAZARETTO_PLAIN_ENGINE set)."""
        if self._plain is None:
            from ..matcher import engine

            self._hyperscan, self._scan_block = engine.hyperscan_in_use(), engine.scan_block
            self._plain = self._hyperscan is None
        if self._plain:
            return None
        hs: Any = self._hyperscan  # not None past the plain path
        if self._compiled != len(self._words):
            words = self._words[:]  # words only ever append: an index names the same word later
            database = hs.Database(mode=hs.HS_MODE_BLOCK)
            # Letters and digits only: each word is its own literal pattern.
            database.compile(
                expressions=words,
                ids=list(range(len(words))),
                elements=len(words),
                flags=[hs.HS_FLAG_SINGLEMATCH] * len(words),
            )
            self._database, self._compiled = database, len(words)
        return self._database
