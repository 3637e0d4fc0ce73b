"""Fold text to the plain lower-case ASCII form the detector's patterns are written for.

Attackers reword around filters with look-alike letters, compatibility forms, zero-width
characters and spaced-out words. The patterns never see any of that: they read a folded copy,
and every match is mapped back to a span of the original through `Folded.original_span`.
"""

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

from ..sanitize.shape import Shape

# Letters from other scripts that render like Latin ones. NFKD does not fold these, because
# they are distinct letters to Unicode; to a reader (and a model) they are the Latin letter.
_CONFUSABLE_PAIRS = (
    # Cyrillic lower and upper case
    "аa вb еe кk мm нh оo рp сc тt уy хx іi јj ѕs ԁd ԛq ԝw һh ӏl ɡg"
    " АA ВB ЕE КK МM НH ОO РP СC ТT УY ХX ІI ЈJ ЅS"
    # Greek lower and upper case
    " αa βb εe ιi κk νv οo ρp τt υu χx ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX"
)
CONFUSABLES: dict[str, str] = {pair[0]: pair[1].lower() for pair in _CONFUSABLE_PAIRS.split()}
CONFUSABLES["ı"] = "i"  # dotless i: NFKD leaves it alone

# Categories dropped while folding: combining marks (accents, Zalgo stacks, variation
# selectors) and format characters (zero-width joiners, bidi controls, tag characters).
_DROPPED_CATEGORIES = frozenset({"Mn", "Me", "Cf"})

_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")
# A word spelled as single letters with one repeated separator: "i g n o r e", "i.g.n.o.r.e".
# The separator is captured and required again (a backreference), so a sentence full of
# one-letter words and mixed punctuation is left alone; the look-behind keeps matching to
# run starts, so a long run is scanned once.
_SPACED_LETTERS = re.compile(
    r"(?<![a-z0-9])(?<![a-z0-9][ ._*\-/|])[a-z]([ ._*\-/|])[a-z](?:\1[a-z])+(?![a-z0-9])"
)
# What the end of every such run looks like: separator, letter, the same separator, a last
# letter. It starts with a separator, so the regex engine skips ahead cheaply, and most text
# never matches it; the full pattern above runs only on text that does.
_SPACED_LETTERS_END = re.compile(r"([ ._*\-/|])[a-z]\1[a-z](?![a-z0-9])")
# Where a spaced word can be at all: a separator, a letter, a separator, a letter, a non-letter
# (any separators, unlike the pattern). Tested on the text's shape, at C speed.
_SPACED_SHAPE = Shape({"abcdefghijklmnopqrstuvwxyz": "a", "0123456789": "0"}, ".")
# Searched for with a regex rather than `bytes in`: on a two-symbol string the substring search
# can barely skip, while the regex engine's prefix search does (five times faster on prose).
_SPACED_SHAPE_RUN = re.compile(rb"\.a\.a(?:\.|\Z)")
_ESCAPED_BREAK = re.compile(r"\\[nrt]")
# ASCII control characters other than tab and newline, which some terminals act on (ANSI escapes).
_ASCII_INVISIBLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]+")
_ASCII_INVISIBLE_SHAPE = Shape({"".join(map(chr, [*range(0x09), *range(0x0B, 0x20), 0x7F])): "c"})


class _FoldTable(dict):
    """str.translate table that folds each non-ASCII character on first sight and remembers it."""

    def __missing__(self, code: int) -> str:
        folded = []
        for ch in unicodedata.normalize("NFKD", chr(code)):
            if ch in CONFUSABLES:
                folded.append(CONFUSABLES[ch])
            elif unicodedata.category(ch) not in _DROPPED_CATEGORIES:
                folded.append(ch.lower())
        value = "".join(folded)
        self[code] = value
        return value


_FOLD_TABLE = _FoldTable()


@dataclass(frozen=True)
class _Edit:
    """One replaced stretch: where it sits in the new text and where it came from."""

    new_start: int
    new_len: int
    old_start: int
    old_len: int


def _old_position(edits: list[_Edit], starts: list[int], pos: int) -> int:
    index = bisect_right(starts, pos) - 1
    if index < 0:
        return pos
    edit = edits[index]
    if pos < edit.new_start + edit.new_len:
        return edit.old_start + min(pos - edit.new_start, edit.old_len)
    return edit.old_start + edit.old_len + (pos - edit.new_start - edit.new_len)


def _substitute(pattern: re.Pattern, text: str, replace) -> tuple[str, list[_Edit]]:
    """re.sub that records every length-changing replacement for mapping spans back."""
    edits: list[_Edit] = []
    delta = 0

    def record(match: re.Match) -> str:
        nonlocal delta
        new = replace(match)
        start, end = match.span()
        if len(new) != end - start:
            edits.append(_Edit(start + delta, len(new), start, end - start))
            delta += len(new) - (end - start)
        return new

    return pattern.sub(record, text), edits


def _fold_non_ascii(text: str) -> tuple[str, list[_Edit]]:
    """Fold each non-ASCII run; record an edit per character whose folded length differs, so
    spans stay exact (a run that folds one-to-one, such as CJK text, records nothing)."""
    pieces: list[str] = []
    edits: list[_Edit] = []
    last = 0
    out = 0  # length of the output so far
    for match in _NON_ASCII_RUN.finditer(text):
        start, end = match.span()
        pieces.append(text[last:start])
        out += start - last
        run = match.group()
        folded = run.translate(_FOLD_TABLE)
        if len(folded) == len(run):
            pieces.append(folded)
            out += len(run)
        else:
            for offset, ch in enumerate(run):
                piece = _FOLD_TABLE[ord(ch)]
                if len(piece) != 1:
                    edits.append(_Edit(out, len(piece), start + offset, 1))
                pieces.append(piece)
                out += len(piece)
        last = end
    pieces.append(text[last:])
    return "".join(pieces), edits


@dataclass(frozen=True)
class Folded:
    """The folded text, and the edits that lead from it back to the original."""

    text: str
    _stages: tuple[tuple[list[_Edit], list[int]], ...]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Map a span of the folded text to the span of the original it came from."""
        for edits, starts in self._stages:
            if edits:
                start, end = _old_position(edits, starts, start), _old_position(edits, starts, end)
        return start, end


def fold(text: str) -> Folded:
    """NFKC-like compatibility folding, confusables to ASCII, invisibles removed, lower case,
    spaced-out letters re-joined."""
    stages = []
    if not text.isascii():
        text, edits = _fold_non_ascii(text)
        stages.append(edits)
    if _ASCII_INVISIBLE_SHAPE.holds(text, "c"):
        text, edits = _substitute(_ASCII_INVISIBLE, text, lambda m: "")
        stages.append(edits)
    # One-to-one on what is left (the only length-changing case is folded above). Escaped line
    # breaks (text JSON- or repr-encoded once too often) read as spaces, so the word after them
    # still starts a word; same length, so no edit to record.
    text = text.lower()
    if "\\" in text:
        text = _ESCAPED_BREAK.sub("  ", text)
    if _SPACED_SHAPE.search(_SPACED_SHAPE_RUN, text, 5) and _SPACED_LETTERS_END.search(text):
        text, edits = _substitute(_SPACED_LETTERS, text, lambda m: m.group()[::2])
        stages.append(edits)
    # Spans are mapped back through the stages in reverse order of application.
    ordered = tuple((edits, [e.new_start for e in edits]) for edits in reversed(stages))
    return Folded(text, ordered)


# A word containing a look-alike letter. Matching only from word starts keeps this linear.
_WORD_WITH_CONFUSABLE = re.compile(r"(?<!\w)\w*[" + "".join(sorted(CONFUSABLES)) + r"]\w*")
# Characters walked back in Python to a word's start before the regex is left to find it.
_LONGEST_WALK = 64
# A class search skips ahead in C; the word pattern above tries every position, so it runs only
# on text that holds a look-alike at all.
_ANY_CONFUSABLE = re.compile("[" + "".join(sorted(CONFUSABLES)) + "]")


def _confusable_words(text: str):
    """What `_WORD_WITH_CONFUSABLE.finditer` finds, without trying every word start on the way.

    No match can start before the run of word characters that leads up to the next look-alike
    (it would have to reach a look-alike through that run's non-word neighbour), and one starts
    there; a search from the run's start finds it. A very long run is walked back by the regex.
    """
    pos = 0
    while True:
        hit = _ANY_CONFUSABLE.search(text, pos)
        if hit is None:
            return
        start = hit.start()
        floor = max(pos, start - _LONGEST_WALK)
        while start > floor and _is_word(text[start - 1]):
            start -= 1
        if start == floor and start > pos:
            start = pos  # the run goes on: let the regex search from where finditer would
        match = _WORD_WITH_CONFUSABLE.search(text, start)
        if match is None:
            return
        yield match
        pos = match.end()


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # the regex engine's own `\w` for str patterns


def mixed_script_words(text: str, limit: int = 3) -> list[tuple[int, int]]:
    """Spans of words that mix ASCII letters with look-alikes from another script (up to `limit`).

    A Russian or Greek word is not suspicious; "Рrоvıdе", half Latin and half Cyrillic, is.
    """
    if text.isascii() or not _ANY_CONFUSABLE.search(text):
        return []
    found = []
    for match in _confusable_words(text):
        if any(ch.isascii() and ch.isalpha() for ch in match.group()):
            found.append(match.span())
            if len(found) >= limit:
                break
    return found
