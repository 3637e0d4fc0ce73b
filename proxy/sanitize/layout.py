"""Whitespace padding that pushes text far below or beside what a reader sees."""

from __future__ import annotations

import re

from .invisible import readable
from .model import Collector
from .shape import Shape

BLANK_LINES = 20
SPACES = 1000
_SHOWN_AFTER = 200

_ASCII_SPACES = " \t\r\n\f\v"
_OTHER_SPACES = (
    "\u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
_SPACE_CLASS = f"[{re.escape(_ASCII_SPACES + _OTHER_SPACES)}]"
# A match may start only where a stretch starts and takes all of it, so each stretch is scanned once.
# The look-behind comes after the first character (and looks two back), so that the pattern opens
# with the class and the engine skips to the next space in C instead of trying every position.
_WHITESPACE = re.compile(
    rf"{_SPACE_CLASS}(?<!{_SPACE_CLASS}{_SPACE_CLASS}){_SPACE_CLASS}{{{BLANK_LINES - 1},}}"
)
_BREAK = re.compile(r"\r\n|[\n\r\f\v\u2028\u2029]")
# The ASCII part of the class: in text without the others, a stretch is a run of these bytes.
_ASCII_SPACE = Shape({_ASCII_SPACES: "w"})


def collapse_padding(text: str, found: Collector) -> str:
    """Collapse padding that has text after it to one paragraph break or space, recording that text."""

    def replace(match: re.Match) -> str:
        run = match.group(0)
        end = match.end()
        if end == len(text):
            return run  # trailing whitespace hides nothing
        breaks = len(_BREAK.findall(run))
        if breaks < BLANK_LINES and len(run) < SPACES:
            return run
        found.add("whitespace-padding", 1, readable(text[end : end + _SHOWN_AFTER]))
        return "\n" * min(breaks, 2) or " "

    # A test per non-ASCII space (none needed on ASCII text) spares non-ASCII text the regex too.
    if (
        text.isascii() or not any(space in text for space in _OTHER_SPACES)
    ) and not _ASCII_SPACE.has_run(text, "w", BLANK_LINES):
        return text
    return _WHITESPACE.sub(replace, text)
