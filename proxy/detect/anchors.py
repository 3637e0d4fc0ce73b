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
    "a about after all also an and any are as at be because been before but by can could do does for from get give"
    " has have he her his how i if in into is it its just me more my new no not now of on one only or our out please"
    " she so some than that the their them then there these they this those to up us use was we were what when which"
    " who will with would you your".split()
)
_COMMON_COST = 100
_FREE_COST = 4  # an anchor found anywhere (not only at a word start) is tried at every character
_CROWDED_FACTOR = 50
_WIDTH_PER_COST = 40  # characters of window before the anchor worth one rare anchor literal
_LONGEST_LITERAL = 16  # anchor literals are cut to this length (a shorter prefix is still an anchor)
# An unbounded repeat (a word, `\w++`) is assumed no longer than this when sizing a window; a
# match stretched further is not looked for, which no natural wording needs.
_UNBOUNDED_WIDTH = 64
# Characters past a window's end that a trailing look-around or `\b` may read.
_LOOKAROUND_MARGIN = 16

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_NOT_WORD = [(sre.IN, [(sre.CATEGORY, sre.CATEGORY_NOT_WORD)])]


def _prefixes(items: list, i: int = 0) -> set[tuple[str, bool]]:
    """Literal strings every match of items[i:] starts with, each flagged when it is the whole match.

    An empty string means no literal is certain there.
    """
    if i >= len(items):
        return {("", True)}
    op, arg = items[i]
    if op is sre.AT and arg is sre.AT_BOUNDARY:
        return _prefixes(items, i + 1)  # zero-width: the literal after it still starts the match
    if op is sre.LITERAL:
        return {((chr(arg) + rest)[:_LONGEST_LITERAL], whole and len(rest) < _LONGEST_LITERAL)
                for rest, whole in _prefixes(items, i + 1)}
    if op is sre.SUBPATTERN:
        heads = _prefixes(list(arg[3]))
    elif op is sre.ATOMIC_GROUP:
        heads = _prefixes(list(arg))
    elif op is sre.BRANCH:
        heads = set().union(*(_prefixes(list(branch)) for branch in arg[1]))
    elif op is sre.IN and len(arg) <= 8 and all(kind is sre.LITERAL for kind, _ in arg):
        heads = {(chr(code), True) for _, code in arg}
    elif op in _REPEATS:
        low, high, body = arg
        inner = _prefixes(list(body))
        if low == 0 and high == 1:
            heads = inner | {("", True)}
        elif low == 0:
            return {(head, False) for head, _ in inner} | _prefixes(items, i + 1)
        else:
            return {(head, False) for head, _ in inner}
    else:
        return {("", False)}
    out = set()
    for head, whole in heads:
        if whole:
            out |= {((head + rest)[:_LONGEST_LITERAL], done and len(head + rest) < _LONGEST_LITERAL)
                    for rest, done in _prefixes(items, i + 1)}
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
    """Where one pattern is looked for: after these literals, starting at most `before` characters earlier."""

    literals: frozenset[str]
    at_word_start: bool
    before: int
    after: int
    crowded: bool  # some literal is a single character or a short letter run inside words

    @property
    def cost(self) -> float:
        each = sum(_COMMON_COST if literal in _COMMON else 1 for literal in self.literals)
        each *= (1 if self.at_word_start else _FREE_COST) * (_CROWDED_FACTOR if self.crowded else 1)
        return each + self.before / _WIDTH_PER_COST


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _ends_outside_word(items: list, end: int) -> bool:
    """Whether every match of items[:end] ends with a non-word character (or is the text's start)."""
    if end == 0:
        return False
    op, arg = items[end - 1]
    if op is sre.AT:
        return arg is sre.AT_BEGINNING or arg is sre.AT_BEGINNING_STRING
    if op is sre.LITERAL:
        return not _is_word_char(chr(arg))
    if op is sre.IN:
        return arg == _NOT_WORD[0][1] or all(kind is sre.LITERAL and not _is_word_char(chr(code)) for kind, code in arg)
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


def _anchor(regex: str) -> _Anchor:
    """The cheapest anchor of `regex`: a top-level element whose literal prefixes every match contains."""
    items = list(sre_parse.parse(regex))
    best = None
    for k in range(len(items)):
        if k and items[k][0] is sre.LITERAL and items[k - 1][0] is sre.LITERAL:
            continue  # the middle of a literal run: its start is the better anchor
        heads = {head for head, _ in _prefixes(items, k)}
        if not heads or "" in heads:
            continue
        # A literal with a shorter one as its prefix adds nothing: the shorter is found first.
        literals = {head for head in heads if not any(head != other and head.startswith(other) for other in heads)}
        # A literal that starts with a word character right after `\b` or a non-word character
        # starts a word: the scan looks for it at word starts only.
        at_word_start = all(_is_word_char(literal[0]) for literal in literals) and (
            (k and items[k - 1] == (sre.AT, sre.AT_BOUNDARY)) or _ends_outside_word(items, k)
        )
        # A single character, or a short letter run looked for inside words, is tried far too
        # often; it anchors a pattern only when nothing better does.
        crowded = any(len(literal) < 2 or (not at_word_start and literal.isalpha() and len(literal) < 4)
                      for literal in literals)
        candidate = _Anchor(frozenset(literals), at_word_start, _width(items[:k]), _width(items[k:]), crowded)
        if best is None or candidate.cost < best.cost:
            best = candidate
    if best is None:
        raise ValueError(f"signal pattern without a literal anchor: {regex}")
    return best


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


@dataclass(frozen=True)
class _Plan:
    """One pattern as the scan drives it."""

    index: int
    pattern: Pattern
    anchor: _Anchor


_PLANS = tuple(_Plan(i, p, _anchor(p.regex.pattern)) for i, p in enumerate(PATTERNS))


def _scanner(at_word_start: bool) -> tuple[re.Pattern, dict[str, tuple[_Plan, ...]]]:
    """The scan regex for one kind of anchor, and the plans each captured literal can start.

    The scan is a look-ahead, so every position is considered and one hit cannot hide another
    that starts inside it; it captures the longest literal there, and every shorter anchor
    literal found at the same spot is one of its prefixes.
    """
    plans = [plan for plan in _PLANS if plan.anchor.at_word_start == at_word_start]
    literals = {literal for plan in plans for literal in plan.anchor.literals}
    table = {
        captured: tuple(plan for plan in plans if any(captured.startswith(lit) for lit in plan.anchor.literals))
        for captured in literals
    }
    regex = rf"\b(?=({_trie(literals)}))" if at_word_start else f"(?=({_trie(literals)}))"
    return re.compile(regex), table


_SCANNERS = (_scanner(True), _scanner(False))


def find(text: str) -> list[tuple[Pattern, list[tuple[int, int]]]]:
    """Each pattern that matches the folded `text`, in table order, with its first match spans."""
    found: dict[int, list[tuple[int, int]]] = {}
    resume: dict[int, int] = {}  # where finditer would look next, per pattern
    size = len(text)
    for scanner, table in _SCANNERS:
        for hit in scanner.finditer(text):
            at = hit.start()
            for plan in table[hit[1]]:
                spans = found.get(plan.index)
                if spans is not None and len(spans) >= MATCHES_PER_PATTERN:
                    continue
                start = resume.get(plan.index, 0)
                if plan.anchor.before == 0:
                    if at < start:
                        continue
                    match = plan.pattern.regex.match(text, at)
                    if match:
                        found.setdefault(plan.index, []).append(match.span())
                        resume[plan.index] = max(match.end(), at + 1)
                    continue
                _search_window(plan, text, max(start, at - plan.anchor.before), at, size, found, resume)
    return [(PATTERNS[index], found[index]) for index in sorted(found)]


def _search_window(plan: _Plan, text: str, low: int, at: int, size: int,
                   found: dict[int, list[tuple[int, int]]], resume: dict[int, int]) -> None:
    """Matches of `plan` that start in text[low:at + 1], as finditer would report them."""
    regex = plan.pattern.regex
    # The search may stop where no match containing this anchor can reach; whatever it finds
    # is matched again on the whole text, so the cut never changes a match.
    end = min(size, at + plan.anchor.after + _LOOKAROUND_MARGIN)
    spans = found.setdefault(plan.index, [])
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
        resume[plan.index] = low
    if not spans:
        del found[plan.index]
