"""Find where each signal pattern can match with one C-level scan of the folded text.

Running every pattern over every field cost more than the rest of the proxy together, and so
did a Python pass over the words. Instead each pattern is read once, at import, for an anchor:
a set of literal strings that every match contains at a known place (its start, or a bounded
distance after it), chosen to be rare words rather than "the" or "you". One regex made of all
anchors as a trie finds every occurrence in C; each occurrence tries only the patterns it can
start, with `match` at the spot or a search in a small window before it. A text without
anchors costs that one scan. ASCII text is scanned as a copy with every non-word character a
space, which lets the engine jump between word starts; punctuation inside a literal is checked on
the text itself. Matches are reported exactly as `finditer` would find them.

An anchor literal the regex requires to end a word ("inform" followed by a gap) is looked for
as a whole word, so "information" does not wake its pattern. The table is built on the first
scan, not at import: every proxy and hook process imports the detector, few of them scan. The
anchors themselves ship precomputed in `anchors.json` (reading the patterns for them took 80 ms
of every hook process); `write_table()` writes it anew after a change to the patterns or to this
analysis, and a test fails until it is current.
"""

import hashlib
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard

if TYPE_CHECKING:
    # The stubs describe the stdlib's regex compiler under its old public names only.
    import sre_constants as sre
    import sre_parse
else:
    from re import _constants as sre  # the parsed form of the stdlib's own regex compiler
    from re import _parser as sre_parse

from .signals import PATTERNS, Pattern

# A pattern that matches many times is still one piece of evidence: only its first few
# matches are kept (as excerpts), which also bounds the work on a huge string.
MATCHES_PER_PATTERN = 3
# Function words open almost every sentence: an anchor made of them costs a Python call per
# few words, so a rarer literal later in the pattern is preferred.
_COMMON = frozenset(
    "a about after all also an and any are as at be because been but by can could do does for from get give"
    " has have he her his how i if in into is it its just me more my new no not now of on one only or our out please"
    " she so some than that the their them then there these they this those to up us use was we were what when which"
    " who will with would you your"
    # and the keys of structured tool output
    " name id type value text content data user date time title description status".split()
)
_COMMON_COST = 100
# An anchor found anywhere (not only at a word start) is tried at every character; one led by a
# letter also slows the scan itself, which then stops at every occurrence of that letter.
_FREE_COST = 4
_FREE_LETTER_COST = 20
_CROWDED_FACTOR = 50
_WINDOW_PER_CALL = 100  # characters of window searched for the cost of one match call
_SPLIT_BRANCHES = 4  # an alternation of at most this many branches may be anchored branch by branch
_LONGEST_LITERAL = (
    14  # anchor literals are cut to this length (a shorter prefix is still an anchor)
)
# An unbounded repeat (a word, `\w++`) is assumed no longer than this when sizing a window; a
# match stretched further is not looked for, which no natural wording needs.
_UNBOUNDED_WIDTH = 64
# Characters past a window's end that a trailing look-around or `\b` may read.
_LOOKAROUND_MARGIN = 16

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
# Ends a literal the regex requires to be followed by a non-word character or the text's end. It
# never reaches the scan as a character: the trie turns it into a look-ahead.
_END = "\x00"
_WORD_END = (
    "(?![a-z0-9_])"  # wider than the regex's own `\W` (which also refuses non-ASCII letters)
)
# Every ASCII character that cannot be part of a word, as a space: "gaps" between words. `_END`
# marks a literal's word end, not a character, and stays.
_GAPS = bytes(b if chr(b) in "abcdefghijklmnopqrstuvwxyz0123456789_" else 0x20 for b in range(256))
_GAP_IN_LITERAL = {b: " " for b in range(0x80) if _GAPS[b] == 0x20 and chr(b) != _END}
# More literals than this left after the character test: the free scan runs without substring tests.
_SUBSTRING_TESTS = 4
# Below this many characters the free-literal pass runs without the presence test first.
_SHORT_TEXT = 1024
# Characters of ASCII text reduced and scanned at a time (see _gap_hits).
_GAP_PIECE = 1 << 18
# Lower-case letters from rare to common in English (anything else counts as rarer still).
_LETTER_ORDER = "zqxjkvbpygfwmucldrhsnioate"


def _bare(literal: str) -> str:
    """The characters of an anchor literal, without its word-end mark."""
    return literal[:-1] if literal.endswith(_END) else literal


def _prefixes(
    items: list, i: int = 0, room: int = _LONGEST_LITERAL, after_word: bool = False
) -> set[tuple[str, bool]]:
    """Literal strings every match of items[i:] starts with, each flagged when it is the whole match.

    An empty string means no literal is certain there; strings stop growing after `room` characters.
    A string that stops where the regex requires a non-word character ends with `_END`;
    `after_word` says whether the character before items[i] is a word character.
    """
    if room <= 0:
        return {("", False)}
    if i >= len(items):
        return {("", True)}
    op, arg = items[i]
    if op is sre.AT and arg is sre.AT_BOUNDARY:
        # Zero-width: the literal after it still starts the match; after a word character it
        # ends the word, even where the sequence ends with it.
        rest = _prefixes(items, i + 1, room, after_word)
        return {(_END, False) if after_word and not head else (head, whole) for head, whole in rest}
    if op is sre.LITERAL:
        ch = chr(arg)
        return {
            (ch + rest, whole)
            for rest, whole in _prefixes(items, i + 1, room - 1, _is_word_char(ch))
        }
    if op is sre.SUBPATTERN:
        heads = _prefixes(list(arg[3]), 0, room, after_word)
    elif op is sre.ATOMIC_GROUP:
        heads = _prefixes(list(arg), 0, room, after_word)
    elif op is sre.BRANCH:
        heads = set().union(*(_prefixes(list(branch), 0, room, after_word) for branch in arg[1]))
    elif op is sre.IN and len(arg) <= 8 and all(kind is sre.LITERAL for kind, _ in arg):
        heads = {(chr(code), True) for _, code in arg}
    elif op in _REPEATS:
        low, high, body = arg
        inner = _prefixes(list(body), 0, room, after_word)
        if low == 0 and high == 1:
            heads = inner | {("", True)}
        elif low == 0:
            return {(head, False) for head, _ in inner} | _prefixes(items, i + 1, room, after_word)
        else:
            return {(head, False) for head, _ in inner}
    else:
        return {(_END if _starts_outside_word(items, i) else "", False)}
    out = set()
    tails: dict[
        tuple[int, bool], set[tuple[str, bool]]
    ] = {}  # what follows, by room left and last character
    for head, whole in heads:
        if whole:
            key = (room - len(head), _is_word_char(head[-1]) if head else after_word)
            if key not in tails:
                tails[key] = _prefixes(items, i + 1, *key)
            out |= {(head + rest, done) for rest, done in tails[key]}
        else:
            out.add((head, False))
    return out


def _starts_outside_word(items: list, i: int) -> bool:
    """Whether every match of items[i:] starts with a non-word character or ends the text there.

    False when items[i:] may match nothing: what follows the pattern is unknown.
    """
    while i < len(items):
        op, arg = items[i]
        if op is sre.AT and arg in (sre.AT_END, sre.AT_END_STRING):
            return True
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            i += 1  # zero-width: the next character comes from what follows
            continue
        rest = items[i + 1 :]
        if op is sre.LITERAL:
            return not _is_word_char(chr(arg))
        if op is sre.IN:
            return _outside_word(arg)
        if op is sre.SUBPATTERN:
            return _starts_outside_word(list(arg[3]) + rest, 0)
        if op is sre.ATOMIC_GROUP:
            return _starts_outside_word(list(arg) + rest, 0)
        if op is sre.BRANCH:
            return all(_starts_outside_word(list(branch) + rest, 0) for branch in arg[1])
        if op in _REPEATS:
            low, _, body = arg
            first = _starts_outside_word(list(body) + rest, 0)
            return first if low else first and _starts_outside_word(items, i + 1)
        return False
    return False


def _width(items: list) -> int:
    """The most characters items can consume (unbounded repeats counted as `_UNBOUNDED_WIDTH`)."""
    total = 0
    for op, arg in items:
        if op in (sre.LITERAL, sre.NOT_LITERAL, sre.IN, sre.ANY, sre.CATEGORY):
            total += 1
        elif op is sre.SUBPATTERN:
            total += _width(list(arg[3]))
        elif op is sre.ATOMIC_GROUP:
            total += _width(list(arg))
        elif op is sre.BRANCH:
            total += max(_width(list(branch)) for branch in arg[1])
        elif op in _REPEATS:
            _, high, body = arg
            one = _width(list(body))
            total += (
                _UNBOUNDED_WIDTH
                if high == sre.MAXREPEAT
                else min(high * one, high * _UNBOUNDED_WIDTH)
            )
        elif op is sre.GROUPREF:
            total += _UNBOUNDED_WIDTH
        # AT (anchors, \b) and look-arounds consume nothing.
    return total


@dataclass(frozen=True)
class _Anchor:
    """Where one pattern is looked for: after one of its literals, starting at most `before` characters earlier.

    Literals in `at_word_start` are looked for only where a word starts; `anywhere` ones at every character.
    """

    at_word_start: frozenset[str]
    anywhere: frozenset[str]
    before: int
    after: int
    crowded: (
        bool  # some literal is a single character, or a short letter run looked for inside words
    )

    @property
    def cost(self) -> float:
        """How often the anchor is expected to turn up, times the work each occurrence costs."""
        often = sum(
            _COMMON_COST if _bare(literal) in _COMMON else 1 for literal in self.at_word_start
        )
        often += sum(
            (_FREE_LETTER_COST if literal[0].isalpha() else _FREE_COST)
            * (_COMMON_COST if _bare(literal) in _COMMON else 1)
            for literal in self.anywhere
        )
        if self.crowded:
            often *= _CROWDED_FACTOR
        # A match tried at the anchor is one call; a window is searched through, position by position.
        return often * (1 + (self.before + self.after) / _WINDOW_PER_CALL if self.before else 1)


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _outside_word(arg: list) -> bool:
    """Whether a character class holds only non-word characters."""
    return all(
        (kind is sre.LITERAL and not _is_word_char(chr(value)))
        or (kind is sre.CATEGORY and value in (sre.CATEGORY_NOT_WORD, sre.CATEGORY_SPACE))
        for kind, value in arg
    )


def _opens_word(items: list, end: int) -> bool:
    """Whether every match of items[:end] ends at the text's start, at `\b` or after a non-word character.

    A literal starting with a word character at that spot starts a word.
    """
    if end == 0:
        return False
    op, arg = items[end - 1]
    if op is sre.AT:
        return arg in (sre.AT_BEGINNING, sre.AT_BEGINNING_STRING, sre.AT_BOUNDARY)
    if op is sre.LITERAL:
        return not _is_word_char(chr(arg))
    if op is sre.IN:
        return _outside_word(arg)
    if op is sre.SUBPATTERN:
        inner = list(arg[3])
        return _opens_word(inner, len(inner))
    if op is sre.BRANCH:
        return all(_opens_word(list(branch), len(branch)) for branch in arg[1])
    if op in _REPEATS:
        low, _, body = arg
        body = list(body)
        last = _opens_word(body, len(body))
        return last if low else last and _opens_word(items, end - 1)
    return False


def _covers(short: str, long: str) -> bool:
    """Whether anchor literal `short` occurs wherever `long` does (at the same spot)."""
    head, whole = _bare(short), _bare(long)
    if not whole.startswith(head):
        return False
    if short == head:
        return True
    # A whole word: `long` must end there too, or carry a non-word character next.
    return long.endswith(_END) if len(whole) == len(head) else not _is_word_char(whole[len(head)])


def _shortest(literals: set[str]) -> set[str]:
    """The literals without those another one covers: the shorter is found wherever the longer is."""

    def covered(literal: str) -> bool:
        whole = _bare(literal)
        for end in range(1, len(whole) + 1):
            head = whole[:end]
            if head in literals and head != literal:
                return True
            if head + _END in literals and end < len(whole) and not _is_word_char(whole[end]):
                return True
        return False

    return {lit for lit in literals if not covered(lit)}


def _union(parts: list[_Anchor]) -> _Anchor:
    """One anchor standing for several: every literal, the widest window."""
    return _Anchor(
        frozenset().union(*(a.at_word_start for a in parts)),
        frozenset().union(*(a.anywhere for a in parts)),
        max(a.before for a in parts),
        max(a.after for a in parts),
        any(a.crowded for a in parts),
    )


def _sequence_anchor(
    items: list, within: range | None = None, expand: bool = True
) -> _Anchor | None:
    """The cheapest anchor among the top-level elements of one sequence (those `within`, if given).

    A short alternation may also be anchored branch by branch, each branch spliced into the
    sequence: "no longer" and "free to" are rarer than their union's first words. So is the
    whole pattern when it is one alternation, however long.
    """
    best = None
    widths = [_width([item]) for item in items]
    for k in within or range(len(items)):
        if (
            k
            and items[k][0] is sre.LITERAL
            and items[k - 1][0] is sre.LITERAL
            and not (_is_word_char(chr(items[k][1])) and not _is_word_char(chr(items[k - 1][1])))
        ):
            continue  # the middle of a literal run: its start is the better anchor, unless a word starts here
        candidates = []
        heads = {head for head, _ in _prefixes(items, k)}
        if heads and all(_bare(head) for head in heads):
            candidates.append(_literal_anchor(items, k, _shortest(heads), widths))
        if expand and items[k][0] is sre.BRANCH:
            branches = items[k][1][1]
            alone = all(item[0] is sre.AT for item in items[:k] + items[k + 1 :])
            if alone or len(branches) <= _SPLIT_BRANCHES:
                parts = [
                    _sequence_anchor(
                        items[:k] + list(branch) + items[k + 1 :], range(k, k + len(branch)), False
                    )
                    for branch in branches
                ]
                anchors = [part for part in parts if part is not None]
                if len(anchors) == len(parts):
                    candidates.append(_union(anchors))
        for candidate in candidates:
            if best is None or candidate.cost < best.cost:
                best = candidate
    return best


def _literal_anchor(items: list, k: int, literals: set[str], widths: list[int]) -> _Anchor:
    """The anchor made of the literals that every match of items[k:] starts with."""
    # A literal that starts with a word character right after `\b` or a non-word character
    # starts a word: the scan looks for it at word starts only.
    word_start = _opens_word(items, k)
    at_word_start = frozenset(lit for lit in literals if word_start and _is_word_char(lit[0]))
    anywhere = frozenset(literals - at_word_start)
    # A single character, or a short letter run looked for inside words, is tried far too
    # often; it anchors a pattern only when nothing better does.
    crowded = any(len(_bare(lit)) < 2 for lit in literals) or any(
        _bare(lit).isalpha() and len(_bare(lit)) < 4 for lit in anywhere
    )
    return _Anchor(at_word_start, anywhere, sum(widths[:k]), sum(widths[k:]), crowded)


def _anchor(regex: str) -> _Anchor:
    """The anchor of `regex` (an alternation is anchored branch by branch when that is cheaper)."""
    anchor = _sequence_anchor(list(sre_parse.parse(regex).data))
    if anchor is None:
        raise ValueError(f"signal pattern without a literal anchor: {regex}")
    return anchor


def _trie(literals) -> str:
    """A regex matching any of `literals`, longest first, branching one character at a time."""
    root: dict = {}
    for literal in literals:
        node = root
        for ch in literal:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [
            re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch and ch != _END
        ]
        if _END in node:
            branches.append(_WORD_END)  # after the longer literals: the scan captures the longest
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)


# What one captured literal leads to: (pattern index, pattern, characters a match may start before it,
# characters it may reach after it).
_Entry = tuple[int, Pattern, int, int]


def _table(anchors: tuple[_Anchor, ...], kind: str) -> dict[str, tuple[_Entry, ...]]:
    """Captured literal -> the patterns with an anchor literal of this kind that may sit at its spot.

    The scan captures the longest literal at a spot, without its word-end mark: every shorter one
    there is its prefix, and a whole word among them ends where the capture does or before a
    non-word character of it.
    """
    owners: dict[str, set[tuple[str, int]]] = {}
    for i, anchor in enumerate(anchors):
        for literal in getattr(anchor, kind):
            owners.setdefault(_bare(literal), set()).add((literal, i))
    table = {}
    for captured in owners:
        indexes = {
            i
            for end in range(1, len(captured) + 1)
            for literal, i in owners.get(captured[:end], ())
            if _covers(literal, captured + _END)
        }
        table[captured] = tuple(
            (i, PATTERNS[i], anchors[i].before, anchors[i].after) for i in sorted(indexes)
        )
    return table


@dataclass(frozen=True)
class _Scanner:
    """The compiled scans and what each captured literal leads to."""

    word_table: dict[str, tuple[_Entry, ...]]
    free_table: dict[str, tuple[_Entry, ...]]
    word_scan: re.Pattern
    word_at_start: re.Pattern
    gap_scan: re.Pattern  # word starts in ASCII text whose gaps are all spaces (`_GAPS`)
    gap_table: dict[bytes, tuple[_Entry, ...]]  # word_table for the captures without a gap
    gap_reach: (
        int  # bytes a gap_scan match may look at: the space, the longest literal, its word end
    )
    free_scan: re.Pattern
    free_literals: tuple[tuple[str, str], ...]  # each bare literal, and its characters rarest first

    def may_hold_free(self, text: str) -> bool:
        """Whether some literal found anywhere may occur in `text` (False only when none does).

        Most text holds none, and a regex pass to prove it visits every character that starts
        one (every "t", for "todo"); a missing character answers at memchr speed. A substring
        search costs a tenth of the pass: it is made only when few literals are left to test.
        """
        if len(text) < _SHORT_TEXT:
            return True  # the test itself costs what the pass over this much text does
        present: dict[str, bool] = {}
        left = [
            literal
            for literal, characters in self.free_literals
            if all(present.setdefault(ch, ch in text) for ch in characters)
        ]
        return len(left) > _SUBSTRING_TESTS or any(literal in text for literal in left)


@cache
def _scanner() -> _Scanner:
    """Read every pattern for its anchor and compile the scans (once, on the first text)."""
    anchors = _recorded_anchors() or analysed_anchors()
    word_literals = {lit for anchor in anchors for lit in anchor.at_word_start}
    free_literals = {lit for anchor in anchors for lit in anchor.anywhere}
    # Literals found anywhere are consumed, which lets the engine skip to their first characters,
    # unless one could start inside another; then a look-ahead keeps every spot.
    bare = {_bare(lit) for lit in free_literals}
    nested = any(other in lit[1:] for lit in bare for other in bare)
    free = _trie(free_literals)
    # A class of the literals' first characters turns most spots away before the trie is tried
    # (spaces before spaces, digits and punctuation in structured output).
    firsts = re.escape("".join(sorted({lit[0] for lit in word_literals})))
    word_table = _table(anchors, "at_word_start")
    # The same literals with their gaps as spaces, for ASCII text reduced the same way. A
    # literal that is not ASCII cannot occur in ASCII text.
    gapped = {lit.translate(_GAP_IN_LITERAL) for lit in word_literals if lit.isascii()}
    return _Scanner(
        word_table,
        _table(anchors, "anywhere"),
        # Word starts: the character before a word, then the literal in a look-ahead (so the word
        # is not consumed). Starting with a character class lets the engine skip letters in a
        # tight loop; a leading `\b` would make it try every position. The class is wider than
        # `\W` (it takes in non-ASCII letters), which only adds spots: each pattern checks its own `\b`.
        re.compile(f"[^a-z0-9_](?=[{firsts}])(?=({_trie(word_literals)}))"),
        re.compile(f"({_trie(word_literals)})"),
        # With every gap a space, a literal prefix: the engine jumps from space to space at
        # memchr speed, where a class before each word is tested character by character.
        re.compile(f" (?=[{firsts}])(?=({_trie(gapped)}))".encode()),
        {
            captured.encode(): entries
            for captured, entries in word_table.items()
            if captured.isascii() and captured.translate(_GAP_IN_LITERAL) == captured
        },
        max(map(len, gapped)) + 2,
        re.compile(f"(?=({free}))" if nested else f"({free})"),
        # Punctuation and rare letters first: the presence test stops at the first one missing.
        tuple((lit, "".join(sorted(set(lit), key=_LETTER_ORDER.find))) for lit in sorted(bare)),
    )


def _hits(text: str) -> list[tuple[int, tuple[_Entry, ...]]]:
    """Every anchor occurrence in `text` with the patterns it can start, in text order."""
    scanner = _scanner()
    table = scanner.word_table
    if text.isascii():
        # A capture of word characters only is the same in the text, and no literal with a gap
        # is longer there: its entries are known. One with a space may be other punctuation in
        # the text, and the exact trie says which literal, if any, is there.
        gapped = _gap_hits(text, scanner)
        hits = gapped if _known(gapped) else _punctuated(gapped, text, scanner)
    else:
        hits = [(m.start() + 1, table[m[1]]) for m in scanner.word_scan.finditer(text)]
    first = scanner.word_at_start.match(text)
    if first:
        hits.insert(0, (0, table[first[1]]))
    if not scanner.may_hold_free(text):
        return hits
    table = scanner.free_table
    free = [(m.start(), table[m[1]]) for m in scanner.free_scan.finditer(text)]
    if free:
        hits += free
        hits.sort(key=lambda hit: hit[0])
    return hits


def _gap_hits(text: str, scanner: _Scanner) -> list[tuple[int, tuple[_Entry, ...] | None]]:
    """The gap scan over ASCII `text` reduced by `_GAPS`, a piece at a time: on a long text, a
    whole reduced copy (and the encoding before it) would double the memory the scan needs."""
    table, scan = scanner.gap_table, scanner.gap_scan
    if len(text) <= _GAP_PIECE:
        return [
            (m.start() + 1, table.get(m[1])) for m in scan.finditer(text.encode().translate(_GAPS))
        ]
    hits = []
    for start in range(0, len(text), _GAP_PIECE):
        # Each piece reaches into the next far enough for a match at its last space to be whole;
        # matches from that reach belong to the next piece.
        reduced = text[start : start + _GAP_PIECE + scanner.gap_reach].encode().translate(_GAPS)
        for m in scan.finditer(reduced):
            if m.start() >= _GAP_PIECE:
                break
            hits.append((start + m.start() + 1, table.get(m[1])))
    return hits


def _known(
    hits: list[tuple[int, tuple[_Entry, ...] | None]],
) -> TypeGuard[list[tuple[int, tuple[_Entry, ...]]]]:
    """Whether every hit has its entries already (no capture had a gap)."""
    return all(entries is not None for _, entries in hits)


def _punctuated(hits: list, text: str, scanner: _Scanner) -> list[tuple[int, tuple[_Entry, ...]]]:
    """The hits with a capture that had a gap (no entries yet) looked up again in the text itself:
    with the literal there, if any, or dropped."""
    resolved = []
    for at, entries in hits:
        if entries is None:
            exact = scanner.word_at_start.match(text, at)
            if not exact:
                continue
            entries = scanner.word_table[exact[1]]
        resolved.append((at, entries))
    return resolved


def find(text: str) -> list[tuple[Pattern, list[tuple[int, int]]]]:
    """Each pattern that matches the folded `text`, in table order, with its first match spans."""
    found: dict[int, list[tuple[int, int]]] = {}
    # Where finditer would look next, per pattern; past the end once a pattern has its matches.
    resume: dict[int, int] = {}
    size = len(text)
    done = size + 1
    for at, entries in _hits(text):
        for index, pattern, before, after in entries:
            regex = pattern.regex
            low = resume.get(index, 0)
            if not before:
                if at >= low:
                    match = regex.match(text, at)
                    if match:
                        spans = found.setdefault(index, [])
                        spans.append(match.span())
                        resume[index] = (
                            max(match.end(), at + 1) if len(spans) < MATCHES_PER_PATTERN else done
                        )
                continue
            # Matches starting in text[at - before : at + 1], as finditer would report them. The
            # search may stop where no match containing this anchor can reach; whatever it finds
            # is matched again on the whole text, so the cut never changes a match.
            low = max(low, at - before)
            end = min(size, at + after + _LOOKAROUND_MARGIN)
            while low <= at:
                candidate = regex.search(text, low, end)
                if candidate is None or candidate.start() > at:
                    break
                match = regex.match(text, candidate.start())
                if match:
                    spans = found.setdefault(index, [])
                    spans.append(match.span())
                    low = (
                        max(match.end(), match.start() + 1)
                        if len(spans) < MATCHES_PER_PATTERN
                        else done
                    )
                else:
                    low = candidate.start() + 1
                resume[index] = low
    return [(PATTERNS[index], spans) for index, spans in sorted(found.items())]


# -- the precomputed anchors ------------------------------------------------------------------

_TABLE_FILE = Path(__file__).with_name("anchors.json")


def analysed_anchors() -> tuple[_Anchor, ...]:
    """Every pattern read for its anchor, in table order."""
    return tuple(_anchor(p.source) for p in PATTERNS)


def anchor_table() -> dict:
    """What `anchors.json` holds: the anchors and the pattern sources they were read from (a hash)."""
    return {
        "sources": _sources_key(),
        "anchors": [
            [sorted(a.at_word_start), sorted(a.anywhere), a.before, a.after, a.crowded]
            for a in analysed_anchors()
        ],
    }


def _sources_key() -> str:
    return hashlib.sha256("\0".join(p.source for p in PATTERNS).encode()).hexdigest()


def _recorded_anchors() -> tuple[_Anchor, ...] | None:
    """The shipped anchors, if they were read from the patterns as they are now."""
    try:
        recorded = json.loads(_TABLE_FILE.read_text(encoding="utf-8"))
        if recorded["sources"] != _sources_key() or len(recorded["anchors"]) != len(PATTERNS):
            return None
        return tuple(
            _Anchor(frozenset(word_start), frozenset(anywhere), before, after, crowded)
            for word_start, anywhere, before, after, crowded in recorded["anchors"]
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None  # missing or unreadable: the patterns are read afresh


def write_table() -> None:
    """Write `anchors.json` anew (after the patterns or this analysis changed)."""
    _TABLE_FILE.write_text(json.dumps(anchor_table(), indent=0) + "\n", encoding="utf-8")
