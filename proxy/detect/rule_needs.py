"""Which concept rules a text may make, told from the concepts it names alone.

A rule holds only where every one of its needs has a concept present (a word of the tables, or a
shape found beside one), and only in the kinds of field it is written for. Both are asked before
any clause is read: by the concept reading of each text (`concept_rules`), and by a message's
first pass (`first_pass`), which must answer without loading the reading itself.

A part of the concept rules' matcher (`concept_rules.py`).
"""

from collections.abc import Callable, Iterable
from functools import lru_cache

from .context import FieldKind
from .lexicon import Hit
from .rule_table import RULES

# Each rule's needs as sets of concepts: a text or clause is tried against a rule only if every
# need has a concept present in it.
NEEDS = tuple(
    tuple(frozenset(need if isinstance(need, tuple) else (need,)) for need in rule.needs)
    for rule in RULES
)


# The words beside which the shapes that are not words are searched (see `concept_shapes`): an
# address or amount beside a verb of acting or sending, a quoted phrase beside one of saying.
WANTS_ADDRESS = frozenset({"act", "send"})
WANTS_QUOTE = frozenset({"say", "reply", "answer_with", "you_are", "persona"})

# The concepts that are shapes, by the words they can only be found beside.
_SHAPES_BESIDE = (
    (WANTS_ADDRESS, frozenset({"destination", "amount", "imperative"})),
    (WANTS_QUOTE, frozenset({"quoted"})),
    (frozenset({"ai"}), frozenset({"vocative", "told"})),
)


# The same needs as bit masks, one bit per concept: the check runs per text and per clause.
_BIT = {
    concept: 1 << bit
    for bit, concept in enumerate(sorted({c for needs in NEEDS for need in needs for c in need}))
}


_NEED_MASKS = tuple(
    tuple(sum(_BIT[concept] for concept in need) for need in needs) for needs in NEEDS
)


def mask(concepts) -> int:
    """`concepts` as a bit mask over the concepts some rule needs."""
    return sum(_BIT.get(concept, 0) for concept in concepts)


def clause_mask(hits: Iterable[Hit]) -> int:
    """The concepts of a clause's hits as a bit mask (see `mask`), read from the hits as they
    are: a clause is asked once for each, and a set of its concepts would cost more than its
    few bits (a concept found twice is the same bit)."""
    get = _BIT.get
    found = 0
    for hit in hits:
        found |= get(hit.concept, 0)
    return found


def possible(concepts: set[str]) -> tuple[int, ...]:
    """The rules whose every need has a concept among `concepts` or the shapes found beside them."""
    return possible_with(frozenset(concepts))


# Texts name few concepts, and the same few again and again: each set is answered once.
@lru_cache(maxsize=4096)
def possible_with(concepts: frozenset[str]) -> tuple[int, ...]:
    """`possible` of a frozen set."""
    for words, shapes_beside in _SHAPES_BESIDE:
        if concepts & words:
            concepts |= shapes_beside
    present_mask = mask(concepts)
    return tuple(
        index for index, masks in enumerate(_NEED_MASKS) if all(map(present_mask.__and__, masks))
    )


# Clauses name the same few concepts again and again: each set's rules are found once.
@lru_cache(maxsize=8192)
def rules_held_by(concepts_mask: int, candidates: tuple[int, ...]) -> tuple[int, ...]:
    """The rules among `candidates` each of whose needs has a concept in `concepts_mask`."""
    return tuple(
        index for index in candidates if all(map(concepts_mask.__and__, _NEED_MASKS[index]))
    )


# A text's candidate rules are one of few sets: each set's answers are found once.
@lru_cache(maxsize=4096)
def concepts_wanted(rules: tuple[int, ...]) -> frozenset[str]:
    """Every concept some need of `rules` names."""
    return frozenset(concept for index in rules for need in NEEDS[index] for concept in need)


@lru_cache(maxsize=4096)
def by_reach(rules: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`rules` split in two: those read within a clause, and those read over a passage."""
    return (
        tuple(index for index in rules if not RULES[index].passage),
        tuple(index for index in rules if RULES[index].passage),
    )


def can_hold(
    rules: tuple[int, ...], outer: FieldKind, inner: Callable[[], frozenset[FieldKind]]
) -> bool:
    """Whether some rule of `rules` holds in a kind of field the text has: its own field's kind
    `outer` is asked first, the kinds its keys name (`inner`, see `Shapes.kinds`) only if that
    fails."""
    fields = [RULES[index].fields for index in rules]
    if any(kinds is None or outer in kinds for kinds in fields):
        return True
    found = inner()
    return any(not found.isdisjoint(kinds) for kinds in fields if kinds is not None)


def may_hold_in(
    concepts: frozenset[str], outer: FieldKind, inner: Callable[[], frozenset[FieldKind]]
) -> bool:
    """Whether some rule may hold in a text whose terms name at most `concepts`, in a field of
    kind `outer` whose keys inside name at most the kinds `inner` gives: False means
    `concept_rules.concept_signals` finds no signal there."""
    rules = possible_with(concepts)
    return bool(rules) and can_hold(rules, outer, inner)
