"""A message read once by the compiled scans: which of its texts, and runs of them, can hold evidence.

The detector reads a message's fields one by one, then its records and the whole of it as
documents. Most of those readings find nothing, and what they could find is told by two compiled
scans of the whole message joined into one text: which signal patterns may match somewhere (the
loosened patterns, see `matcher.engine`), and which concepts the lexicon names somewhere. Both
scans look for fixed shapes without anchors or look-arounds, and an ASCII text folds character by
character (a spaced-out word never spans a line break), so whatever they would find in a run of the
joined texts they find in the whole. The kinds of field a run's keys name are those its texts'
keys name (a key and its colon never span a line break). When the whole names no pattern and no
concept set any rule needs in the kinds of field a run has, the run's reading is empty, and it is
not made.
"""

from collections.abc import Sequence

from .context import FieldKind, key_kinds
from .detector import field_of
from .lexicon import scanner
from .normalize import fold
from .rule_needs import may_hold_in
from .signals import patterns_engine

JOINER = "\n"
"""What stands between two texts of the message, as between the fields of a document."""


class FirstPass:
    """What the compiled scans found in a message's texts joined by `JOINER` (see the module
    docstring): the concepts the lexicon names there (None: the first pass vouches for no run,
    the text not being ASCII or some pattern matching), and the kinds of field all the texts'
    keys name together, the most any run has."""

    def __init__(
        self, concepts: frozenset[str] | None, kinds: frozenset[FieldKind] = frozenset()
    ) -> None:
        self.concepts = concepts
        self._all_kinds = kinds
        # The kinds of field each text's keys name, by text (see `context.key_kinds`): a text
        # asked about as a field is asked about again in its record and in the whole message.
        self._key_kinds: dict[str, frozenset[FieldKind]] = {}

    @property
    def silent_everywhere(self) -> bool:
        """Whether every run of the texts finds nothing when read as a document (in no field of
        its own)."""
        return self.concepts is not None and not may_hold_in(
            self.concepts, FieldKind.UNKNOWN, lambda: self._all_kinds
        )

    def silent(self, run: Sequence[str], key: str = "") -> bool:
        """Whether `detect(JOINER.join(run), key=key)` finds nothing, told without reading it:
        `run` is one of the texts, or several that stand side by side in the first pass."""
        if self.concepts is None:
            return False
        return not self._may_hold(field_of(key).kind if key else FieldKind.UNKNOWN, run)

    def _may_hold(self, outer: FieldKind, run: Sequence[str]) -> bool:
        """Whether a rule may hold in `run` in a field of kind `outer`: asked first of the kinds
        all the texts name, then (where those leave it open) of the run's own."""
        assert self.concepts is not None
        if not may_hold_in(self.concepts, outer, lambda: self._all_kinds):
            return False
        return may_hold_in(self.concepts, outer, lambda: frozenset().union(*map(self._kinds, run)))

    def _kinds(self, text: str) -> frozenset[FieldKind]:
        kinds = self._key_kinds.get(text)
        if kinds is None:
            kinds = self._key_kinds[text] = key_kinds(fold(text).text)
        return kinds


def first_pass(joined: str) -> FirstPass:
    """The first pass over a message's texts joined by `JOINER`."""
    if not joined.isascii():
        # Folding other scripts maps characters by their neighbours (marks, look-alike words):
        # a run might fold otherwise than inside the whole.
        return FirstPass(None)
    folded = fold(joined).text
    if patterns_engine().candidates(folded):
        return FirstPass(None)
    # The kinds the keys name are read now, while the folded text is at hand, rather than kept
    # beside the message.
    return FirstPass(frozenset(scanner().concepts(folded)), key_kinds(folded))
