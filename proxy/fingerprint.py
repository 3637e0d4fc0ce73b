"""Fingerprints of instruction-shaped passages, to recognize a withheld payload when it comes back.

A fingerprint is the hash of eight consecutive words (case-folded, NFKC), so a payload is
recognized inside other text and around small rewordings. Only windows that touch a
detector signal are stored for a withheld field: ordinary boilerplate that sat next to a
payload never withholds a later, harmless field.
"""

import re
import unicodedata
import zlib
from collections.abc import Iterable

from .detect import detect

WINDOW = 8
MIN_WORDS = 4  # a text shorter than a window is one fingerprint if it has at least this many words
_WORD = re.compile(r"[^\W_]+")


def _code(word: str) -> int:
    return zlib.crc32(unicodedata.normalize("NFKC", word).casefold().encode("utf-8", "surrogatepass"))


def _window_hash(codes: list[int]) -> int:
    # hash() of a tuple of ints is the same in every process (only str/bytes hashing is
    # salted), so these values can be stored and compared across proxies.
    return hash(tuple(codes))


def text_fingerprints(text: str) -> set[int]:
    """Every word window of an incoming field, to look up against withheld payloads."""
    codes = [_code(word) for word in _WORD.findall(text)]
    if len(codes) < WINDOW:
        return {_window_hash(codes)} if len(codes) >= MIN_WORDS else set()
    return {_window_hash(codes[i : i + WINDOW]) for i in range(len(codes) - WINDOW + 1)}


def payload_fingerprints(texts: Iterable[str]) -> list[int]:
    """The word windows of a withheld field (and its decoded payloads) that touch a signal."""
    found: dict[int, None] = {}
    for text in texts:
        spans = [(s.start, s.end) for s in detect(text).signals if s.end > s.start]
        if not spans:
            continue
        words = list(_WORD.finditer(text))
        codes = [_code(match.group()) for match in words]
        marked = [any(start < match.end() and match.start() < end for start, end in spans) for match in words]
        if len(codes) < WINDOW:
            if len(codes) >= MIN_WORDS and any(marked):
                found[_window_hash(codes)] = None
            continue
        for i in range(len(codes) - WINDOW + 1):
            if any(marked[i : i + WINDOW]):
                found[_window_hash(codes[i : i + WINDOW])] = None
    return list(found)
