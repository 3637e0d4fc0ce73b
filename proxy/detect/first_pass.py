"""A message read once by the compiled scans: which of its texts, and runs of them, can hold evidence.

The detector reads a message's fields one by one, then its records and the whole of it as
documents. Most of those readings find nothing, and what they could find is told by two compiled
scans of the whole message joined into one text: which signal patterns may match somewhere (the
loosened patterns, see `matcher.engine`), and which concepts the lexicon names somewhere. Both
scans look for fixed shapes without anchors or look-arounds, and an ASCII text folds character by
character (a spaced-out word never spans a line break), so whatever they would find in a run of the
joined texts they find in the whole. When the whole names no pattern and no concept set any rule
needs in the kinds of field a run has, the run's reading is empty, and it is not made.
"""

from dataclasses import dataclass

from .concept_rules import may_hold_in
from .context import UNKNOWN_FIELD, Field, Shapes
from .detector import field_of
from .lexicon import scanner
from .normalize import fold
from .rules_reading import patterns_engine

JOINER = "\n"
"""What stands between two texts of the message, as between the fields of a document."""


@dataclass(frozen=True)
class FirstPass:
    """What the compiled scans found in a message's texts joined by `JOINER` (see the module
    docstring); `None` concepts: the first pass cannot vouch for any run (not ASCII, or a
    pattern may match)."""

    concepts: frozenset[str] | None

    def silent(self, run: str, key: str = "") -> bool:
        """Whether `detect(run, key=key)` finds nothing, told without reading `run`, which must be
        one of the texts or several side by side, joined as the first pass joined them."""
        if self.concepts is None:
            return False
        field = field_of(key) if key else UNKNOWN_FIELD
        return not may_hold_in(self.concepts, _shapes(run, field))


def first_pass(texts: list[str]) -> FirstPass:
    """The first pass over `texts` joined by `JOINER`."""
    joined = JOINER.join(texts)
    if not joined.isascii():
        # Folding other scripts maps characters by their neighbours (marks, look-alike words):
        # a run might fold otherwise than inside the whole.
        return FirstPass(None)
    folded = fold(joined).text
    if patterns_engine().candidates(folded):
        return FirstPass(None)
    return FirstPass(frozenset(scanner().concepts(folded)))


def _shapes(text: str, field: Field) -> Shapes:
    return Shapes(fold(text).text, field)
