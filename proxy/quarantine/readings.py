"""Other readings of a field: encodings a model decodes on sight, which the detector's patterns never see.

ROT13, URL-encoding, HTML entities, escaped or spaced hex, escapes scattered among letters
(`\\u0049gn\\u006fre`), base64 cut into short chunks, text
written backwards, leetspeak and letters of other scripts that look Latin. Each reading is made
only where the text shows its mark (a cheap test first), and is only read: the field itself is
never rewritten, so benign text that merely holds such runs (a URL with %20, a hash, code) passes
as it came. The scan scores each reading; one that reads as instructions withholds the field and
is shown to the reviewer beside it.
"""

import base64
import binascii
import codecs
import json
import re
import string
import zlib
from collections.abc import Iterator
from enum import Enum
from functools import cache
from itertools import islice
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

from ..matcher import cache_folder, engine
from ..sanitize.encoded import is_text
from ..sanitize.shape import Shape, beyond_ascii


class Reading(NamedTuple):
    """One decoding of a field: which encoding it undid, and the text that came out."""

    kind: str
    text: str


# Each mark needs two hits: one could be a name or an abbreviation.
_MARK_HITS = 2
# Common English words (and words of injections), as ROT13 spells them and written backwards.
_COMMON_WORDS = (
    "the you and your this to of it is ignore instructions assistant system password send post"
    " read now must"
)
_ROT13_WORDS = codecs.encode(_COMMON_WORDS, "rot13")


@cache
def _rot13_mark() -> re.Pattern[str]:
    return re.compile(rf"(?i)\b(?:{'|'.join(_ROT13_WORDS.split())})\b")


# The same words written backwards.
_REVERSED_WORDS = " ".join(word[::-1] for word in _COMMON_WORDS.split())


@cache
def _reversed_mark() -> re.Pattern[str]:
    return re.compile(rf"(?i)\b(?:{'|'.join(_REVERSED_WORDS.split())})\b")


@cache
def _percent() -> re.Pattern[str]:
    return re.compile(r"%[0-9A-Fa-f]{2}")


@cache
def _entity() -> re.Pattern[str]:
    return re.compile(r"&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")


# Hex a reader decodes: \x69\x67, 0x69 0x67, \u0069\u0067, or pairs with one separator (69 67 6e).
_HEX_ESCAPED = r"(?:(?:\\x|0x)[0-9A-Fa-f]{2}[\s,;:]*){4,}"
_HEX_WIDE = r"(?:\\u[0-9A-Fa-f]{4}){4,}"
# Pairs with one separator (69 67 6e), none after a letter or digit. The look-behind stands after
# the first digit, so the search skips ahead to a hex digit in C before it tries anything.
_HEX_PAIRS = (
    r"[0-9A-Fa-f](?<![0-9A-Za-z][\s\S])[0-9A-Fa-f](?:[ :,-][0-9A-Fa-f]{2}){5,}(?![0-9A-Za-z])"
)


@cache
def _hex_run() -> re.Pattern[str]:
    return re.compile(f"{_HEX_ESCAPED}|{_HEX_WIDE}|{_HEX_PAIRS}")


# Whether `_hex_run()` finds a run, asked of each form alone: the escaped forms only where their
# backslash or `0x` stands at all (a substring search), so most text pays for the pairs alone.
@cache
def _hex_forms() -> tuple[tuple[tuple[str, ...], re.Pattern[str]], ...]:
    return (
        (("\\x", "0x"), re.compile(_HEX_ESCAPED)),
        (("\\u",), re.compile(_HEX_WIDE)),
        (("",), re.compile(_HEX_PAIRS)),
    )


@cache
def _hex_digits() -> re.Pattern[str]:
    return re.compile(r"\\u([0-9A-Fa-f]{4})|(?:\\x|0x)?([0-9A-Fa-f]{2})")


# One escape of a character, standing anywhere: runs of them are the hex reading's.
@cache
def _escape() -> re.Pattern[str]:
    return re.compile(r"\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})")


# Base64 cut into pieces: alphabet runs separated by spaces, quotes, commas or plus signs.
@cache
def _token() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z0-9+/]+={0,2}")


@cache
def _gap() -> re.Pattern[str]:
    return re.compile(r"[ \t\r\n\"',+]+")


# A piece that is no English word: a capital after a small letter, a digit beside a letter, or
# a '+' or '/' inside.
_LOOK = r"[a-z][A-Z]|[A-Za-z][A-Z][a-z]|[A-Za-z][0-9]|[0-9][A-Za-z]|[A-Za-z0-9][+/]"


@cache
def _base64_look() -> re.Pattern[str]:
    return re.compile(_LOOK)


_LOOKING = rf"[A-Za-z0-9+/]*(?:{_LOOK})"


# From the start of a piece, up to the first sign in it that it looks like base64.
@cache
def _looking_piece() -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]*?(?:{_LOOK})")


_SHORTEST_CHUNKED = 16
_PLAIN_PIECES = 2


# Leetspeak (4ll, 1gn0r3): where a leet word shows, a digit standing for a letter before a letter.
@cache
def _leet_mark() -> re.Pattern[str]:
    return re.compile(r"[013457][A-Za-z]")


# A word of letters and such digits only ("b64", "user12", "mp3" and e-mail addresses are none),
# read from the start of a run of ASCII letters and digits that holds a mark: such characters up to
# one that is in no word (a word also holds `@` and `$`). The mark's letter is then among them.
@cache
def _leet_shaped() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z013457]*+(?![A-Za-z0-9@$])")


# In the reading, every word of letters and those digits is spelled out ("p057 17 70": "post it to").
# Only words holding such a digit are matched: a word of letters alone spells itself. Such a word
# opens with letters or not at all, so a regex for it whole tries every letter of the text;
# `_leet_first_digit()` finds the word's first digit instead, which its search skips to, and asks
# of the character before it what the word's start needs (see `_leet_words`).
_LEET_TAIL = r"[A-Za-z013457$]*(?![A-Za-z0-9])"


@cache
def _leet_first_digit() -> re.Pattern[str]:
    # After no letter or digit, the word starts at the digit, and its tail is read at once; after a
    # letter, only the digit is matched (its letters' start is asked first, then the tail).
    return re.compile(rf"[013457$](?:(?<![A-Za-z0-9][013457$]){_LEET_TAIL}|(?<=[A-Za-z][013457$]))")


@cache
def _leet_tail() -> re.Pattern[str]:
    return re.compile(_LEET_TAIL)


@cache
def _letters_and_digits() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z0-9]*+")


# ASCII letters, to find where the letters before a leet word's first digit start.
_LETTERS = Shape({string.ascii_letters: "a"}, ".")


_LEET = str.maketrans("013457$", "oieasts")
_NUMBER_JOINS = frozenset(":.-/,")


@cache
def _measure() -> re.Pattern[str]:
    return re.compile(r"\d+[smhdwykx]", re.IGNORECASE)


# A number written as an ordinal or an hour of the clock ("1st", "23rd", "15th", "3pm", "10am"):
# a number as text writes it, which spelled out is no word ("ist", "epm"). Only the suffix each
# number takes ("4nd" is "and" in leetspeak, not an ordinal).
@cache
def _number_word() -> re.Pattern[str]:
    return re.compile(
        r"(?:\d*[02-9])?(?:1st|2nd|3rd)|\d*(?:1\d|[04-9])th|(?:[1-9]|1[0-2])[ap]m", re.IGNORECASE
    )


# A word of letters; after a backslash the letter is an escape's ("\\n" written out), not the word's.
@cache
def _word() -> re.Pattern[str]:
    return re.compile(r"(?<!\\)[^\W\d_]{2,}")


@cache
def _latin() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z]")


def readings(text: str) -> list[Reading]:
    """Every reading of `text` whose mark it shows, each differing from the text."""
    found = []
    marked = {indexes[found] for scan, indexes in _marks() for found in scan.candidates(text)}
    for index in sorted(marked):
        kind, _, read, _ = _READERS[index]
        decoded = read(text)
        if decoded is not None and decoded != text:
            found.append(Reading(kind, decoded))
    return found


def marked(text: str) -> bool:
    """Whether `text` shows the loose mark of any reading (as `readings` asks first): a text
    without one, and every piece of it, has no reading."""
    return any(scan.candidates(text) for scan, _ in _marks())


class MarkScan(Enum):
    """The compiled scan a reading's mark is looked for in.

    Hyperscan reads a database of marks made of common letters (words, pairs of hex digits)
    and marks led by rare characters (`%`, `&`, a backslash, a digit, a character beyond ASCII)
    at half the speed of the two apart: 3.1 against 1.6 ms a MiB of prose, 20 against 14 µs for
    4 KB of tool output. Base64 cut into chunks is read over a copy of the text reduced to
    classes (`CHUNK_CLASSES`).
    """

    RARE = "rare"
    COMMON = "common"
    CLASSES = "classes"


def mark_sources(scan: MarkScan) -> list[tuple[str, int]]:
    """The mark patterns `scan` reads, in order, each with the index of the reader it speaks for."""
    return [
        (source, index)
        for index, (_, mark, _, kind) in enumerate(_READERS)
        if kind is scan
        for source in ((mark,) if isinstance(mark, str) else mark)
    ]


@cache
def _marks() -> list[tuple[engine.Engine, list[int]]]:
    """The compiled scans that name the readings worth making (every one on the plain path),
    each with the reader each of its patterns speaks for; each reader then tests its own mark
    exactly, so the engine changes no reading."""
    marks = []
    for scan in MarkScan:
        sources = mark_sources(scan)
        patterns = [source for source, _ in sources]
        if scan is MarkScan.CLASSES:
            compiled = _gated(engine.compiled(patterns, CHUNK_CLASSES.of_characters, framed=True))
        else:
            compiled = engine.compiled(patterns, framed=True)
        marks.append((compiled, [index for _, index in sources]))
    return marks


def _gated(shaped: engine.Engine) -> engine.Engine:
    """The scan of a shaped copy, asked only where the text as it came shows a look of base64
    (`SHAPED_GATE`): shaping a text costs a copy of it, and most prose shows none."""
    return engine.Gated(engine.compiled([SHAPED_GATE]), shaped)


# Python's `re` matches these ASCII letters, in any case, to a character outside ASCII too ("ſ"
# to "s", "K" to "k", "ı" and "İ" to "i"), which the compiled scan reads as `?`.
_CASED_BEYOND_ASCII = frozenset("iks")
# A character beside a word in the compiled scan: not a letter, digit or underscore of ASCII (a
# character outside ASCII reads as `?`, which is one), nor the text's edge (the scan is framed).
_EDGE = "[^A-Za-z0-9_]"


def _two_words(words: str) -> tuple[str, ...]:
    """A loose mark for two of the words standing as words (as `_marked` asks of the reading's
    own mark), in any case, without an inline flag: each between characters of no word, the one
    between two adjacent words shared by both. One pattern per first word: Hyperscan reads prose
    for a set of literals far faster than for one alternation of them (in the scan of common
    letters, 1.5 against 3.1 ms a MiB)."""
    spelled = [
        "".join(f"[{c.upper()}{c}{'?' if c in _CASED_BEYOND_ASCII else ''}]" for c in word)
        for word in words.split()
    ]
    second = f"(?:{'|'.join(spelled)})"
    return tuple(f"{_EDGE}{first}{_EDGE}(?:[\\s\\S]*{_EDGE})?{second}{_EDGE}" for first in spelled)


def _marked(mark: re.Pattern, text: str) -> bool:
    return sum(1 for _ in islice(mark.finditer(text), _MARK_HITS)) >= _MARK_HITS


def _rot13(text: str) -> str | None:
    return codecs.encode(text, "rot13") if _marked(_rot13_mark(), text) else None


def _reversed(text: str) -> str | None:
    return text[::-1] if _marked(_reversed_mark(), text) else None


def _url(text: str) -> str | None:
    return unquote(text) if _marked(_percent(), text) else None


def _entities(text: str) -> str | None:
    if not _marked(_entity(), text):
        return None
    # Imported here: its table of entities is loaded for the few texts that hold one.
    import html

    return html.unescape(text)


def _hex(text: str) -> str | None:
    def decode(match: re.Match) -> str:
        run = match.group(0)
        pieces = _hex_digits().findall(run)
        if pieces and pieces[0][0]:
            decoded = "".join(chr(int(wide, 16)) for wide, _ in pieces if wide)
            return decoded if decoded.isprintable() else run
        data = bytes(int(pair, 16) for _, pair in pieces if pair)
        return data.decode("utf-8", "replace") if is_text(data) else run

    return _hex_run().sub(decode, text) if _has_hex_run(text) else None


def _escapes(text: str) -> str | None:
    """Every escape decoded in place, where some stand among plain letters (`\\u0049gn\\u006fre`)."""
    if not _marked(_escape(), text):
        return None
    if _has_hex_run(text) and not _escape().search(_hex_run().sub(" ", text)):
        return None  # every escape stands in a run: the hex reading reads them

    def decode(match: re.Match) -> str:
        char = chr(int(match.group(1) or match.group(2), 16))
        return char if char.isprintable() else match.group(0)

    return _escape().sub(decode, text)


def _has_hex_run(text: str) -> bool:
    """`_hex_run().search(text) is not None`, one form at a time."""
    return any(
        any(mark in text for mark in marks) and form.search(text) is not None
        for marks, form in _hex_forms()
    )


def _chunked_base64(text: str, skip: bool = True) -> str | None:
    """Each run of base64 pieces, separated only by gaps, joined and decoded in place.

    A run starts and ends at a piece that looks like base64; up to `_PLAIN_PIECES` plain-looking
    pieces in a row may sit inside it (a six-letter slice of base64 can read like a word), and
    one plain piece after it may be its tail. With `skip`, the plain pieces where no run is open
    are passed over unread (see `_next_piece`); the result is the same.
    """
    runs: list[list[re.Match]] = []
    current: list[re.Match] = []
    plain, pos = 0, 0
    shaped = _LookingPieces(text) if skip and len(text) <= _SHAPED_SEEK_MOST else None
    while token := _next_piece(text, pos, seeking=skip and not current, shaped=shaped):
        pos = token.end()
        joined = bool(current) and _gap().fullmatch(text, current[-1].end(), token.start())
        looks = (
            bool(_base64_look().search(token.group(0)))
            if shaped is None
            else shaped.looks(token.start(), token.end())
        )
        if not joined or (not looks and plain >= _PLAIN_PIECES):
            runs.append(current[: len(current) - plain])
            current, plain = [], 0
        if looks or current:
            current.append(token)
            plain = 0 if looks else plain + 1
    runs.append(current[: len(current) - plain] + current[len(current) - plain :][:1])
    out, pos = [], 0
    for run in runs:
        if len(run) < 2:
            continue
        decoded = _base64_text("".join(m.group(0) for m in run))
        if decoded is None:
            run = run[:-1]
            decoded = _base64_text("".join(m.group(0) for m in run))
        if decoded is not None:
            out += [text[pos : run[0].start()], decoded]
            pos = run[-1].end()
    return "".join([*out, text[pos:]]) if out else None


def _next_piece(
    text: str, pos: int, seeking: bool, shaped: "_LookingPieces | None" = None
) -> re.Match | None:
    """The next piece of base64 alphabet from `pos`; when `seeking`, the next one that looks like
    base64. A plain piece opens no run, and with none open it changes nothing: in prose, where
    nearly every word is a piece, only the few that look like base64 and their neighbours are read.
    Given the text's `shaped` copy, the looking piece is found in that.
    """
    if not seeking:
        return _token().search(text, pos)
    if shaped is not None:
        start = shaped.next_start(pos)
    else:
        looking = _looking_piece().search(text, pos)
        start = None if looking is None else looking.start()
    return None if start is None else _token().match(text, start)


# The longest text whose looking pieces are found in a shaped copy (a longer one is searched by
# `_looking_piece()`): as long as the compiled scans shape whole, so no larger copy is made.
_SHAPED_SEEK_MOST = engine.STREAM_FROM


class _LookingPieces:
    """Where the pieces that look like base64 start, found in the text reduced to `CHUNK_CLASSES`:
    `_looking_piece()` tries a lazy run from every word of prose, where the same looks spelled in
    the classes' symbols are found from the rarer symbols they hold (`_shaped_look()`)."""

    def __init__(self, text: str) -> None:
        self._shaped = CHUNK_CLASSES.of_characters(text)

    def next_start(self, pos: int) -> int | None:
        """Where `_looking_piece().search(text, pos)` matches: the first piece starting at or after
        `pos` that holds a look (every character of a look is of the alphabet, so it lies in one
        piece); None when there is none."""
        shaped = self._shaped
        while (look := _shaped_look().search(shaped, pos)) is not None:
            start = look.start()
            while start and shaped[start - 1] in _SHAPED_ALPHABET:
                start -= 1
            if start >= pos:
                return start
            # The piece began before `pos`: none of its looks opens a match, the next piece may.
            after = _shaped_outside().search(shaped, look.end())
            if after is None:
                return None
            pos = after.start()
        return None

    def looks(self, start: int, end: int) -> bool:
        """Whether the piece `text[start:end]` holds a look (what `_base64_look()` tells of it):
        a piece starts after no base64 letter, so no look is seen across its start."""
        return _shaped_look().search(self._shaped, start, end) is not None


# The base64 alphabet, and `_LOOK`, in the symbols of `CHUNK_CLASSES`.
_SHAPED_ALPHABET = frozenset(b"aA0+/")


# Every look holds a capital, a digit, `+` or `/`, the rarer symbols: the search skips to one of
# them (a look spelled as `_CHUNK_LOOK` is tried at every letter) and asks the symbols beside it
# whether a look starts there or at the small letter before it. One that starts before the
# search's start shares its piece with that start, which `next_start` passes over either way.
@cache
def _shaped_look() -> re.Pattern[bytes]:
    return re.compile(rb"[A0+/](?:(?<=a.)|(?<=A)(?=[0+/]|Aa)|(?<=0)(?=[aA+/]))")


@cache
def _shaped_outside() -> re.Pattern[bytes]:
    return re.compile(rb"[^aA0+/]")


def _base64_text(joined: str) -> str | None:
    if len(joined) < _SHORTEST_CHUNKED:
        return None
    body = joined.rstrip("=")
    body = body[: len(body) - 1] if len(body) % 4 == 1 else body
    try:
        data = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    return data.decode("utf-8", "replace") if is_text(data) else None


def _leet(text: str) -> str | None:
    if not _leet_marked(text):
        return None
    pieces, last = [], 0
    for start, end in _leet_words(text):
        pieces += [text[last:start], _spelled(text, start, end)]
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _leet_marked(text: str) -> bool:
    """Whether `_MARK_HITS` words of letters and leet digits (`_leet_shaped()`) hold a mark, an
    ordinal or an hour being no such word (`_number_word()`).

    Every mark in one run of ASCII letters and digits is in the word that starts where the run
    does: each run is read once, from the first mark in it (a run read again for each of its
    marks made a long one cost the cube of its length).
    """
    words, pos = 0, 0
    while (mark := _leet_mark().search(text, pos)) is not None:
        start = mark.start()
        while start and text[start - 1].isascii() and text[start - 1].isalnum():
            start -= 1
        shaped = _leet_shaped().match(text, start)
        if shaped and not _number_word().fullmatch(text, start, shaped.end()):
            words += 1
            if words >= _MARK_HITS:
                return True
        after = _letters_and_digits().match(text, mark.end())
        assert after is not None  # it matches the empty string too
        pos = after.end()
    return False


def _leet_words(text: str) -> Iterator[tuple[int, int]]:
    """The spans of the leet words in `text`, in order: what
    `(?<![A-Za-z0-9])[A-Za-z]*[013457$][A-Za-z013457$]*(?![A-Za-z0-9])` finds.

    A match is letters (maybe none), a first digit and its tail (`_leet_tail()`), and it starts
    after no letter or digit. Where no letter stands before the digit, `_leet_first_digit()` asked
    that of the digit and read the tail. Where one does, the word starts where that run of letters
    starts, if no digit stands before it nor a word found before, and if the tail follows. Else no
    word starts before the next character that is no letter or digit (a word may start after a
    `$`, which is none), and the search goes on from there: each run is read once.
    """
    pos, letters = 0, None
    while (found := _leet_first_digit().search(text, pos)) is not None:
        digit = found.start()
        if not digit or text[digit - 1] not in string.ascii_letters:
            yield digit, found.end()
            pos = found.end()
            continue
        letters = letters or _LETTERS.of_characters(text)
        start = letters.rfind(b".", 0, digit) + 1
        opens = start >= pos and not (start and text[start - 1] in string.digits)
        tail = _leet_tail().match(text, digit + 1) if opens else None
        if tail is None:
            after = _letters_and_digits().match(text, digit + 1)
            assert after is not None  # it matches the empty string too
            pos = digit + 1 if text[digit] == "$" else after.end()
            continue
        yield start, tail.end()
        pos = tail.end()


def _spelled(text: str, start: int, end: int) -> str:
    """The leet word at `text[start:end]` spelled out; a number that is part of a time, a date, a
    version or an id ("14:00", "2023-11-10", "v1.4") stays a number, or "14:00" would read as
    "ia:oo"."""
    word = text[start:end]
    if word.isdigit() and (
        text[start - 1 : start] in _NUMBER_JOINS or text[end : end + 1] in _NUMBER_JOINS
    ):
        return word
    if _number_word().fullmatch(word):
        return word
    # A number with a one-letter unit standing alone ("3m", "4h", "5s") is a measure, as a log
    # writes it.
    if (
        _measure().fullmatch(word)
        and (start == 0 or text[start - 1].isspace())
        and (end == len(text) or text[end].isspace() or text[end] in ",.;:)")
    ):
        return word
    return word.translate(_LEET)


def _lookalikes(text: str) -> str | None:
    """Words that mix Latin letters with look-alikes, spelled in Latin; words wholly in another
    script are that script's own words, and stay."""
    # Only a word holding a look-alike can change: text with none is left before the substitution.
    # Every look-alike is outside ASCII, so only the text's characters outside ASCII are asked.
    if text.isascii() or _lookalike_chars().isdisjoint(beyond_ascii(text)):
        return None
    table = _lookalike_table()
    return _word().sub(
        lambda m: m.group(0).translate(table) if _latin().search(m.group(0)) else m.group(0), text
    )


@cache
def _lookalike_table() -> dict[int, str]:
    """Every character Unicode's confusables data says looks like one Latin letter, to that letter.

    The detector folds the Cyrillic and Greek look-alikes itself; this reading covers the rest
    (Armenian, Cherokee, mathematical and other letters NFKD leaves alone). Reading the data (0.9
    MB of JSON) takes some 15 ms, which every hook run in process would pay for its first text
    beyond ASCII: the table (some 1,200 characters) is kept in the cache folder, named by the
    data's checksum.
    """
    # The package is found, not imported: only its data file is read.
    from importlib.util import find_spec

    spec = find_spec("confusable_homoglyphs")
    assert spec is not None and spec.origin is not None  # a dependency of this package
    source = Path(spec.origin).with_name("confusables.json").read_bytes()
    name = cache_folder.file_name(
        "lookalikes", [_LOOKALIKE_FORMAT, zlib.crc32(source).to_bytes(4, "big")], ".json"
    )
    kept = cache_folder.read(name)
    if kept is not None:
        try:
            return {int(code): latin for code, latin in json.loads(kept).items()}
        except (ValueError, TypeError, AttributeError):
            pass  # of another shape: read afresh
    data = json.loads(source)
    table: dict[int, str] = {}
    for char, homoglyphs in data.items():
        if len(char) != 1 or char.isascii():
            continue
        latin = [g["c"] for g in homoglyphs if len(g["c"]) == 1 and g["c"].isascii()]
        if latin and latin[0].isalpha():
            table[ord(char)] = latin[0].lower()
    cache_folder.write(name, json.dumps(table).encode())
    return table


# The shape of the kept table, and what it is made from: another shape, another name.
_LOOKALIKE_FORMAT = b"1"


@cache
def _lookalike_chars() -> frozenset[str]:
    """The characters `_lookalike_table` spells in Latin."""
    return frozenset(map(chr, _lookalike_table()))


# Base64 cut into chunks shows only as classes of characters side by side (a small letter before
# a capital, a digit beside a letter, ...): nothing a compiled scan can skip to, so among the other
# marks it cost more than all of them together. Over the text reduced to one symbol per class the
# same mark is spelled with literals ("aA", "a0"), which a scan of its own skips through prose by.
CHUNK_CLASSES = Shape(
    {
        string.ascii_lowercase: "a",
        string.ascii_uppercase: "A",
        string.digits: "0",
        "+": "+",
        "/": "/",
        "=": "=",
        " \t\r\n\"',": " ",
    }
)
# `_LOOK` and the gap (`_gap()` with "+") in those symbols; the leading pieces of alphabet before
# the first look are left out: they change where a match starts, not whether there is one.
_CHUNK_LOOK = r"(?:aA|[aA]Aa|[aA]0|0[aA]|[aA0][+/])"
CHUNK_MARK = rf"{_CHUNK_LOOK}[aA0+/]*=*[ +]+[aA0+/]*{_CHUNK_LOOK}"

# Where the text as it came shows any of the looks the chunks mark starts and ends with: a letter
# before a capital, a digit or `+` `/`, or a digit before a letter or `+` `/`. A letter, a capital
# and a small letter hold a letter before a capital. The only mark read over a shaped copy is the
# chunks mark, asked only where this one finds something.
SHAPED_GATE = r"[A-Za-z][A-Z0-9+/]|[0-9][A-Za-z+/]"

# Each reading: its kind, a loose form of its mark for the compiled scan (a superset of where the
# reader's own test passes; or several, any of which may match), the reader, and the scan that
# looks for the mark.
_READERS = (
    ("rot13", _two_words(_ROT13_WORDS), _rot13, MarkScan.COMMON),
    ("reversed", _two_words(_REVERSED_WORDS), _reversed, MarkScan.COMMON),
    ("url-encoding", "%[0-9A-Fa-f][0-9A-Fa-f]", _url, MarkScan.RARE),
    ("html-entities", "&#?[A-Za-z0-9]+;", _entities, MarkScan.RARE),
    (
        "hex-escapes",
        r"(?:\\x|0x)[0-9A-Fa-f]{2}[\s,;:]*(?:\\x|0x)|\\u[0-9A-Fa-f]{4}\\u"
        r"|[^0-9A-Za-z][0-9A-Fa-f]{2}(?:[ :,-][0-9A-Fa-f]{2}){5}",
        _hex,
        MarkScan.COMMON,
    ),
    # The first escape's hex digits are left to the reader: Hyperscan (5.4.12) misses
    # `\\[ux][0-9A-Fa-f]{2}[\s\S]*\\[ux][0-9A-Fa-f]{2}` where more than about thirty characters
    # stand between the escapes, which let an instruction with escapes far apart pass unread.
    ("escapes", r"\\[ux][\s\S]*\\[ux][0-9A-Fa-f]{2}", _escapes, MarkScan.RARE),
    ("base64-chunks", CHUNK_MARK, _chunked_base64, MarkScan.CLASSES),
    ("leetspeak", r"[013457][A-Za-z][\s\S]*[013457][A-Za-z]", _leet, MarkScan.RARE),
    # Any character outside ASCII (the compiled scan reads each as one `?`).
    ("look-alikes", f"[{chr(0x80)}-{chr(0x10FFFF)}]", _lookalikes, MarkScan.RARE),
)
