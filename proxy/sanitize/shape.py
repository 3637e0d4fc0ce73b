"""Text reduced to one byte per ASCII character class, so a prefilter runs at C speed.

A regex that looks for a class of characters visits every position in turn; most fields hold
nothing the sanitizer or the detector wants, and proving that is the bulk of their work. Encoding
the text and translating it through a 256-byte table is a few C loops, after which `bytes in`
answers "is there a run of 24 base64 characters?" at memory speed. The answer only decides
whether the exact regex runs; it never replaces it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# Tests shape a long text this many characters at a time: two buffers of this size stay in the
# CPU cache and are reused, where a whole-text shape is fresh memory the kernel must map in.
_PIECE = 1 << 16
# Every ASCII byte: what `beyond_ascii` deletes from the UTF-8 text.
_ASCII_BYTES = bytes(range(0x80))


def beyond_ascii(text: str) -> str:
    """The characters of `text` outside ASCII, in order (what `[^\\x00-\\x7f]` finds, joined).

    A regex visits every character to find the few outside ASCII; in UTF-8 each byte of such a
    character is 0x80 or above and each ASCII character one byte below, so deleting the ASCII bytes
    leaves their encodings alone, in two C loops. A long text is read a piece at a time.
    """
    if len(text) > _PIECE:
        return "".join(
            map(beyond_ascii, (text[i : i + _PIECE] for i in range(0, len(text), _PIECE)))
        )
    encoded = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES)
    return encoded.decode("utf-8", "surrogatepass")


class Shape:
    """Maps ASCII characters to class symbols and everything else to `other`.

    Text is encoded as UTF-8 (lone surrogates passed through): each byte of a non-ASCII character
    is 0x80 or above, so it maps to `other` and never stands for a member of an ASCII class.
    """

    def __init__(self, classes: dict[str, str], other: str = "~") -> None:
        table = bytearray(ord(other) for _ in range(256))
        for members, symbol in classes.items():
            if not members.isascii():
                raise ValueError("a shape class holds ASCII characters only")
            for ch in members:
                table[ord(ch)] = ord(symbol)
        self._table = bytes(table)
        # Per symbol, every byte that does not map to it: what `holds` deletes.
        self._others = {
            symbol: bytes(b for b in range(256) if table[b] != ord(symbol))
            for symbol in classes.values()
        }

    def of(self, text: str) -> bytes:
        """One symbol per byte of the UTF-8 text."""
        return text.encode("utf-8", "surrogatepass").translate(self._table)

    def of_characters(self, text: str) -> bytes:
        """One symbol per character: an ASCII one by its class, any other as `other`, like the
        bytes `of` gives it (for a shape whose classes leave `?` out, which stands in for it).
        A copy the size of the text's characters, not of its UTF-8 bytes."""
        return text.encode("ascii", "replace").translate(self._table)

    def has_run(self, text: str, symbol: str, length: int) -> bool:
        """Whether `length` characters of the class `symbol` stand in a row in `text`.

        Same answer as `symbol * length in of(text)`, about half the time on a long text. Pieces
        overlap by `length - 1` characters, so a run across a piece boundary lies whole in one.
        """
        needle = symbol.encode() * length
        if len(text) <= _PIECE:
            return needle in self.of(
                text
            )  # one piece: most fields are short, spare them the generator
        return any(needle in shaped for shaped in self._pieces(text, length))

    def search(self, pattern: re.Pattern, text: str, reach: int) -> bool:
        """Whether `pattern` (of at most `reach` bytes a match) finds something in `of(text)`.

        Pieces overlap by `reach - 1` characters, so every match lies whole in one; a pattern that
        reads `\\Z` may also match at a piece's end (the answer is a prefilter's: never a false no).
        """
        if len(text) <= _PIECE:
            return (
                bool(text) and pattern.search(self.of(text)) is not None
            )  # as the pieces: none for ""
        return any(pattern.search(shaped) for shaped in self._pieces(text, reach))

    def _pieces(self, text: str, reach: int) -> Iterator[bytes]:
        """`of(text)` a piece at a time, each piece reaching `reach - 1` characters into the next."""
        for start in range(0, len(text), _PIECE):
            yield self.of(text[start : start + _PIECE + reach - 1])

    def holds(self, text: str, symbol: str) -> bool:
        """Whether some character of `text` is in the class `symbol` stands for.

        Same answer as `symbol in of(text)`, twice as fast on a long text: deleting every byte
        of the other classes leaves an output that is empty for most text, so only the input's
        memory is touched, not a second buffer as large.
        """
        others = self._others[symbol]
        if len(text) <= _PIECE:
            return bool(text.encode("utf-8", "surrogatepass").translate(None, others))
        # A piece at a time: a whole-text encoding would be a second copy of a large text.
        return any(
            text[start : start + _PIECE].encode("utf-8", "surrogatepass").translate(None, others)
            for start in range(0, len(text), _PIECE)
        )
