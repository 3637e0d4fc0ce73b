"""The fingerprints of withheld payloads a cleaner looks for, kept in memory beside the store."""

from typing import TYPE_CHECKING

from .anchor_scan import AnchorScan
from .fingerprint import WindowPrint, anchor_words, fingerprint_batches, line_words

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI


class FingerprintIndex:
    """The fingerprints of withheld payloads, kept in memory and topped up from the store."""

    def __init__(self, store: "StoreAPI") -> None:
        self._store = store
        self._known: set[int] = set()
        # Anchor codes of the known windows; None once a row without one (an older store) is read.
        self._anchors: set[int] | None = set()
        # The anchor words themselves, while every anchor came with its word: a row stored without
        # one (an older store, or a station that does not show withheld words) ends the literal
        # scan, and every line's words are coded as before.
        self._words: AnchorScan | None = AnchorScan()
        self._rowid = 0
        self._version: int | None = None

    def active(self) -> bool:
        """Whether any payload is known at all, after reading what other processes withheld since.

        The rows are read only when the store's version moved: a moment's `pread` of its beacon
        while nothing was committed (see `Store.data_version`).
        """
        version = self._store.data_version()
        if version != self._version:
            for rowid, fingerprint, anchor, word in self._store.quarantine.fingerprints_since(
                self._rowid
            ):
                self._add(fingerprint, anchor, word)
                self._rowid = rowid
            self._version = version
        return bool(self._known)

    def matches(self, text: str) -> list[int]:
        """The fingerprints of `text` that belong to some withheld payload (call `active` first)."""
        found: set[int] = set()
        for batch in fingerprint_batches(text, self._anchors, self._words):
            found.update(self._known.intersection(batch))
        return list(found)

    def anchors_in_line(self, line: bytes) -> set[str] | None:
        """The anchor words of withheld windows that occur in this plain JSON line, lower-cased: a
        field of the line can repeat a withheld window only if it holds one of them. None when the
        index cannot tell (it read a window stored without an anchor). Call `active` first."""
        if self._anchors is None:
            return None
        if self._words is None:
            return anchor_words(line_words(line), self._anchors)
        # Every word of the line is a substring of it: most lines hold no anchor word at all.
        found = self._words.found_in(line.lower())
        return {word.decode() for word in line_words(line) & found} if found else set()

    def add(self, fingerprints: list[WindowPrint]) -> None:
        """Remember the windows this process just stored."""
        for fingerprint, anchor, word in fingerprints:
            self._add(fingerprint, anchor, word)

    def _add(self, fingerprint: int, anchor: int | None, word: str | None) -> None:
        self._known.add(fingerprint)
        if anchor is None:
            self._anchors = None
            return
        if self._anchors is not None:
            self._anchors.add(anchor)
        if word is None:
            self._words = None
        elif self._words is not None:
            self._words.add(word)
