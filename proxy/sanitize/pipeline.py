"""The sanitizer: every rule family in order, repeated until the text stops changing."""

from __future__ import annotations

import re
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


# What each family starts from in ASCII text, each mark a superset of that family's own test: a
# control character (invisible), markup (`<` and what opens a tag, comment or declaration), a
# definition's `]:` or an image's `![` (images), a chat template's token (`<|`, `<<`, `_of_turn>`,
# `inst]`) or `##` (an instruction heading), a role's name before a colon (a staged turn), a run
# of the encoded alphabet (encoded), a carriage return (a line overwritten), three blanks in a row
# (padding). Letters are spelled in either case one by one: the compiled scan takes no inline
# flags. A family whose marks the scan did not find in a text is not asked about it: most of
# their own tests are substring searches, each a pass over the text.
_ROLES = ("human", "assistant", "system")
_ESCAPED_BLANKS = {" ": " ", "\t": r"\t", "\r": r"\r", "\n": r"\n", "\f": r"\f", "\v": r"\v"}


def _either_case(word: str) -> str:
    return "".join(f"[{c.upper()}{c}]" if c.isalpha() else re.escape(c) for c in word)


# The last mark is layout's stretch of blanks, which is a run of SCROLL_ROWS blanks: as a class
# repeated, it has nothing a compiled scan can skip to, and blanks stand everywhere in prose (it
# cost more than every other mark together). Any such run holds three blanks in a row, spelled out
# as literals that most prose never shows; where only they stand, the run is looked for exactly.
_ASCII_MARKS = (
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]",
    "<[A-Za-z!/?]",
    r"\]:|!\[",
    "|".join(("<\\|", "<<", _either_case("_of_turn>"), _either_case("inst]"))),
    "##",
    *(_either_case(role) + r"[ \t]*:" for role in _ROLES),
    rf"[A-Za-z0-9+/_-]{{{encoded.SHORT_RUN}}}",
    r"\r",
    "|".join(
        "".join(_ESCAPED_BLANKS[c] for c in blanks)
        for blanks in product(layout.ASCII_BLANKS, repeat=3)
    ),
)
# The index of each family's marks in the scan.
_CONTROLS, _MARKUP, _IMAGE, _TOKEN, _HEADING = range(5)
_ROLE_MARKS = frozenset(range(5, 5 + len(_ROLES)))
_RUN_MARK = 5 + len(_ROLES)
_RETURN = _RUN_MARK + 1
_BLANKS = len(_ASCII_MARKS) - 1
_THREE_BLANKS = [_BLANKS]  # what the scan names when only that mark stands


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
    is asked only where its marks stand (a turn needs two roles' marks); once a family removed
    something, what is left may show marks the text did not.
    """
    original = text
    told = frozenset(() if marks is None else marks)

    def told_here() -> bool:
        """Whether `told` are the marks of the text as it is now (no family changed it yet)."""
        return marks is not None and text is original

    def may_hold(*wanted: int) -> bool:
        """Whether the text as it is now may hold what a family of these marks removes."""
        return not told_here() or not told.isdisjoint(wanted)

    if may_hold(_CONTROLS):
        text = invisible.strip(text, rules.untrusted, found)
    if rules.untrusted:
        # Imported here, on the first text with a mark: they bring the Markdown, HTML and CSS
        # parsers, which most fields never need and a proxy's start-up should not wait for.
        from . import html, images

        if may_hold(_MARKUP):
            text = html.strip_markup(text, rules.allow_hosts, found, budget)
        if may_hold(_IMAGE):
            text = images.strip_images(text, rules.allow_hosts, found)
        turns = not told_here() or len(_ROLE_MARKS & told) >= 2
        if turns or may_hold(_TOKEN, _HEADING):
            text = delimiters.strip_delimiters(text, found, turns)
        runs = _RUN_MARK in told if told_here() else None
        text = encoded.strip_encoded(text, rules.looks_like_instructions, found, runs)
        if may_hold(_RETURN):
            text = layout.overwritten_lines(text, found)
        if may_hold(_BLANKS):
            text = layout.collapse_padding(text, found)
    return original if text == original else text
