"""Fold text to the plain lower-case ASCII form the detector's patterns are written for.

Attackers reword around filters with look-alike letters, compatibility forms, zero-width
characters and spaced-out words. The patterns never see any of that: they read a folded copy,
and every match is mapped back to a span of the original through `Folded.original_span`.
"""

import re
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from ..matcher import engine
from ..sanitize.shape import Shape, beyond_ascii

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


# A word spelled as single letters with one repeated separator: "i g n o r e", "i.g.n.o.r.e".
# The separator is captured and required again (a backreference), so a sentence full of
# one-letter words and mixed punctuation is left alone; the look-behind keeps matching to
# run starts, so a long run is scanned once.
@cache
def _spaced_letters() -> re.Pattern[str]:
    return re.compile(
        r"(?<![a-z0-9])(?<![a-z0-9][ ._*\-/|])[a-z]([ ._*\-/|])[a-z](?:\1[a-z])+(?![a-z0-9])"
    )


# What the end of every such run looks like: separator, letter, the same separator, a last
# letter. It starts with a separator, so the regex engine skips ahead cheaply, and most text
# never matches it; the full pattern above runs only on text that does.
_SEPARATORS = " ._*-/|"


@cache
def _spaced_letters_end() -> re.Pattern[str]:
    return re.compile(rf"([{re.escape(_SEPARATORS)}])[a-z]\1[a-z](?![a-z0-9])")


# The marks a long text's folding is asked for by one compiled scan: the same ends, one per
# separator (it knows no backreference) and in either case (lowering ASCII changes no other
# character), each closed by a character that is no letter or digit (one that closes with the
# text's end is asked of the text's last characters); then the ASCII controls. Asked of a long
# ASCII text as it came, they tell whether it holds controls to drop and, when it holds none,
# whether its lower-cased copy may hold a spaced word.
_FOLD_MARKS = (
    *(f"{re.escape(sep)}[A-Za-z]{re.escape(sep)}[A-Za-z][^A-Za-z0-9]" for sep in _SEPARATORS),
    r"[\x00-\x08\x0b-\x1f\x7f]",
)
_CONTROLS = len(_FOLD_MARKS) - 1
# From this length on a text is asked by the compiled scan, which costs a call into it but reads
# a long text four times as fast as the shapes below: level with them at about 768 characters,
# 2.5 against 4.8 us at 2 KB.
_SCANNED_FROM = 1 << 10
# Where a spaced word can be at all: a separator, a letter, a separator, a letter, a non-letter
# (any separators, unlike the pattern). Tested on the text's shape, at C speed.
_SPACED_SHAPE = Shape({"abcdefghijklmnopqrstuvwxyz": "a", "0123456789": "0"}, ".")


# Searched for with a regex rather than `bytes in`: on a two-symbol string the substring search
# can barely skip, while the regex engine's prefix search does (five times faster on prose).
@cache
def _spaced_shape_run() -> re.Pattern[bytes]:
    return re.compile(rb"\.a\.a(?:\.|\Z)")


# A character no spaced word holds (nor its separator): where the substitution may cut the text.
@cache
def _outside_spaced() -> re.Pattern[str]:
    return re.compile(r"[^a-z0-9 ._*\-/|]")


SUBSTITUTION_PIECE = 1 << 13


@cache
def _escaped_line_break() -> re.Pattern[str]:
    return re.compile(r"\\n")


@cache
def _escaped_blank() -> re.Pattern[str]:
    return re.compile(r"\\[rt]")


def _unescaped_breaks(text: str) -> str:
    """Escaped line breaks (text JSON- or repr-encoded once too often) as what they encode: a tab
    as spaces, a line break as a space and a line break, so the word after them still starts a
    word and a line still ends a clause; same length, so nothing to record.

    Two substitutions by a fixed string, not one calling back for each escape (half the time):
    no escape overlaps another (each is a backslash and a letter), and the first makes none for
    the second. A regex, not `str.replace`: the regex skips to the backslash in C, where the
    substring search for two characters reads 4 KB in about as long as the whole regex takes."""
    return _escaped_blank().sub("  ", _escaped_line_break().sub(" \n", text))


# ASCII control characters other than tab and newline, which some terminals act on (ANSI escapes).
_ASCII_INVISIBLE = "".join(map(chr, [*range(0x09), *range(0x0B, 0x20), 0x7F]))
_ASCII_INVISIBLE_SHAPE = Shape({_ASCII_INVISIBLE: "c"})
_ASCII_INVISIBLE_BYTES = _ASCII_INVISIBLE.encode()
# Characters of the original between two checkpoints of a folding that changed the length: a
# folded offset is mapped back by re-folding at most this many characters.
CHECKPOINT = 64


class _FoldTable(dict):
    """str.translate table that folds each character on first sight and remembers it."""

    def __missing__(self, code: int) -> str:
        if code < 0x80:
            value = "" if chr(code) in _ASCII_INVISIBLE else chr(code).lower()
        else:
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


class _Characters:
    """A folding that replaces each character on its own (by `_FOLD_TABLE`), mapped back through
    the folded length at every CHECKPOINT-th original character: memory is a small fraction of
    the text's, and mapping one offset re-folds at most one stretch between checkpoints. The
    checkpoints are counted when a first offset is mapped (most texts have no signal to map)."""

    def __init__(self, original: str) -> None:
        self._original = original
        self._checkpoints: array | None = None

    @property
    def _marks(self) -> array:
        if self._checkpoints is None:
            self._checkpoints = array("q", [0])
            done = 0
            for start in range(0, len(self._original), CHECKPOINT):
                done += len(self._original[start : start + CHECKPOINT].translate(_FOLD_TABLE))
                self._checkpoints.append(done)
        return self._checkpoints

    def old(self, pos: int) -> int:
        """The original offset of folded offset `pos`: after every character that folded to
        nothing there, and after a character whose expansion `pos` falls inside."""
        chunk = bisect_right(self._marks, pos) - 1
        at, folded = min(chunk * CHECKPOINT, len(self._original)), self._marks[chunk]
        end = min(len(self._original), at + CHECKPOINT)
        while at < end:
            width = len(_FOLD_TABLE[ord(self._original[at])])
            if folded + width > pos:
                return at + (folded < pos)
            folded += width
            at += 1
        return at


class _Replacements:
    """A folding made of regex replacements, mapped back through every length-changing one.

    The replacements are listed when a first offset is mapped, from the text before them, as
    four 32-bit integers each (not an object: a flood of small matches would cost many times
    the text); most texts have no signal to map.
    """

    def __init__(self, before: str, pattern: re.Pattern, replace, cut: re.Pattern) -> None:
        self._before, self._pattern, self._replace, self._cut = before, pattern, replace, cut
        self._columns: tuple[array, array, array, array] | None = None

    def _list(self) -> tuple[array, array, array, array]:
        if self._columns is None:
            new_start, new_len, old_start, old_len = (array("i") for _ in range(4))
            delta = 0
            for offset, end in _stretches(self._before, self._cut):
                for match in self._pattern.finditer(self._before, offset, end):
                    width = len(self._replace(match))
                    start, size = match.start(), match.end() - match.start()
                    if width != size:
                        new_start.append(start + delta)
                        new_len.append(width)
                        old_start.append(start)
                        old_len.append(size)
                        delta += width - size
            self._columns = (new_start, new_len, old_start, old_len)
        return self._columns

    def old(self, pos: int) -> int:
        new_starts, new_lens, old_starts, old_lens = self._list()
        index = bisect_right(new_starts, pos) - 1
        if index < 0:
            return pos
        new_start, new_len = new_starts[index], new_lens[index]
        old_start, old_len = old_starts[index], old_lens[index]
        if pos < new_start + new_len:
            return old_start + min(pos - new_start, old_len)
        return old_start + old_len + (pos - new_start - new_len)


def _stretches(text: str, cut: re.Pattern):
    """(start, end) of about SUBSTITUTION_PIECE characters each, every one ending after a
    character `cut` finds (one no match can hold or look at past its neighbour)."""
    offset = 0
    while offset < len(text):
        stop = cut.search(text, min(len(text), offset + SUBSTITUTION_PIECE))
        end = stop.end() if stop else len(text)
        yield offset, end
        offset = end


def _substitute(
    pattern: re.Pattern, text: str, replace, cut: re.Pattern
) -> tuple[str, _Replacements]:
    """re.sub that can map offsets of its result back to `text`.

    The text is substituted a stretch at a time (see `_stretches`): re.sub keeps every piece of
    its output as an object until it joins them, which for a flood of small matches is many
    times the text.
    """
    pieces = [pattern.sub(replace, text[start:end]) for start, end in _stretches(text, cut)]
    return "".join(pieces), _Replacements(text, pattern, replace, cut)


class Folded(NamedTuple):
    """The folded text, and the foldings that lead from it back to the original (last first)."""

    text: str
    stages: tuple[_Characters | _Replacements, ...]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Map a span of the folded text to the span of the original it came from."""
        for stage in self.stages:
            start, end = stage.old(start), stage.old(end)
        return start, end


def _fold_characters(text: str) -> tuple[str, _Characters | None]:
    """Every character folded on its own: look-alikes, compatibility forms, marks and format
    characters, ASCII controls. Pure ASCII without controls is only lower-cased."""
    if text.isascii():
        if not _ASCII_INVISIBLE_SHAPE.holds(text, "c"):
            return text.lower(), None
        folded = text.encode().translate(None, _ASCII_INVISIBLE_BYTES).decode().lower()
    else:
        folded = _translated(text)  # lower case too: the table's values are
    # Equal lengths do not make a one-to-one folding ("\u0301ﬁ"): every folded text maps back.
    return folded, _Characters(text)


# How many characters of a text per character outside ASCII it takes for its ASCII stretches to
# be translated apart: below that, the stretches are too short to pay for the cut.
_ASCII_STRETCHES_FROM = 24
# The most distinct characters outside ASCII a text is split at one by one (see `_split_at`):
# each is a search through what is left, so the work grows with their number.
_SPLIT_AT_MOST = 8


@cache
def _outside_ascii() -> re.Pattern[str]:
    return re.compile(r"([^\x00-\x7f]+)")


def _translated(text: str) -> str:
    """`text.translate(_FOLD_TABLE)`. A text that is ASCII but for a few characters (a 4 KB tool
    result with one "’") is translated a stretch at a time: `str.translate` keeps a cache in C for
    ASCII text, where a text holding any other character has each character looked up in the
    table (most of the time its folding took)."""
    outside = len(text) - len(text.encode("ascii", "ignore"))
    if outside * _ASCII_STRETCHES_FROM > len(text):
        return text.translate(_FOLD_TABLE)
    # Those few characters are listed only now: a copy of what lies outside ASCII in a text of
    # little else would add to its peak memory.
    distinct = tuple(set(beyond_ascii(text)))
    if len(distinct) <= _SPLIT_AT_MOST:
        return _split_at(text, distinct)
    return "".join([piece.translate(_FOLD_TABLE) for piece in _outside_ascii().split(text)])


def _split_at(text: str, outside: tuple[str, ...]) -> str:
    """`text.translate(_FOLD_TABLE)`, where `outside` holds every character of `text` outside
    ASCII: the text split at the first of them (a search in C, where the regex above tries a
    class at every character, some ten times slower), each piece translated, joined by that
    character's folding. A piece is a string of its own, ASCII if it holds none of them."""
    if text.isascii():
        return text.translate(_FOLD_TABLE)
    first, rest = outside[0], outside[1:]
    return _FOLD_TABLE[ord(first)].join([_split_at(piece, rest) for piece in text.split(first)])


def fold(text: str) -> Folded:
    """NFKC-like compatibility folding, confusables to ASCII, invisibles removed, lower case,
    spaced-out letters re-joined."""
    stages: list[_Characters | _Replacements] = []
    marks: Sequence[int] | None = None
    if text.isascii() and len(text) >= _SCANNED_FROM:
        # A long ASCII text is scanned once, lowered and its breaks unescaped (neither changes
        # its length, its controls or, case aside, any other mark): without controls, that copy
        # is the folding, and its marks say whether it may hold a spaced word.
        lowered = text.lower()
        if "\\" in lowered:
            lowered = _unescaped_breaks(lowered)
        marks = _fold_marks(lowered)
        if marks is not None and _CONTROLS not in marks:
            text = lowered
        else:
            marks = None
    if marks is None:
        text, characters = _fold_characters(text)
        if characters is not None:
            stages.append(characters)
        if "\\" in text:
            text = _unescaped_breaks(text)
    if _may_be_spaced(text, marks) and _spaced_letters_end().search(text):
        text, edits = _substitute(
            _spaced_letters(), text, lambda m: m.group()[::2], _outside_spaced()
        )
        stages.append(edits)
    # Spans are mapped back through the stages in reverse order of application.
    return Folded(text, tuple(reversed(stages)))


def _fold_marks(text: str) -> Sequence[int] | None:
    """The fold marks of a long text (see `_FOLD_MARKS`), None where it is not scanned for them."""
    # Loaded with the first text, however short: loaded by a long one, its database's memory
    # would add to the peak of that text's message.
    scan = _fold_scan()
    if len(text) < _SCANNED_FROM or scan.name == "plain":
        return None
    return scan.candidates(text)


def _may_be_spaced(text: str, marks: Sequence[int] | None) -> bool:
    """Whether a spaced word may end somewhere in the folded `text` (never a false no), given the
    text's fold marks if it was scanned for them."""
    if marks is None:
        marks = _fold_marks(text)
    if marks is None:
        return _SPACED_SHAPE.search(_spaced_shape_run(), text, 5)
    return any(mark != _CONTROLS for mark in marks) or bool(
        _spaced_letters_end().search(text, len(text) - 4)
    )


@cache
def _fold_scan() -> engine.Engine:
    return engine.compiled(_FOLD_MARKS)


# The look-alikes from other scripts: a word that mixes them with Latin letters is a disguise.
# The dotless i is a Latin letter (Turkish, Azerbaijani): it is folded, but a word holding it is
# an ordinary word.
_FOREIGN_CONFUSABLES = "".join(sorted(ch for ch in CONFUSABLES if ch != "ı"))


# A word containing a look-alike letter. Matching only from word starts keeps this linear.
@cache
def _word_with_confusable() -> re.Pattern[str]:
    return re.compile(r"(?<!\w)\w*[" + _FOREIGN_CONFUSABLES + r"]\w*")


# Characters walked back in Python to a word's start before the regex is left to find it.
_LONGEST_WALK = 64


# A class search skips ahead in C; the word pattern above tries every position, so it runs only
# on text that holds a look-alike at all.
@cache
def _any_confusable() -> re.Pattern[str]:
    return re.compile("[" + _FOREIGN_CONFUSABLES + "]")


def _confusable_words(text: str):
    """What `_word_with_confusable().finditer` finds, without trying every word start on the way.

    No match can start before the run of word characters that leads up to the next look-alike
    (it would have to reach a look-alike through that run's non-word neighbour), and one starts
    there; a search from the run's start finds it. A very long run is walked back by the regex.
    """
    pos = 0
    while True:
        hit = _any_confusable().search(text, pos)
        if hit is None:
            return
        start = hit.start()
        floor = max(pos, start - _LONGEST_WALK)
        while start > floor and _is_word(text[start - 1]):
            start -= 1
        if start == floor and start > pos:
            start = pos  # the run goes on: let the regex search from where finditer would
        match = _word_with_confusable().search(text, start)
        if match is None:
            return
        yield match
        pos = match.end()


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # the regex engine's own `\w` for str patterns


# The letters of a backslash escape (a line break or a tab written as two characters in JSON or
# a program's string).
_ESCAPE_LETTERS = frozenset("nrtbf")


def mixed_script_words(text: str, limit: int = 3) -> list[tuple[int, int]]:
    """Spans of words that mix ASCII letters with look-alikes from another script (up to `limit`).

    A Russian or Greek word is not suspicious; "Рrоvıdе", half Latin and half Cyrillic, is.
    """
    if text.isascii() or not _any_confusable().search(text):
        return []
    found = []
    for match in _confusable_words(text):
        start, end = match.span()
        # An escape written into the text (a line break before "Просим", as JSON inside a string
        # writes it) is not a letter of the word that follows it.
        if text[start - 1 : start] == "\\" and text[start] in _ESCAPE_LETTERS:
            start += 1
        if any(ch.isascii() and ch.isalpha() for ch in text[start:end]):
            found.append((start, end))
            if len(found) >= limit:
                break
    return found
