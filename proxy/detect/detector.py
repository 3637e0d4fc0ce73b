"""Score text for instruction-shaped content and say why: each signal with its weight and excerpt."""

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import islice

from ..matcher import engine
from .concept_rules import concept_signals
from .context import UNKNOWN_FIELD, Field, kind_of_key
from .normalize import fold, mixed_script_words
from .signals import HOMOGLYPHS, PATTERNS, Pattern

DEFAULT_THRESHOLD = 1.0
# Further distinct patterns of one signal kind count less and less: the second half, the third
# a quarter. Independent kinds of evidence add up; rewordings of one kind barely do.
_REPEAT_DECAY = 0.5
_EXCERPT_CHARS = 120
# A pattern that matches many times is still one piece of evidence: only its first few matches
# are kept (as excerpts), which also bounds the work on a huge string.
MATCHES_PER_PATTERN = 3
# What evidence weighs inside prose about attacks: such prose quotes an override and an
# extraction side by side ("attackers make the model ignore ... and leak ..."), which must stay
# under the threshold; an attack that says more than that still reaches it.
_DISCUSSED = 0.35
# The kind all reported evidence is counted under (no signal is named so).
_REPORTED = ""


@dataclass(frozen=True)
class Signal:
    """One piece of evidence: its kind, its weight, and where in the original text it was found."""

    name: str
    weight: float
    excerpt: str
    start: int
    end: int
    # The key of the field the evidence was judged against ("reviews"), for signals that depend
    # on where the text sits; empty for the others.
    key: str = ""


@dataclass(frozen=True)
class Detection:
    """The combined score and every signal behind it."""

    score: float
    signals: list[Signal] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        """The distinct signal kinds, strongest first."""
        best: dict[str, float] = {}
        for signal in self.signals:
            best[signal.name] = max(best.get(signal.name, 0.0), signal.weight)
        return sorted(best, key=lambda name: -best[name])


def _excerpt(text: str, start: int, end: int) -> str:
    piece = " ".join(text[start:end].split())
    return piece if len(piece) <= _EXCERPT_CHARS else piece[: _EXCERPT_CHARS - 1] + "…"


# Regular-expression syntax among a signal's words ("ignore (all )?previous", "(DAN|evil)",
# "(?i)"): a filter's rule that matches the attack, which quotes it rather than gives it.
_PATTERN_SYNTAX = re.compile(r"\)[?*+]|\(\?[:i!=<]|\\[bsdw]|\.[*+]|\([^()\s|]{1,30}\|")
# How far beside a signal's words such syntax is looked for: the rest of its group or word.
_PATTERN_MARGIN = 12


def _in_a_pattern(text: str, start: int, end: int) -> bool:
    """Whether the words at `text[start:end]` are written as a regular expression."""
    low = max(start - _PATTERN_MARGIN, text.rfind("\n", 0, start) + 1)
    high = text.find("\n", end, end + _PATTERN_MARGIN)
    return (
        _PATTERN_SYNTAX.search(text, low, high if high >= 0 else end + _PATTERN_MARGIN) is not None
    )


def find(
    text: str, scan: engine.Engine | None = None
) -> list[tuple[Pattern, list[tuple[int, int]]]]:
    """Each pattern that matches the folded `text`, in table order, with its first match spans.

    `scan` names the patterns worth running (default: the fastest engine there is); each of
    them is run by `re` itself, so every engine finds exactly the same.
    """
    scan = scan or _patterns()
    found = []
    for index in scan.candidates(text):
        pattern = PATTERNS[index]
        spans = [m.span() for m in islice(pattern.regex.finditer(text), MATCHES_PER_PATTERN)]
        if spans:
            found.append((pattern, spans))
    return found


@cache
def _patterns() -> engine.Engine:
    """The fastest engine for the signal table, built once: `find` runs for every text."""
    return engine.compiled([p.source for p in PATTERNS])


# A result's keys repeat in each of its records, and every text asks for its key's kind.
@lru_cache(maxsize=4096)
def _field_of(key: str) -> Field:
    return Field(kind_of_key(key), key)


def detect(
    text: str,
    scan: engine.Engine | None = None,
    key: str = "",
    kinds: frozenset[str] | None = None,
) -> Detection:
    """Every signal found in `text` and their combined score.

    `key` is the key of the field the text sits in, if known (see `context.telling_key`).
    `kinds`, if given, are the only signal kinds that count: the others are neither scored nor
    shown (text written for the model is judged only for what no such text should ask).
    """
    folded = fold(text)
    haystack = folded.text
    signals: list[Signal] = []
    weights: dict[str, list[float]] = {}
    outer = _field_of(key) if key else UNKNOWN_FIELD
    reading = concept_signals(haystack, outer)

    def weighed(weight: float, reported: bool) -> float:
        # Prose about attacks quotes them ("attackers ask the model to ignore ..."): evidence that
        # lies wholly in such clauses or quotations counts for a third or so.
        return weight * _DISCUSSED if reported else weight

    def count(name: str, weight: float, reported: bool) -> None:
        # All reported evidence is one piece (that the text reports attacks), however many kinds.
        weights.setdefault(_REPORTED if reported else name, []).append(weight)

    for pattern, spans in find(haystack, scan):
        if kinds is not None and pattern.name not in kinds:
            continue
        reported = all(
            reading.in_discussion(start) or _in_a_pattern(haystack, start, end)
            for start, end in spans
        )
        weight = weighed(pattern.weight, reported)
        count(pattern.name, weight, reported)
        for span in spans:
            start, end = folded.original_span(*span)
            signals.append(Signal(pattern.name, weight, _excerpt(text, start, end), start, end))
    rules_held: set[int] = set()
    # Strongest first, so where two rules of one kind read the same words the stronger counts.
    for found in sorted(reading.signals, key=lambda found: -found.weight):
        if kinds is not None and found.name not in kinds:
            continue
        start, end = folded.original_span(found.start, found.end)
        # The English patterns and the concepts often read the same words: one piece of evidence.
        if any(s.name == found.name and s.start < end and start < s.end for s in signals):
            continue
        reported = reading.reported(found) or _in_a_pattern(haystack, found.start, found.end)
        weight = weighed(found.weight, reported)
        # Like a pattern, a rule that holds in many clauses is one piece of evidence.
        if found.rule not in rules_held:
            rules_held.add(found.rule)
            count(found.name, weight, reported)
        signals.append(
            Signal(found.name, weight, _excerpt(text, start, end), start, end, found.field.key)
        )
    mixed = mixed_script_words(text) if kinds is None or HOMOGLYPHS in kinds else []
    if mixed:
        # One odd word can be a typo or a loanword; several are a deliberate disguise.
        weight = (0.3, 0.6, 1.0)[len(mixed) - 1]
        weights[HOMOGLYPHS] = [weight]
        signals.extend(Signal(HOMOGLYPHS, weight, _excerpt(text, s, e), s, e) for s, e in mixed)
    score = 0.0
    for kind_weights in weights.values():
        kind_weights.sort(reverse=True)
        score += sum(w * _REPEAT_DECAY**i for i, w in enumerate(kind_weights))
    signals.sort(key=lambda s: (s.start, -s.weight))
    return Detection(round(score, 3), signals)


def looks_like_instructions(text: str, threshold: float = DEFAULT_THRESHOLD) -> bool:
    """Whether `text` scores at or above `threshold` (the sanitizer asks this of decoded payloads)."""
    return detect(text).score >= threshold
