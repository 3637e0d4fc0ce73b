"""Signals made of concepts: a few concepts of the tables in one clause, in any order and language.

"Ignore" with "instructions" and "previous" in one clause is an override whether it reads
"ignore all previous instructions", "忽略以上所有指令" or "önceki tüm talimatları yok say". A
clause ends at sentence punctuation, a blank line, a list item or the end of a quoted JSON
value; the concepts of one rule must also lie within `WINDOW` characters of each other, so two
unrelated halves of a long run-on sentence do not make a signal.

A few concepts are not words: `destination` (an e-mail address, a URL, an account number in
IBAN form), `amount` (money, or a number in groups like an account's), `quoted` (a short quoted
phrase: the fixed reply an attacker wants said), `imperative` (a clause that opens with an
action verb: "Transfer $3,000 to ...") and `vocative` (the assistant spoken to: "AI assistant:
...", "Assistant, please ...").

The rules themselves are in `rule_table.py`; this module finds where they hold, with a module
for each job: `clauses` (where a clause ends, who it speaks to), `concept_shapes` (the concepts
that are not words), `counted_words` (whether a word counts as its concept where it stands),
`rule_needs` (which rules the concepts of a text or clause may make), `rule_holds` (whether a
rule holds on a clause's words) and `concept_reading` (what the reading says, and which of it is
reported rather than meant).
"""

from collections.abc import Callable, Sized
from functools import partial

from .clauses import clause_end, split_clauses
from .concept_reading import ConceptSignal, Reading, discussed_stretch
from .concept_shapes import pseudo_hits, reporting_frames
from .context import UNKNOWN_FIELD, Field, Shapes
from .counted_words import counted
from .evidence import MAX_SIGNALS, SignalFlood
from .languages import Language
from .lexicon import Hit, find_hits, listed, scanner
from .rule_holds import SEARCHED_SHAPES, holds
from .rule_needs import (
    by_reach,
    can_hold,
    clause_mask,
    concepts_wanted,
    possible,
    rules_held_by,
)
from .rule_table import PASSAGE, RULES, WINDOW

# How much text is read at once, and how far a passage rule's hits may spread (with room).
SEGMENT = 1 << 16
_OVERLAP = PASSAGE * 2
# The longest text whose term occurrences are listed before asking whether it names any rule's
# concepts (a longer one is asked first, which needs no list of its occurrences).
_LISTED_AT_ONCE = 2048


def _may_discuss(concepts: set[str]) -> bool:
    """Whether a text with these concepts can hold a clause about attacks: a word of discussion,
    or a reporting frame beside a word for the model or its user (see `reporting_frames`)."""
    return "discussion" in concepts or ("frame" in concepts and not concepts.isdisjoint(_FRAMED))


_FRAMED = frozenset({"ai", "user"})


def _may_hold(concepts: set[str]) -> bool:
    """Whether a text with (at most) these concepts can yield a signal or a discussed clause."""
    return "discussion" in concepts or bool(possible(concepts))


def concept_signals(folded: str, field: Field = UNKNOWN_FIELD, weighing: bool = True) -> Reading:
    """Every rule that holds in a clause of the folded text (the strongest one per kind and clause).

    `field` is the field the whole text sits in; keyed values inside the text say their own. A
    long text is read segment by segment, so only one segment's hits are held at a time. Without
    `weighing` (no other evidence is to be weighed by the reading's clauses about attacks), a
    text where no rule can hold is left with an empty reading at once. Raises SignalFlood past
    `MAX_SIGNALS` signals or clauses about attacks, told after each segment: at most one
    segment's more are held.
    """
    shapes = Shapes(folded, field)
    if len(folded) <= SEGMENT:
        reading = _read(folded, 0, len(folded), field, shapes, weighing)
        _within_bounds(reading.signals, reading.discussed)
        return reading
    found: dict[tuple[int, int, int], ConceptSignal] = {}
    discussed: list[tuple[int, int]] = []
    quotable: list[tuple[int, int]] = []
    for low, high in _segments(folded):
        part = _read(folded, low, high, field, shapes, weighing)
        # The overlap between segments is read twice: one signal per rule and span.
        found.update(((s.rule, s.start, s.end), s) for s in part.signals)
        discussed.extend(part.discussed)
        _within_bounds(found, discussed)
        quotable.extend(part.quotable)
    return Reading(list(found.values()), discussed, folded, tuple(quotable))


def _within_bounds(signals: Sized, discussed: Sized) -> None:
    """Raise SignalFlood when a reading holds more signals or clauses about attacks than kept."""
    if len(signals) > MAX_SIGNALS:
        raise SignalFlood
    if len(discussed) > MAX_SIGNALS:
        raise SignalFlood("clauses about attacks")


def _read(
    folded: str, low: int, high: int, field: Field, shapes: Shapes, weighing: bool
) -> Reading:
    """`concept_signals` for `folded[low:high]`, in the whole text's offsets."""
    whole = not low and high == len(folded)
    part = folded if whole else folded[low:high]
    # Most texts name no concept set any rule needs: that is told by which terms occur at all,
    # before each occurrence is listed and its word bounds checked. A short text's occurrences
    # are few, and it names some concept set more often than not: they are listed at once, and
    # both questions answered from the one scan.
    seen = listed(part) if len(part) <= _LISTED_AT_ONCE else None
    present = seen.concepts() if seen else scanner().concepts(part)
    if not _may_hold(present):
        return Reading([], [])
    if not weighing and not can_hold(possible(present), shapes.outer.kind, shapes.kinds):
        return Reading([], [])
    hits = [
        hit if not low else Hit(hit.concept, hit.language, hit.start + low, hit.end + low)
        for hit in find_hits(part, seen=seen)
        if counted(folded, hit, hit.start + low, hit.end + low)
    ]
    if not hits:
        return Reading([], [])
    concepts = {hit.concept for hit in hits}
    # The shapes that could be found beside these words, and the rules that could then hold.
    candidates = possible(concepts)
    if not candidates and "discussion" not in concepts:
        return Reading([], [])
    if not can_hold(candidates, shapes.outer.kind, shapes.kinds) and not _may_discuss(concepts):
        # Each rule these words could make holds only in kinds of field the text has none of:
        # nothing more can be found, and the reading is what the full one would say.
        return Reading([], [], folded, ((low, high),))
    wanted = concepts_wanted(candidates)
    shaped = pseudo_hits(folded, hits, wanted) if wanted & SEARCHED_SHAPES else []
    if shaped:
        # The words' hits are in order already: a stable sort keeps them so among the shapes.
        hits = sorted(hits + shaped, key=lambda hit: hit.start)
    frames: list[Hit] = []
    if "frame" in concepts:
        # A frame's verb is looked at once, where it may report: it is no concept of a rule.
        frames = reporting_frames(folded, hits) if concepts & _FRAMED else []
        hits = [hit for hit in hits if hit.concept != "frame"]
        if frames:
            hits = sorted(hits + frames, key=lambda hit: hit.start)
    found: list[ConceptSignal] = []
    clauses = split_clauses(folded, hits, low)
    # The words about attacks are those the tables found and the frames that report one.
    discussed = (
        [
            discussed_stretch(folded, clause)
            for clause in clauses
            if any(hit.concept == "discussion" for hit in clause)
        ]
        if frames or "discussion" in concepts
        else []
    )
    in_clause, in_passage = by_reach(candidates)
    # Most clauses hold one or two concepts and no rule: they are left before any more work.
    # Their sets of concepts repeat, each answered once per text.
    held_by: dict[int, tuple[int, ...]] = {}
    for clause in clauses:
        bits = clause_mask(clause)
        rules = held_by.get(bits)
        if rules is None:
            rules = held_by[bits] = rules_held_by(bits, in_clause)
        if rules:
            found.extend(_held(folded, clause, rules, partial(shapes.at, clause[0].start)))
    if in_passage:
        # A passage rule reads every clause's hits, the shapes found in each clause among them.
        every = [hit for clause in clauses for hit in clause]
        rules = rules_held_by(clause_mask(every), in_passage)
        if rules:
            found.extend(_held(folded, every, rules, lambda: field, PASSAGE))
    # What a sentence quotes, or prose about attacks near its words about them, is reported.
    return Reading(found, discussed, folded, ((low, high),))


def _held(
    folded: str,
    clause: list[Hit],
    rules: tuple[int, ...],
    field_of: Callable[[], Field],
    reach: int | None = None,
) -> list[ConceptSignal]:
    """The signals of `rules` (each of whose needs has a concept in the clause) that hold on a
    clause's hits, the first rule per signal. `field_of` tells the clause's field, asked only
    for a rule held in some kinds of field; `reach` is how far a passage's hits may spread
    (None: a clause's, each rule's own window)."""
    found: list[ConceptSignal] = []
    by_concept: dict[str, list[Hit]] = {}
    for hit in clause:
        by_concept.setdefault(hit.concept, []).append(hit)
    where: Field | None = None
    named: set[str] = set()
    for index in rules:
        rule = RULES[index]
        if rule.signal in named:
            continue
        if rule.fields is not None:
            if where is None:
                where = field_of()
            if where.kind not in rule.fields:
                continue
        held = holds(rule, by_concept, reach or rule.window or WINDOW, folded)
        if held is not None:
            named.add(rule.signal)
            start, end, languages = held
            found.append(
                ConceptSignal(
                    index,
                    rule.signal,
                    rule.weight,
                    start,
                    end,
                    _languages(languages),
                    where if rule.fields is not None and where else UNKNOWN_FIELD,
                )
            )
    return found


def _languages(languages) -> frozenset[Language]:
    """The set of `languages`, one object for each set: a text's signals mostly share one."""
    found = frozenset(languages)
    return _LANGUAGE_SETS.setdefault(found, found)


# Every set of languages a signal was read in, by itself: at most as many as the rules' needs
# can combine (four concepts, each read in one language).
_LANGUAGE_SETS: dict[frozenset[Language], frozenset[Language]] = {}


def _segments(folded: str):
    """Stretches of about SEGMENT characters covering `folded`, each starting at a clause end
    and overlapping the one before by more than a passage rule can span."""
    low, size = 0, len(folded)
    while True:
        high = min(size, low + SEGMENT)
        yield low, high
        if high == size:
            return
        # Within the overlap, the first clause end that still leaves a passage's span behind.
        start = clause_end().search(folded, high - 2 * _OVERLAP, high - _OVERLAP)
        low = start.end() if start else high - 2 * _OVERLAP
