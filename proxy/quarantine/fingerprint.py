"""Fingerprints of instruction-shaped passages, to recognize a withheld payload when it comes back.

A fingerprint is the hash of eight consecutive words (case-folded, NFKC), so a payload is
recognized inside other text and around small rewordings. Only the instruction-shaped sentences
of a withheld field are fingerprinted: the windows that lie within a run of sentences a detector
signal falls in, and hold no word of a URL. A header, a URL or any boilerplate that sat next to a
payload, and that recurs in a server's other results, is never part of a fingerprint.
"""

import re
import unicodedata
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from itertools import compress, count
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .anchor_scan import AnchorScan

WINDOW = 8
MIN_WORDS = 4  # a text shorter than a window is one fingerprint if it has at least this many words


@cache
def _word() -> re.Pattern[str]:
    return re.compile(r"[^\W_]+")


# Where a sentence ends: after ., ! or ? before a space, and at every line break.
@cache
def _sentence_end() -> re.Pattern[str]:
    return re.compile(r"[.!?]+(?=\s)|\n")


# URLs, and markdown link targets: their words (a host, a path) are the page's address, not what
# an instruction says.
@cache
def _url() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s<>\"')\]]*|\]\([^)\s]*\)")


@cache
def _word_rest() -> re.Pattern[str]:
    return re.compile(r"[^\W_]*")


# Characters of a field coded at a time; and around a signal of a larger withheld field, the
# characters read for the words of its windows.
_PIECE = 1 << 18
_REGION_MARGIN = 4096


# A JSON escape that puts a letter before the next word (`\nword`), see line_words.
@cache
def _letter_escape() -> re.Pattern[bytes]:
    return re.compile(rb"\\[bfnrt]")


# Bytes that are not ASCII letters or digits become spaces: what is left splits into _word's words.
_ASCII_WORDS = bytes(c if chr(c).isascii() and chr(c).isalnum() else 0x20 for c in range(256))


# Words repeat: most of a field's words were coded before, and a lookup costs a tenth of the
# normalization and checksum. Bounded by emptying, which only costs the next fields a recount.
_CACHE_LIMIT = 200_000


def folded(word: str) -> str:
    """A word as its code reads it: NFKC, case-folded (lower-cased, for ASCII)."""
    return unicodedata.normalize("NFKC", word).casefold()


class _WordCodes(dict):
    """word -> its code, computed on first use."""

    def __missing__(self, word: str) -> int:
        if len(self) >= _CACHE_LIMIT:
            self.clear()
        code = self[word] = zlib.crc32(folded(word).encode("utf-8", "surrogatepass"))
        return code


_codes = _WordCodes()


def _window_hash(codes: list[int]) -> int:
    # hash() of a tuple of ints is the same in every process (only str/bytes hashing is
    # salted), so these values can be stored and compared across proxies.
    return hash(tuple(codes))


class WindowPrint(NamedTuple):
    """A withheld window's fingerprint, with the code of its anchor (its longest word) and the
    anchor itself as its code reads it (see `folded`)."""

    fingerprint: int
    anchor: int
    word: str


class _Piece(NamedTuple):
    """The words of a piece of text, what codes one of them, and the piece lower-cased when it
    is ASCII (its words are then all substrings of it), else None."""

    words: list
    code: Callable[[Any], int]
    lowered: bytes | None


def _words(text: str) -> _Piece:
    """The words of `text` and what codes one of them."""
    if text.isascii():
        # The same words and codes as _word and _codes give (NFKC and case folding of ASCII are a
        # lower-casing), split and checksummed in C: a fifth of the time on ordinary prose.
        lowered = text.encode().lower()
        return _Piece(lowered.translate(_ASCII_WORDS).split(), zlib.crc32, lowered)
    return _Piece(_word().findall(text), _codes.__getitem__, None)


def line_words(line: bytes) -> set[bytes]:
    """Every word, lower-cased, that any string of a JSON line (ASCII, no \\u escapes) may contain.

    A word right after a letter escape (`\\nword`) is split off as well as read whole, so the
    set holds every word of every decoded string, plus some that are in none: enough to rule out.
    """
    lowered = line.lower()
    words = set(lowered.translate(_ASCII_WORDS).split())
    if b"\\" in lowered:
        words.update(_letter_escape().sub(b" ", lowered).translate(_ASCII_WORDS).split())
    return words


def anchor_words(words: Iterable[bytes], anchors: set[int]) -> set[str]:
    """Those of `words` (lower-case ASCII) whose code is among `anchors`."""
    return {word.decode() for word in words if zlib.crc32(word) in anchors}


def fingerprint_batches(
    text: str, anchors: set[int] | None = None, words_of: "AnchorScan | None" = None
) -> Iterator[set[int]]:
    """The word windows of an incoming field, to look up against withheld payloads, a piece of the
    text at a time: a large field's words and windows never all exist at once (a word is a Python
    object, ten times the size of its text).

    With `anchors` (the code of the longest word of every withheld window), only windows that
    hold one of them are hashed: a piece that holds no such word, nor does what it carries over,
    has only its last few words coded. Whether it holds one is told by coding its distinct words
    (prose repeats most of its words), or, for an ASCII piece when `words_of` holds the anchors'
    own words (those of every one of `anchors` that an ASCII text can spell), by one literal
    scan: a word of the piece is a substring of it.
    """
    carry: list[int] = []  # the last WINDOW - 1 codes, which start windows ending in the next piece
    short = True  # fewer than WINDOW words so far
    for words, code, lowered in _word_pieces(text):
        if (
            anchors is not None
            and len(carry) + len(words) >= WINDOW
            and anchors.isdisjoint(carry)
            and (
                not words_of.found_in(lowered)
                if words_of is not None and lowered is not None
                else anchors.isdisjoint(map(code, set(words)))
            )
        ):
            short = False
            carry = (carry + list(map(code, words[1 - WINDOW :])))[1 - WINDOW :]
            continue
        codes = carry + list(map(code, words))
        if len(codes) < WINDOW:
            carry = codes
            continue
        short = False
        yield _windows(codes, anchors)
        carry = codes[len(codes) - WINDOW + 1 :]
    if short and len(carry) >= MIN_WORDS:
        yield {_window_hash(carry)}


def _word_pieces(text: str) -> Iterator[_Piece]:
    """The words of `text` (see `_words`), about _PIECE characters at a time, cut only between words."""
    size, start = len(text), 0
    if size <= _PIECE:
        yield _words(text)
        return
    while start < size:
        rest = _word_rest().match(text, min(start + _PIECE, size))
        assert rest is not None  # a starred class matches everywhere, if only the empty string
        end = rest.end()
        yield _words(text[start:end])
        start = end


def _windows(codes: list[int], anchors: set[int] | None) -> set[int]:
    """The hashes of the windows of `codes` (at least WINDOW of them), or of those holding an anchor."""
    if anchors is not None:
        if anchors.isdisjoint(codes):
            return set()
        last = len(codes) - WINDOW
        starts = set()
        # The anchors' places, picked out in C: a Python loop over every word of a large field
        # cost more than all the hashing.
        for i in compress(count(), map(anchors.__contains__, codes)):
            starts.update(range(max(0, i - WINDOW + 1), min(i, last) + 1))
        return {_window_hash(codes[i : i + WINDOW]) for i in starts}
    # Every window as a tuple, built and hashed in C: zip of the list shifted 0..WINDOW-1 places.
    return set(map(hash, zip(*(codes[k:] for k in range(WINDOW)), strict=False)))


def payload_fingerprints(
    passages: Iterable[tuple[str, Sequence[tuple[int, int]]]],
) -> list[WindowPrint]:
    """The fingerprints of the word windows of a withheld field (and its decoded payloads) that
    touch a signal, given each text with its signal spans (`FieldVerdict.passages`), each with its
    anchor: the window's longest word (the first of equals). Long words are the rare ones, so few
    incoming fields hold an anchor at all."""
    found: dict[int, WindowPrint] = {}
    for text, spans in passages:
        for start, end in _regions(text, spans):
            words = [
                m
                for m in _word().finditer(text, start, end)
                if (m.start() > start or start == 0) and (m.end() < end or end == len(text))
            ]
            _signal_windows(words, _sentences(text, start, end, words), spans, found)
    return list(found.values())


def _sentences(text: str, start: int, end: int, words: list[re.Match]) -> list[int | None]:
    """Each word's sentence number within text[start:end], or None for a word of a URL."""
    ends = [m.start() for m in _sentence_end().finditer(text, start, end)]
    urls = [(m.start(), m.end()) for m in _url().finditer(text, start, end)]
    numbers: list[int | None] = []
    sentence = url = 0
    for match in words:
        while sentence < len(ends) and ends[sentence] < match.start():
            sentence += 1
        while url < len(urls) and urls[url][1] <= match.start():
            url += 1
        inside = url < len(urls) and urls[url][0] <= match.start()
        numbers.append(None if inside else sentence)
    return numbers


def _regions(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Where the windows touching `spans` lie: the whole of a small text; around each span of a
    large one (merged), so its millions of words are never listed. A word cut by a region's edge
    is left out; a window that reaches past _REGION_MARGIN characters of words is not stored."""
    if not spans:
        return []
    if len(text) <= _PIECE:
        return [(0, len(text))]
    regions: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        start, end = max(0, start - _REGION_MARGIN), min(len(text), end + _REGION_MARGIN)
        if regions and start <= regions[-1][1]:
            regions[-1] = (regions[-1][0], max(end, regions[-1][1]))
        else:
            regions.append((start, end))
    return regions


def _touched(words: list[re.Match], spans: Sequence[tuple[int, int]]) -> list[bool]:
    """For each word (in text order), whether some span overlaps it: one sweep over the spans
    sorted by start, not every span tried against every word."""
    ordered = sorted(spans)
    touched, taken, reach = [], 0, -1  # reach: the furthest end of the spans starting before here
    for match in words:
        start, end = match.span()
        while taken < len(ordered) and ordered[taken][0] < end:
            reach = max(reach, ordered[taken][1])
            taken += 1
        touched.append(reach > start)
    return touched


def _signal_windows(
    words: list[re.Match],
    sentences: list[int | None],
    spans: Sequence[tuple[int, int]],
    found: dict[int, WindowPrint],
) -> None:
    codes = [_codes[match.group()] for match in words]
    sizes = [match.end() - match.start() for match in words]
    # A sentence is instruction-shaped when a signal falls on one of its words (not on a URL's).
    shaped = {
        number
        for match, number in zip(_touched(words, spans), sentences, strict=True)
        if number is not None and match
    }
    # Windows may run over consecutive instruction-shaped sentences, never into another one.
    inside = [number is not None and number in shaped for number in sentences]
    if not inside or not any(inside):
        return

    def window(i: int, n: int) -> None:
        longest = max(range(i, i + n), key=sizes.__getitem__)
        fingerprint = _window_hash(codes[i : i + n])
        found[fingerprint] = WindowPrint(
            fingerprint, codes[longest], folded(words[longest].group())
        )

    if len(codes) < WINDOW:
        # A field too short for a window is matched whole (see fingerprint_batches).
        if len(codes) >= MIN_WORDS and all(inside):
            window(0, len(codes))
        return
    run = 0  # how many words up to here lie in instruction-shaped sentences without a break
    for i, ok in enumerate(inside):
        run = run + 1 if ok else 0
        if run >= WINDOW:
            window(i - WINDOW + 1, WINDOW)
