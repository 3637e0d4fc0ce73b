"""Find where each signal pattern can match with one C-level scan of the folded text.

Running every pattern over every field cost more than the rest of the proxy together, and so
did a Python pass over the words. Instead each pattern is read once, at import, for an anchor:
a set of literal strings that every match contains at a known place (its start, or a bounded
distance after it), chosen to be rare words rather than "the" or "you". One regex made of all
anchors as a trie finds every occurrence in C; each occurrence tries only the patterns it can
start, with `match` at the spot or a search in a small window before it. A text without
anchors costs that one scan. Matches are reported exactly as `finditer` would find them.
"""

import re
from dataclasses import dataclass
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
_FREE_COST = 4  # an anchor found anywhere (not only at a word start) is tried at every character
_CROWDED_FACTOR = 50
_WINDOW_PER_CALL = 100  # characters of window searched for the cost of one match call
_LONGEST_LITERAL = 10  # anchor literals are cut to this length (a shorter prefix is still an anchor)
# An unbounded repeat (a word, `\w++`) is assumed no longer than this when sizing a window; a
# match stretched further is not looked for, which no natural wording needs.
_UNBOUNDED_WIDTH = 64
# Characters past a window's end that a trailing look-around or `\b` may read.
_LOOKAROUND_MARGIN = 16

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_NOT_WORD = [(sre.IN, [(sre.CATEGORY, sre.CATEGORY_NOT_WORD)])]


def _prefixes(items: list, i: int = 0, room: int = _LONGEST_LITERAL) -> set[tuple[str, bool]]:
    """Literal strings every match of items[i:] starts with, each flagged when it is the whole match.

    An empty string means no literal is certain there; strings stop growing after `room` characters.
    """
    if room <= 0:
        return {("", False)}
    if i >= len(items):
        return {("", True)}
    op, arg = items[i]
    if op is sre.AT and arg is sre.AT_BOUNDARY:
        return _prefixes(items, i + 1, room)  # zero-width: the literal after it still starts the match
    if op is sre.LITERAL:
        return {(chr(arg) + rest, whole) for rest, whole in _prefixes(items, i + 1, room - 1)}
    if op is sre.SUBPATTERN:
        heads = _prefixes(list(arg[3]), 0, room)
    elif op is sre.ATOMIC_GROUP:
        heads = _prefixes(list(arg), 0, room)
    elif op is sre.BRANCH:
        heads = set().union(*(_prefixes(list(branch), 0, room) for branch in arg[1]))
    elif op is sre.IN and len(arg) <= 8 and all(kind is sre.LITERAL for kind, _ in arg):
        heads = {(chr(code), True) for _, code in arg}
    elif op in _REPEATS:
        low, high, body = arg
        inner = _prefixes(list(body), 0, room)
        if low == 0 and high == 1:
            heads = inner | {("", True)}
        elif low == 0:
            return {(head, False) for head, _ in inner} | _prefixes(items, i + 1, room)
        else:
            return {(head, False) for head, _ in inner}
    else:
        return {("", False)}
    out = set()
    tails: dict[int, set[tuple[str, bool]]] = {}  # what follows, by how much room is left
    for head, whole in heads:
        if whole:
            left = room - len(head)
            if left not in tails:
                tails[left] = _prefixes(items, i + 1, left)
            out |= {(head + rest, done) for rest, done in tails[left]}
        else:
            out.add((head, False))
    return out


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
            total += _UNBOUNDED_WIDTH if high == sre.MAXREPEAT else min(high * one, high * _UNBOUNDED_WIDTH)
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
    crowded: bool  # some literal is a single character, or a short letter run looked for inside words

    @property
    def cost(self) -> float:
        """How often the anchor is expected to turn up, times the work each occurrence costs."""
        often = sum(_COMMON_COST if literal in _COMMON else 1 for literal in self.at_word_start)
        often += _FREE_COST * sum(_COMMON_COST if literal in _COMMON else 1 for literal in self.anywhere)
        if self.crowded:
            often *= _CROWDED_FACTOR
        # A match tried at the anchor is one call; a window is searched through, position by position.
        return often * (1 + (self.before + self.after) / _WINDOW_PER_CALL if self.before else 1)


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _outside_word(arg: list) -> bool:
    """Whether a character class holds only non-word characters."""
    return all((kind is sre.LITERAL and not _is_word_char(chr(value)))
               or (kind is sre.CATEGORY and value in (sre.CATEGORY_NOT_WORD, sre.CATEGORY_SPACE))
               for kind, value in arg)


def _ends_outside_word(items: list, end: int) -> bool:
    """Whether every match of items[:end] ends with a non-word character or at the text's start."""
    if end == 0:
        return False
    op, arg = items[end - 1]
    if op is sre.AT:
        return arg is sre.AT_BEGINNING or arg is sre.AT_BEGINNING_STRING
    if op is sre.LITERAL:
        return not _is_word_char(chr(arg))
    if op is sre.IN:
        return _outside_word(arg)
    if op is sre.SUBPATTERN:
        inner = list(arg[3])
        return _ends_outside_word(inner, len(inner))
    if op is sre.BRANCH:
        return all(_ends_outside_word(list(branch), len(branch)) for branch in arg[1])
    if op in _REPEATS:
        low, _, body = arg
        body = list(body)
        last = _ends_outside_word(body, len(body))
        return last if low else last and _ends_outside_word(items, end - 1)
    return False


def _shortest(literals: set[str]) -> set[str]:
    """The literals without those that extend another: the shorter is found wherever the longer is."""
    kept: list[str] = []
    for literal in sorted(literals):  # a prefix sorts just before the literals that extend it
        if not kept or not literal.startswith(kept[-1]):
            kept.append(literal)
    return set(kept)


def _sequence_anchor(items: list) -> _Anchor | None:
    """The cheapest anchor among the top-level elements of one sequence."""
    best = None
    widths = [_width([item]) for item in items]
    for k in range(len(items)):
        if k and items[k][0] is sre.LITERAL and items[k - 1][0] is sre.LITERAL:
            continue  # the middle of a literal run: its start is the better anchor
        heads = {head for head, _ in _prefixes(items, k)}
        if not heads or "" in heads:
            continue
        literals = _shortest(heads)
        # A literal that starts with a word character right after `\b` or a non-word character
        # starts a word: the scan looks for it at word starts only.
        word_start = (k and items[k - 1] == (sre.AT, sre.AT_BOUNDARY)) or _ends_outside_word(items, k)
        at_word_start = frozenset(lit for lit in literals if word_start and _is_word_char(lit[0]))
        anywhere = frozenset(literals - at_word_start)
        # A single character, or a short letter run looked for inside words, is tried far too
        # often; it anchors a pattern only when nothing better does.
        crowded = any(len(lit) < 2 for lit in literals) or any(lit.isalpha() and len(lit) < 4 for lit in anywhere)
        candidate = _Anchor(at_word_start, anywhere, sum(widths[:k]), sum(widths[k:]), crowded)
        if best is None or candidate.cost < best.cost:
            best = candidate
    return best


def _anchor(regex: str) -> _Anchor:
    """The anchor of `regex`; a regex that is one alternation gets the union of its branches' anchors."""
    items = list(sre_parse.parse(regex))
    # The parser moves a prefix shared by all branches (such as `\b`) in front of the alternation.
    lead = 0
    while lead < len(items) and items[lead][0] is sre.AT:
        lead += 1
    if lead == len(items) - 1 and items[lead][0] is sre.BRANCH:
        parts = [_sequence_anchor(items[:lead] + list(branch)) for branch in items[lead][1][1]]
    else:
        parts = [_sequence_anchor(items)]
    if None in parts:
        raise ValueError(f"signal pattern without a literal anchor: {regex}")
    return _Anchor(frozenset().union(*(a.at_word_start for a in parts)), frozenset().union(*(a.anywhere for a in parts)),
                   max(a.before for a in parts), max(a.after for a in parts), any(a.crowded for a in parts))


def _trie(literals) -> str:
    """A regex matching any of `literals`, longest first, branching one character at a time."""
    root: dict = {}
    for literal in literals:
        node = root
        for ch in literal:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)


# What one captured literal leads to: (pattern index, regex, characters a match may start before it,
# characters it may reach after it).
_Entry = tuple[int, re.Pattern, int, int]
_ANCHORS = tuple(_anchor(p.regex.pattern) for p in PATTERNS)


def _table(literals: set[str], kind: str) -> dict[str, tuple[_Entry, ...]]:
    """Captured literal -> the patterns with an anchor literal of this kind that is a prefix of it.

    The scan captures the longest literal at a spot; every shorter one there is its prefix.
    """
    owners: dict[str, set[int]] = {}
    for i, anchor in enumerate(_ANCHORS):
        for literal in getattr(anchor, kind):
            owners.setdefault(literal, set()).add(i)
    table = {}
    for captured in literals:
        indexes = set().union(*(owners.get(captured[:end], ()) for end in range(1, len(captured) + 1)))
        table[captured] = tuple((i, PATTERNS[i].regex, _ANCHORS[i].before, _ANCHORS[i].after) for i in sorted(indexes))
    return table


_WORD_LITERALS = {lit for anchor in _ANCHORS for lit in anchor.at_word_start}
_FREE_LITERALS = {lit for anchor in _ANCHORS for lit in anchor.anywhere}
_WORD_TABLE = _table(_WORD_LITERALS, "at_word_start")
_FREE_TABLE = _table(_FREE_LITERALS, "anywhere")
# Word starts: the character before a word, then the literal in a look-ahead (so the word is not
# consumed). Starting with a character class lets the engine skip letters in a tight loop; a
# leading `\b` would make it try every position. The class is wider than `\W` (it takes in
# non-ASCII letters), which only adds spots: each pattern checks its own `\b`.
_WORD_SCAN = re.compile(f"[^a-z0-9_](?=({_trie(_WORD_LITERALS)}))")
_WORD_AT_START = re.compile(_trie(_WORD_LITERALS))
# Literals found anywhere are consumed, which lets the engine skip to their first characters,
# unless one could start inside another; then a look-ahead keeps every spot.
_NESTED = any(other in lit[1:] for lit in _FREE_LITERALS for other in _FREE_LITERALS)
_FREE_SCAN = re.compile(f"(?=({_trie(_FREE_LITERALS)}))" if _NESTED else f"({_trie(_FREE_LITERALS)})")


def _hits(text: str) -> list[tuple[int, tuple[_Entry, ...]]]:
    """Every anchor occurrence in `text` with the patterns it can start, in text order."""
    hits = [(m.start() + 1, _WORD_TABLE[m[1]]) for m in _WORD_SCAN.finditer(text)]
    first = _WORD_AT_START.match(text)
    if first:
        hits.insert(0, (0, _WORD_TABLE[first[0]]))
    free = [(m.start(), _FREE_TABLE[m[1]]) for m in _FREE_SCAN.finditer(text)]
    if free:
        hits += free
        hits.sort(key=lambda hit: hit[0])
    return hits


def find(text: str) -> list[tuple[Pattern, list[tuple[int, int]]]]:
    """Each pattern that matches the folded `text`, in table order, with its first match spans."""
    found: dict[int, list[tuple[int, int]]] = {}
    resume: dict[int, int] = {}  # where finditer would look next, per pattern
    size = len(text)
    for at, entries in _hits(text):
        for index, regex, before, after in entries:
            spans = found.get(index)
            if spans is None:
                spans = found[index] = []
            elif len(spans) >= MATCHES_PER_PATTERN:
                continue
            low = resume.get(index, 0)
            if before == 0:
                if at >= low:
                    match = regex.match(text, at)
                    if match:
                        spans.append(match.span())
                        resume[index] = max(match.end(), at + 1)
                continue
            # Matches starting in text[at - before : at + 1], as finditer would report them. The
            # search may stop where no match containing this anchor can reach; whatever it finds
            # is matched again on the whole text, so the cut never changes a match.
            low = max(low, at - before)
            end = min(size, at + after + _LOOKAROUND_MARGIN)
            while low <= at and len(spans) < MATCHES_PER_PATTERN:
                candidate = regex.search(text, low, end)
                if candidate is None or candidate.start() > at:
                    break
                match = regex.match(text, candidate.start())
                if match:
                    spans.append(match.span())
                    low = max(match.end(), match.start() + 1)
                else:
                    low = candidate.start() + 1
                resume[index] = low
    return [(PATTERNS[index], spans) for index, spans in sorted(found.items()) if spans]
