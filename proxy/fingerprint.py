"""Fingerprints of instruction-shaped sentences, to recognize a withheld payload when it comes back."""

import hashlib
import re
import unicodedata
from collections.abc import Iterable

from .detect import detect

# A sentence ends at . ! ? or a line break; shorter sentences than this are too common to trust.
_SENTENCE = re.compile(r"[^.!?\n]+")
_NOT_WORD = re.compile(r"[\W_]+")
MIN_LETTERS = 24
MAX_SENTENCES = 4096


def _normal(sentence: str) -> str:
    return _NOT_WORD.sub(" ", unicodedata.normalize("NFKC", sentence).casefold()).strip()


def _hash(normal: str) -> int:
    # 63 bits, so the value fits SQLite's signed integers.
    return int.from_bytes(hashlib.blake2b(normal.encode("utf-8", "surrogatepass"), digest_size=8).digest()) >> 1


def sentences(text: str) -> Iterable[str]:
    """Normalized sentences long enough to fingerprint (at most MAX_SENTENCES per text)."""
    count = 0
    for match in _SENTENCE.finditer(text):
        normal = _normal(match.group())
        if len(normal) >= MIN_LETTERS:
            yield normal
            count += 1
            if count >= MAX_SENTENCES:
                return


def text_fingerprints(text: str) -> set[int]:
    """Every sentence of an incoming field, to look up against withheld payloads."""
    return {_hash(normal) for normal in sentences(text)}


def payload_fingerprints(texts: Iterable[str]) -> list[int]:
    """The sentences of a withheld field (and of its decoded hidden payloads) that carry a signal.

    Only instruction-shaped sentences count, so ordinary boilerplate that happened to sit next
    to a payload never withholds a later, harmless field.
    """
    found: dict[int, None] = {}
    for text in texts:
        for match in _SENTENCE.finditer(text):
            if len(found) >= MAX_SENTENCES:
                return list(found)
            normal = _normal(match.group())
            if len(normal) >= MIN_LETTERS and detect(match.group()).signals:
                found[_hash(normal)] = None
    return list(found)
