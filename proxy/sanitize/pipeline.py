"""The sanitizer: every rule family in order, repeated until the text stops changing."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product

from ..matcher import engine
from . import delimiters, encoded, invisible, layout
from .budget import Budget
from .model import DECODED_CHARS, Collector, Removal, SanitizeRules

# A removal can join its neighbours into something new ("<!" + comment + "--" makes a comment), so
# the passes run again until nothing changes. Ordinary text settles in one or two rounds; only a
# crafted nest needs more, and past this bound the field is withheld whole (fail closed).
MAX_ROUNDS = 8


# What any family starts from in ASCII text, each a superset of that family's own test: a control
# character (invisible), `<` (markup, chat tokens), `]` (images, definitions, [INST]), a bare or
# any carriage return (layout), `##` (an instruction heading), a role's name before a colon (a
# staged turn), a run of the encoded alphabet (encoded). The role names are spelled in either
# case letter by letter: the compiled scan takes no inline flags.
_ROLES = ("human", "assistant", "system")
_ESCAPED_BLANKS = {" ": " ", "\t": r"\t", "\r": r"\r", "\n": r"\n", "\f": r"\f", "\v": r"\v"}
# The last mark is layout's stretch of blanks, which is a run of SCROLL_ROWS blanks: as a class
# repeated, it has nothing a compiled scan can skip to, and blanks stand everywhere in prose (it
# cost more than every other mark together). Any such run holds three blanks in a row, spelled out
# as literals that most prose never shows; where only they stand, the run is looked for exactly.
_ASCII_MARKS = (
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f<\]\r]",
    "##",
    *("".join(f"[{c.upper()}{c}]" for c in role) + r"[ \t]*:" for role in _ROLES),
    rf"[A-Za-z0-9+/_-]{{{encoded.SHORT_RUN}}}",
    "|".join(
        "".join(_ESCAPED_BLANKS[c] for c in blanks)
        for blanks in product(layout.ASCII_BLANKS, repeat=3)
    ),
)
_THREE_BLANKS = [len(_ASCII_MARKS) - 1]  # what the scan names when only that mark stands
# The indexes of the roles' marks, and of the encoded alphabet's run.
_ROLE_MARKS = frozenset(range(2, 2 + len(_ROLES)))
_RUN_MARK = 2 + len(_ROLES)


@cache
def _marks() -> engine.Engine:
    return engine.compiled(_ASCII_MARKS)


def untouched(text: str, rules: SanitizeRules) -> bool:
    """Whether no family could remove anything from `text`, told by one compiled scan: ASCII text
    that shows none of the marks the families start from (trusted ASCII text has nothing to
    lose). On the plain path (no compiled scan) every text goes through the families."""
    if not text.isascii():
        return False
    if not rules.untrusted:
        return True
    found = _marks_in(text)
    return found is not None and _unmarked(text, found)


def _marks_in(text: str) -> Sequence[int] | None:
    """The marks the compiled scan finds in ASCII `text`; None on the plain path."""
    scan = _marks()
    return None if scan.name == "plain" else scan.candidates(text)


def _unmarked(text: str, found: Sequence[int]) -> bool:
    return not found or (found == _THREE_BLANKS and not layout.ascii_stretch(text))


def sanitize(text: str, rules: SanitizeRules) -> tuple[str, list[Removal]]:
    """Strip what a person would not see; return the clean text and what was removed, decoded.

    A field with nothing to remove comes back as the very same string object.
    """
    if not text.isascii() or not rules.untrusted:
        return (text, []) if untouched(text, rules) else every_family(text, rules)
    found = _marks_in(text)
    if found is not None and _unmarked(text, found):
        return text, []
    return every_family(text, rules, found)


def every_family(
    text: str, rules: SanitizeRules, marks: Sequence[int] | None = None
) -> tuple[str, list[Removal]]:
    """`sanitize` without the shortcut of `untouched`: every family, round after round. `marks`
    are those the compiled scan found in `text`, if it was asked (see `_round`)."""
    found = Collector()
    budget = Budget.for_field(len(text))  # shared by every round: OverBudget withholds the field
    for _ in range(MAX_ROUNDS):
        cleaned = _round(text, rules, found, budget, marks)
        if cleaned is text:
            return text, found.removals()
        text, marks = cleaned, None
    still = Collector()
    if _round(text, rules, still, budget) is not text:
        found.add(still.removals()[0].kind, 1, invisible.readable(text[:DECODED_CHARS]))
        return "", found.removals()
    return text, found.removals()


def _round(
    text: str,
    rules: SanitizeRules,
    found: Collector,
    budget: Budget,
    marks: Sequence[int] | None = None,
) -> str:
    """One pass of every family; returns the argument itself when nothing was removed.

    Given the `marks` the compiled scan found in `text`, a family that still reads that very text
    is told what they rule out (a turn needs two roles' marks, an encoded run its own); once a
    family removed something, what is left may show marks the text did not.
    """
    original = text
    text = invisible.strip(text, rules.untrusted, found)
    if rules.untrusted:
        # Imported here, on the first text with a mark: they bring the Markdown, HTML and CSS
        # parsers, which most fields never need and a proxy's start-up should not wait for.
        from . import html, images

        text = html.strip_markup(text, rules.allow_hosts, found, budget)
        text = images.strip_images(text, rules.allow_hosts, found)
        told = marks if text is original else None
        turns = told is None or len(_ROLE_MARKS.intersection(told)) >= 2
        text = delimiters.strip_delimiters(text, found, turns)
        runs = None if told is None or text is not original else _RUN_MARK in told
        text = encoded.strip_encoded(text, rules.looks_like_instructions, found, runs)
        text = layout.overwritten_lines(text, found)
        text = layout.collapse_padding(text, found)
    return original if text == original else text
