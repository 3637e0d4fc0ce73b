"""The rules reading: the English signal patterns and the concept rules of every language."""

import re
from bisect import bisect_left
from functools import cache
from itertools import islice

from ..matcher import engine
from .concept_rules import concept_signals
from .evidence import Evidence, Page, Signal, excerpt
from .signals import PATTERNS, Pattern, patterns_engine

# A pattern that matches many times is still one piece of evidence: only its first few matches
# are kept (as excerpts), which also bounds the work on a huge string.
MATCHES_PER_PATTERN = 3
# What evidence weighs inside prose about attacks: such prose quotes an override and an
# extraction side by side ("attackers make the model ignore ... and leak ..."), which must stay
# under the threshold; an attack that says more than that still reaches it.
_DISCUSSED = 0.35
# The kind all reported evidence is counted under (no signal is named so).
_REPORTED = ""


# Regular-expression syntax among a signal's words ("ignore (all )?previous", "(DAN|evil)",
# "(?i)"): a filter's rule that matches the attack, which quotes it rather than gives it.
@cache
def _pattern_syntax() -> re.Pattern[str]:
    return re.compile(r"\)[?*+]|\(\?[:i!=<]|\\[bsdw]|\.[*+]|\([^()\s|]{1,30}\|")


# How far beside a signal's words such syntax is looked for: the rest of its group or word.
_PATTERN_MARGIN = 12


def _in_a_pattern(text: str, start: int, end: int) -> bool:
    """Whether the words at `text[start:end]` are written as a regular expression."""
    low = max(start - _PATTERN_MARGIN, text.rfind("\n", 0, start) + 1)
    high = text.find("\n", end, end + _PATTERN_MARGIN)
    return (
        _pattern_syntax().search(text, low, high if high >= 0 else end + _PATTERN_MARGIN)
        is not None
    )


def find(
    text: str, scan: engine.Engine | None = None
) -> list[tuple[Pattern, list[tuple[int, int]]]]:
    """Each pattern that matches the folded `text`, in table order, with its first match spans.

    `scan` names the patterns worth running (default: the fastest engine there is); each of
    them is run by `re` itself, so every engine finds exactly the same.
    """
    scan = scan or patterns_engine()
    found = []
    for index in scan.candidates(text):
        pattern = PATTERNS[index]
        spans = [m.span() for m in islice(pattern.regex.finditer(text), MATCHES_PER_PATTERN)]
        if spans:
            found.append((pattern, spans))
    return found


def _weighed(weight: float, reported: bool) -> float:
    # Prose about attacks quotes them ("attackers ask the model to ignore ..."): evidence that
    # lies wholly in such clauses or quotations counts for a third or so.
    return weight * _DISCUSSED if reported else weight


class RulesReading:
    """Reads the folded text with the pattern table and the concept rules.

    Both find words; where they read the same words as the same kind, that is one piece of
    evidence. All evidence that lies in prose about attacks is counted as one piece, whatever its
    kinds, and weighs about a third.
    """

    name = "rules"

    def __init__(self, scan: engine.Engine | None = None) -> None:
        self._scan = scan  # None: the fastest engine there is

    def read(self, page: Page) -> Evidence:
        folded = page.folded
        haystack = folded.text
        text = page.text
        found = Evidence()
        signals = found.signals
        matched = find(haystack, self._scan)
        reading = concept_signals(haystack, page.field, weighing=bool(matched))

        def count(name: str, weight: float, reported: bool) -> None:
            # All reported evidence is one piece (that the text reports attacks), however many kinds.
            found.count(_REPORTED if reported else name, weight)

        for pattern, spans in matched:
            if not page.counts(pattern.name):
                continue
            reported = all(
                reading.in_discussion(start) or _in_a_pattern(haystack, start, end)
                for start, end in spans
            )
            weight = _weighed(pattern.weight, reported)
            count(pattern.name, weight, reported)
            for span in spans:
                start, end = folded.original_span(*span)
                signals.append(Signal(pattern.name, weight, excerpt(text, start, end), start, end))
        rules_held: set[int] = set()
        # Strongest first, so where two rules of one kind read the same words the stronger counts.
        strongest = [
            (held, *folded.original_span(held.start, held.end))
            for held in sorted(reading.signals, key=lambda held: -held.weight)
            if page.counts(held.name)
        ]
        kept = _Spans(
            [*((s.name, s.start) for s in signals), *((h.name, a) for h, a, _ in strongest)]
        )
        for signal in signals:
            kept.add(signal.name, signal.start, signal.end)
        for held, start, end in strongest:
            # The English patterns and the concepts often read the same words: one piece of evidence.
            if kept.overlaps(held.name, start, end):
                continue
            reported = reading.reported(held) or _in_a_pattern(haystack, held.start, held.end)
            weight = _weighed(held.weight, reported)
            # Like a pattern, a rule that holds in many clauses is one piece of evidence.
            if held.rule not in rules_held:
                rules_held.add(held.rule)
                count(held.name, weight, reported)
            signals.append(
                Signal(held.name, weight, excerpt(text, start, end), start, end, held.field.key)
            )
            kept.add(held.name, start, end)
        return found


class _Spans:
    """The spans of the signals kept so far, by kind: whether a span overlaps one of them (starts
    before its end and ends after its start), asked in logarithmic time. A text can hold
    thousands of clauses that each make a signal, and asking every kept signal made that
    quadratic (minutes for a crafted megabyte).

    Per kind, a Fenwick tree over the starts the spans may have (all given up front) keeps the
    furthest end of the spans kept at or before each start.
    """

    def __init__(self, starts: list[tuple[str, int]]) -> None:
        by_kind: dict[str, set[int]] = {}
        for kind, start in starts:
            by_kind.setdefault(kind, set()).add(start)
        self._starts = {kind: sorted(found) for kind, found in by_kind.items()}
        self._ends = {kind: [-1] * (len(found) + 1) for kind, found in self._starts.items()}

    def add(self, kind: str, start: int, end: int) -> None:
        """Keep the span `start`-`end` of `kind` (its start one of those given)."""
        ends = self._ends[kind]
        at = bisect_left(self._starts[kind], start) + 1
        while at < len(ends):
            ends[at] = max(ends[at], end)
            at += at & -at

    def overlaps(self, kind: str, start: int, end: int) -> bool:
        """Whether a span of `kind` kept so far starts before `end` and ends after `start`."""
        starts = self._starts.get(kind)
        if not starts:
            return False
        ends = self._ends[kind]
        at, furthest = bisect_left(starts, end), -1
        while at:
            furthest = max(furthest, ends[at])
            at -= at & -at
        return furthest > start
