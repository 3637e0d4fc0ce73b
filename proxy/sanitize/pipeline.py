"""The sanitizer: every rule family in order, repeated until the text stops changing."""

from __future__ import annotations

from . import delimiters, encoded, html, images, invisible, layout
from .budget import Budget
from .model import DECODED_CHARS, Collector, Removal, SanitizeRules

# A removal can join its neighbours into something new ("<!" + comment + "--" makes a comment), so
# the passes run again until nothing changes. Ordinary text settles in one or two rounds; only a
# crafted nest needs more, and past this bound the field is withheld whole (fail closed).
MAX_ROUNDS = 8


def sanitize(text: str, rules: SanitizeRules) -> tuple[str, list[Removal]]:
    """Strip what a person would not see; return the clean text and what was removed, decoded.

    A field with nothing to remove comes back as the very same string object.
    """
    found = Collector()
    budget = Budget.for_field(len(text))  # shared by every round: OverBudget withholds the field
    for _ in range(MAX_ROUNDS):
        cleaned = _round(text, rules, found, budget)
        if cleaned is text:
            return text, found.removals()
        text = cleaned
    still = Collector()
    if _round(text, rules, still, budget) is not text:
        found.add(still.removals()[0].kind, 1, invisible.readable(text[:DECODED_CHARS]))
        return "", found.removals()
    return text, found.removals()


def _round(text: str, rules: SanitizeRules, found: Collector, budget: Budget) -> str:
    """One pass of every family; returns the argument itself when nothing was removed."""
    original = text
    text = invisible.strip(text, rules.untrusted, found)
    if rules.untrusted:
        text = html.strip_markup(text, rules.allow_hosts, found, budget)
        text = images.strip_images(text, rules.allow_hosts, found)
        text = delimiters.strip_delimiters(text, found)
        text = encoded.strip_encoded(text, rules.looks_like_instructions, found)
        text = layout.overwritten_lines(text, found)
        text = layout.collapse_padding(text, found)
    return original if text == original else text
