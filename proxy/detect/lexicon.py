"""Where the concept tables' words occur in a folded text, found by one literal scan.

Every term of the concept tables (`concepts.concept_table`) is folded like the text and compiled
into one Hyperscan literal database over UTF-8: a literal matches exactly, so the compiled scan
and the plain path (every term searched with `str.find`, where Hyperscan has no wheel) report the
same occurrences, and the word bounds of `languages` are then checked in Python on both. The
database and the folded terms are kept in the user's cache folder (`cache_folder`).
"""

from __future__ import annotations

import json
import os
import re
import sys
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import cache, cached_property, lru_cache, partial
from pathlib import Path
from typing import Any, NamedTuple

from ..matcher import cache_folder, engine
from .concepts import CONCEPT_NAMES, concept_table
from .languages import (
    Bounds,
    Language,
    collected,
    default_bounds,
    is_word_character,
)
from .normalize import fold

# Every character that ends a word in a spaced script reads as a space: line breaks, tabs and
# punctuation. A whole word is then its text with a space on each side and a word start its
# text after a space, so the scan itself finds only bounded occurrences (a word's text inside
# other words is never reported, and never checked). Terms are read the same way ("l'IA",
# "e-mails"); every offset is kept. Letters, marks, digits and "_" stay: they are inside words.
_SPACES = re.compile(
    r"[\t\n\r\x0b\x0c!\"#$%&'()*+,\-./:;<=>?@\[\\\]^`{|}~\u00a0-\u00bf\u2000-\u206f"
    r"\u060c\u061b\u061f\u0964\u0965\u3000-\u3003\uff01-\uff0f]"
)
# `_SPACES` over ASCII, as a byte table: every ASCII character it matches becomes a space.
_ASCII_SPACES = bytes(ord(" ") if _SPACES.match(chr(code)) else code for code in range(256))
# Characters between two checkpoints of the UTF-8 offsets of a non-ASCII text.
_CHECKPOINT = 1024


# Each bound finds every occurrence the ones before it find.
_LOOSENESS = {Bounds.WORD: 0, Bounds.PREFIX: 1, Bounds.CLITIC: 2, Bounds.ANYWHERE: 3}


class Term(NamedTuple):
    """One word (or phrase) of a concept in one language, folded, with its bounds (a tuple: the
    tables hold thousands, rebuilt from the cache at every start)."""

    concept: str
    language: Language
    text: str
    bounds: Bounds

    @property
    def needle(self) -> str:
        """What the scan looks for: a whole word between spaces, a word start after one."""
        return " " * self.shift + self.text + " " * (self.bounds is Bounds.WORD)

    @property
    def shift(self) -> int:
        """How far the text starts into its needle: past the space before a word or a word start."""
        return _SHIFTS[self.bounds]


# How far a term's text starts into its needle, by its bounds (see `Term.shift`).
_SHIFTS = {bounds: int(bounds is Bounds.WORD or bounds is Bounds.PREFIX) for bounds in Bounds}


class Hit(NamedTuple):
    """A term found in the folded text: its concept and span there (a tuple: texts hold many)."""

    concept: str
    language: Language
    start: int
    end: int


def parse(entry: str) -> tuple[str, Bounds | None]:
    """A table entry without its marker, and the bounds the marker asks for (None: the default)."""
    if entry.startswith("="):
        return entry[1:], Bounds.WORD
    if entry.startswith("*"):
        return entry[1:], Bounds.ANYWHERE
    return entry, None


@cache
def terms() -> tuple[Term, ...]:
    """Every term of the concept tables, folded, each once per concept.

    Languages share words ("admin", "transfer", "bank"): a word is kept once per concept, under
    the first language that has it, with the loosest bounds any of them asks for (a prefix
    match finds every whole-word match too). Folding every entry takes a while, so the table is
    kept in the cache folder, named by the tables and the code that folds them.
    """
    name = _terms_file_name()
    kept = cache_folder.read(name)
    if kept is not None:
        try:
            return _from_columns(json.loads(kept))
        except (ValueError, TypeError, KeyError):
            pass  # of another shape: folded afresh
    table = _fold_terms()
    columns = [
        [term.concept for term in table],
        [term.language.value for term in table],
        [term.text for term in table],
        [term.bounds.value for term in table],
    ]
    cache_folder.write(name, json.dumps(columns, ensure_ascii=False).encode())
    return table


def _from_columns(columns: list) -> tuple[Term, ...]:
    """The terms kept as four columns (concepts, languages, texts, bounds): read back at every
    start, four long lists parse in a fraction of the time of thousands of short rows."""
    concepts, languages, texts, bounds = columns
    language = {language.value: language for language in Language}.__getitem__
    bound = {bound.value: bound for bound in Bounds}.__getitem__
    rows = zip(concepts, map(language, languages), texts, map(bound, bounds), strict=True)
    return tuple(map(Term._make, rows))


@cache
def _terms_file_name() -> str:
    """Named by everything `_fold_terms` reads, as written: the tables (every language's file),
    the folding, the bounds, Unicode's data. Their sources name them, not the tables they build:
    a process that finds the terms kept loads no language's file."""
    here = Path(__file__).parent
    languages = here / "languages"
    sources = [
        *(here / name for name in ("lexicon.py", "normalize.py", "concepts.py")),
        here.parent / "sanitize" / "shape.py",
        *(languages / name for name in sorted(os.listdir(languages)) if name.endswith(".py")),
    ]
    return cache_folder.file_name(
        "terms",
        [
            *(f"{source.parent.name}/{source.name}".encode() for source in sources),
            *(source.read_bytes() for source in sources),
            f"{sys.version}\0{unicodedata.unidata_version}".encode(),
        ],
        ".json",
    )


def _fold_terms() -> tuple[Term, ...]:
    found: dict[tuple[str, str], Term] = {}
    for concept, columns in concept_table().items():
        for language, entries in columns.items():
            for entry in entries.split("|"):
                raw, bounds = parse(entry.strip())
                text = _SPACES.sub(" ", " ".join(fold(raw).text.split())).strip()
                if not text:
                    continue
                bounds = bounds or default_bounds(text, language)
                kept = found.get((concept, text))
                if kept is None:
                    found[(concept, text)] = Term(concept, language, text, bounds)
                elif _LOOSENESS[bounds] > _LOOSENESS[kept.bounds]:
                    found[(concept, text)] = Term(concept, kept.language, text, bounds)
    return tuple(found.values())


class Scanner:
    """Finds every occurrence of every term (the plain path: one `str.find` loop per term)."""

    name = "plain"

    def __init__(self, table: Sequence[Term]) -> None:
        self.table = table

    # Per term: how far its text starts into its needle, and its length. Listed when occurrences
    # are first placed: a message the first pass finds silent asks only which concepts occur.
    @cached_property
    def shifts(self) -> list[int]:
        return [_SHIFTS[term.bounds] for term in self.table]

    @cached_property
    def lengths(self) -> list[int]:
        return [len(term.text) for term in self.table]

    # Per term, what placing an occurrence needs (see `find_hits`): its concept and language,
    # where its text starts in the folded text from its needle's start in the spaced one (the
    # spaced text opens with a space of its own), its length, and whether it may follow a clitic.
    @cached_property
    def placing(self) -> list[tuple[str, Language, int, int, bool]]:
        return [
            (term.concept, term.language, shift - 1, length, term.bounds is Bounds.CLITIC)
            for term, shift, length in zip(self.table, self.shifts, self.lengths, strict=True)
        ]

    def occurrences(self, haystack: str) -> list[tuple[int, int]]:
        """(term index, start of its needle) of every occurrence in `haystack`, overlapping ones
        included."""
        found = []
        for index, term in enumerate(self.table):
            needle = term.needle
            at = haystack.find(needle)
            while at >= 0:
                found.append((index, at))
                at = haystack.find(needle, at + 1)
        return found

    def concepts(self, folded: str) -> set[str]:
        """The concepts of every term that occurs in the folded text, word bounds unchecked: a
        superset of the concepts of `find_hits`, found without listing each occurrence."""
        haystack = spaced(folded)
        found = {term.concept for term in self.table if term.needle in haystack}
        return found | {hit.concept for hit in glued_hits(folded)}


class HyperscanScanner(Scanner):
    """The same occurrences from one Hyperscan literal scan of the UTF-8 text."""

    name = "hyperscan"

    def __init__(
        self,
        table: Callable[[], Sequence[Term]],
        database: Callable[[], Any],
        first_only: Callable[[], Any],
        first_only_ascii: Callable[[], Any],
    ) -> None:
        # The terms, and the database of every occurrence, are loaded by the first text read for
        # its occurrences (see `shifts`): which concepts occur is told without them.
        self._terms = table
        self._every = database
        # The same literals by the number of their concept in `CONCEPT_NAMES`, each concept
        # reported once however often its terms occur (see `concepts`); and those of them that
        # are ASCII, all an ASCII text can hold (a database of about half the size, which is
        # all a process that reads only ASCII ever loads).
        self._first_only = first_only
        self._first_only_ascii = first_only_ascii

    @cached_property
    def table(self) -> Sequence[Term]:  # pyright: ignore[reportIncompatibleVariableOverride]
        return self._terms()

    @cached_property
    def _database(self) -> Any:
        return self._every()

    @cached_property
    def _first(self) -> Any:
        return self._first_only()

    @cached_property
    def _first_ascii(self) -> Any:
        return self._first_only_ascii()

    @cached_property
    def _sizes(self) -> list[int]:
        """Each needle's length in UTF-8: its text's, and the spaces around it."""
        return [
            (length if term.text.isascii() else len(term.text.encode()))
            + shift
            + (term.bounds is Bounds.WORD)
            for term, length, shift in zip(self.table, self.lengths, self.shifts, strict=True)
        ]

    def concepts(self, folded: str) -> set[str]:
        found: list[int] = []
        # An ASCII text's bytes hold no needle with a byte outside ASCII.
        database = self._first_ascii if folded.isascii() else self._first
        engine.scan_block(database, _spaced_bytes(folded), lambda i, *_: found.append(i))
        return {CONCEPT_NAMES[number] for number in found} | {
            hit.concept for hit in glued_hits(folded)
        }

    def occurrences(self, haystack: str) -> list[tuple[int, int]]:
        data = haystack.encode()
        ends: list[tuple[int, int]] = []
        engine.scan_block(self._database, data, lambda i, _s, end, *_: ends.append((i, end)))
        if len(data) == len(haystack):
            return [(index, end - self._sizes[index]) for index, end in ends]
        to_char = _CharOffsets(haystack, data)
        return [(index, to_char(end - self._sizes[index])) for index, end in ends]


class _CharOffsets:
    """Maps a UTF-8 byte offset (at a character boundary) of a text to its character offset."""

    def __init__(self, text: str, data: bytes) -> None:
        self._text, self._data = text, data
        self._bytes = [0]
        for start in range(0, len(text), _CHECKPOINT):
            self._bytes.append(self._bytes[-1] + len(text[start : start + _CHECKPOINT].encode()))

    def __call__(self, offset: int) -> int:
        chunk = bisect_right(self._bytes, offset) - 1
        return chunk * _CHECKPOINT + len(self._data[self._bytes[chunk] : offset].decode())


@cache
def scanner() -> Scanner:
    """The fastest scanner this platform has for the concept tables (built once per process)."""
    # The terms' cache file is named by everything they and their needles are made from: the
    # databases are found by that name, with no need to spell out thousands of needles first.
    return _scanner(terms, _terms_file_name().encode())


def _scanner(table: Callable[[], tuple[Term, ...]], key: bytes) -> Scanner:
    """The scanner of `table`, whose compiled databases are kept under `key` (which names the
    table: another table, another key)."""
    hs = engine.hyperscan_in_use()
    if hs is None:
        return Scanner(table())
    first = partial(_literal_database, hs, table, key, "concept-numbers-first")
    return HyperscanScanner(
        table,
        partial(_literal_database, hs, table, key, "concepts", 0),
        partial(first, hs.HS_FLAG_SINGLEMATCH, by_concept=True),
        partial(first, hs.HS_FLAG_SINGLEMATCH, by_concept=True, ascii_only=True),
    )


def _literal_database(
    hs,
    table: Callable[[], tuple[Term, ...]],
    key: bytes,
    name: str,
    flags: int,
    by_concept: bool = False,
    ascii_only: bool = False,
):
    """A Hyperscan literal database of the needles of the terms `table` gives (`ascii_only`: of
    those that are ASCII), with `flags`, from the cache when built before (the terms are listed
    only to build it). Each reports the index of its term in the table, or `by_concept` the
    number of its term's concept in `CONCEPT_NAMES`."""
    if ascii_only:
        name += "-ascii"

    def build():
        terms = table()
        if by_concept:
            number = {concept: index for index, concept in enumerate(CONCEPT_NAMES)}
            ids = [number[term.concept] for term in terms]
        else:
            ids = list(range(len(terms)))
        kept = [
            (term.needle.encode(), reported)
            for term, reported in zip(terms, ids, strict=True)
            if not ascii_only or term.needle.isascii()
        ]
        literals = [literal for literal, _ in kept]
        ids = [reported for _, reported in kept]
        database = hs.Database(mode=hs.HS_MODE_BLOCK)
        database.compile(
            expressions=literals,
            ids=ids,
            elements=len(literals),
            flags=[flags] * len(literals),
            literal=True,
        )
        return database

    return engine.cached_database(hs, name, hs.HS_MODE_BLOCK, [b"%d" % flags, key], build)


def spaced(folded: str) -> str:
    """The folded text as the scan reads it: word ends as spaces, and a space at each end, so a
    word at the very start or end is found too."""
    if folded.isascii():
        return _spaced_bytes(folded).decode("ascii")
    return f" {_SPACES.sub(' ', folded)} "


def _spaced_bytes(folded: str) -> bytes:
    """`spaced(folded)` as UTF-8; over ASCII one C-level byte translation (the regular expression
    replaces each punctuation mark of prose in turn)."""
    if folded.isascii():
        return b" %b " % folded.encode("ascii").translate(_ASCII_SPACES)
    return spaced(folded).encode()


# The assistant named in Latin letters inside text of a script without spaces ("AIへ",
# "读到这里的AI", "AI비서"): the word is bounded by the change of script, which the scan's
# spaces do not mark. Only the names of the `GLUED` concepts are looked for so, and only in a
# text that is not all ASCII.
GLUED = frozenset({"ai"})
_UNSPACED_CLASS = "\u0e00-\u0eff\u1000-\u109f\u1100-\u11ff\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"


# Compiled on first use: only a text that is not all ASCII asks.
@cache
def _unspaced_char() -> re.Pattern[str]:
    return re.compile(f"[{_UNSPACED_CLASS}]")


@cache
def _glued() -> tuple[re.Pattern, dict[str, Term]]:
    names = {
        term.text: term
        for term in terms()
        if term.concept in GLUED and term.bounds is Bounds.WORD and term.text.isascii()
    }
    words = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    pattern = re.compile(
        rf"(?<![a-z0-9])({words})(?=[{_UNSPACED_CLASS}])|(?<=[{_UNSPACED_CLASS}])({words})(?![a-z0-9])"
    )
    return pattern, names


def glued_hits(folded: str) -> list[Hit]:
    """The `GLUED` concepts' Latin names found where they touch a script without spaces."""
    if folded.isascii() or not _unspaced_char().search(folded):
        return []
    return list(_glued_in(folded))


# A text is asked twice in a row (which concepts it names, then where): once is read.
@lru_cache(maxsize=1)
def _glued_in(folded: str) -> tuple[Hit, ...]:
    pattern, names = _glued()
    found = []
    for match in pattern.finditer(folded):
        term = names[match.group(match.lastindex or 0)]
        found.append(Hit(term.concept, term.language, match.start(), match.end()))
    return tuple(found)


class Listed(NamedTuple):
    """A text's term occurrences, listed once: what both questions about it are answered from."""

    folded: str
    haystack: str
    occurrences: list[tuple[int, int]]

    def concepts(self, scan: Scanner | None = None) -> set[str]:
        """What `Scanner.concepts` answers, from the occurrences already listed."""
        table = (scan or scanner()).table
        return {table[index].concept for index, _ in self.occurrences} | {
            hit.concept for hit in glued_hits(self.folded)
        }


def listed(folded: str, scan: Scanner | None = None) -> Listed:
    """The folded text's term occurrences, word bounds unchecked (see `find_hits`)."""
    haystack = spaced(folded)
    return Listed(folded, haystack, (scan or scanner()).occurrences(haystack))


def find_hits(folded: str, scan: Scanner | None = None, seen: Listed | None = None) -> list[Hit]:
    """Every term occurrence in the folded text whose word bounds hold, in text order (from
    the occurrences already `seen`, when they were listed)."""
    scan = scan or scanner()
    seen = seen or listed(folded, scan)
    haystack = seen.haystack
    placing = scan.placing
    # Sorted as (start, -end, concept), each with its number to break a tie before the hit
    # itself is compared: a plain tuple sorts faster than a key made for each hit.
    placed = [
        (hit.start, -hit.end, hit.concept, number, hit)
        for number, hit in enumerate(glued_hits(folded))
    ]
    number = len(placed)
    for index, found in seen.occurrences:
        concept, language, offset, length, clitic = placing[index]
        start = found + offset
        if not clitic or _after_clitic(haystack, start + 1):
            placed.append(
                (
                    start,
                    -start - length,
                    concept,
                    number,
                    Hit(concept, language, start, start + length),
                )
            )
            number += 1
    placed.sort()
    return [entry[4] for entry in placed]


def _after_clitic(text: str, start: int) -> bool:
    """Whether an Arabic-script or Hebrew term at `start` begins its word, or follows a clitic
    that does."""
    if not is_word_character(text[start - 1]):
        return True
    return any(
        text.startswith(clitic, start - len(clitic))
        and not is_word_character(text[start - len(clitic) - 1])
        for clitic in _clitics()
    )


@cache
def _clitics() -> tuple[str, ...]:
    """What Arabic-script and Hebrew words carry on their front (each language's `clitics`)."""
    return tuple(fold(clitic).text for clitic in collected("clitics"))
