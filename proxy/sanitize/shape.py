"""Text reduced to one byte per ASCII character class, so a prefilter runs at C speed.

A regex that looks for a class of characters visits every position in turn; most fields hold
nothing the sanitizer or the detector wants, and proving that is the bulk of their work. Encoding
the text and translating it through a 256-byte table is a few C loops, after which `bytes in`
answers "is there a run of 24 base64 characters?" at memory speed. The answer only decides
whether the exact regex runs; it never replaces it.
"""

from __future__ import annotations

# `has_run` shapes a long text this many characters at a time: two buffers of this size stay in
# the CPU cache and are reused, where a whole-text shape is fresh memory the kernel must map in.
_PIECE = 1 << 16


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
        self._others = {symbol: bytes(b for b in range(256) if table[b] != ord(symbol)) for symbol in classes.values()}

    def of(self, text: str) -> bytes:
        """One symbol per byte of the UTF-8 text."""
        return text.encode("utf-8", "surrogatepass").translate(self._table)

    def has_run(self, text: str, symbol: str, length: int) -> bool:
        """Whether `length` characters of the class `symbol` stand in a row in `text`.

        Same answer as `symbol * length in of(text)`, about half the time on a long text. Pieces
        overlap by `length - 1` characters, so a run across a piece boundary lies whole in one.
        """
        needle = symbol.encode() * length
        for start in range(0, len(text), _PIECE):
            piece = text[start : start + _PIECE + length - 1]
            if needle in piece.encode("utf-8", "surrogatepass").translate(self._table):
                return True
        return False

    def holds(self, text: str, symbol: str) -> bool:
        """Whether some character of `text` is in the class `symbol` stands for.

        Same answer as `symbol in of(text)`, twice as fast on a long text: deleting every byte
        of the other classes leaves an output that is empty for most text, so only the input's
        memory is touched, not a second buffer as large.
        """
        return bool(text.encode("utf-8", "surrogatepass").translate(None, self._others[symbol]))
