"""A field's work budget: every costly step of the cleaning counts its work here, before doing it.

Rendering a page costs in proportion to its rules times its elements, not to its length (a few
kilobytes of style sheet matched against a few thousand elements is millions of steps), and
Markdown's parse costs far more per bracket than per letter. So the cleaning of one field may do
at most a fixed amount of work plus a fixed amount per character: its cost grows linearly with the
field, whatever the field holds. A step that would pass the budget raises OverBudget instead of
running, and the field is withheld whole (the original is kept for a person, as for any field the
pipeline cannot judge): nothing goes through uncleaned, and nothing is lost.

A unit is about half a microsecond of work (an element matched by a selector is a few; sixteen
elements tested in C are one): the floor is a second or two of work on a slow machine, a
megabyte's budget a few seconds, a small fraction of the 30 seconds a client gives its hooks.
"""

from __future__ import annotations

# Units every field may spend, and units per character of the field on top.
FLOOR = 3_000_000
PER_CHARACTER = 8


class OverBudget(ValueError):
    """A step of the cleaning would do more work than the field's budget allows."""


class Budget:
    """The units a field's cleaning may still spend (shared by every round and rule family)."""

    def __init__(self, units: int) -> None:
        self.left = units

    @classmethod
    def for_field(cls, length: int) -> Budget:
        return cls(FLOOR + PER_CHARACTER * length)

    def spend(self, units: int, step: str) -> None:
        """Count `units` of work for `step`; raise OverBudget when the budget cannot cover them."""
        self.left -= units
        if self.left < 0:
            raise OverBudget(f"{step}: more work than a field of this size may take")

    @classmethod
    def unlimited(cls) -> Budget:
        """For callers that bound their input otherwise (a test of one rule family)."""
        return cls(1 << 62)
