"""Text a reader never gets to: padding that pushes it out of sight, lines a terminal overwrites."""

from __future__ import annotations

import re
from functools import cache

from .invisible import readable
from .model import Collector
from .shape import Shape

# How far a stretch of blanks may push what follows it before that counts as hidden: rows a
# person would scroll past on a terminal COLUMNS wide (a line break is a row, COLUMNS columns of
# blanks wrap to one). Judged by that distance, not by a count per character, so blank lines,
# spaces, wide spaces and blank-looking symbols all weigh what they render as.
SCROLL_ROWS = 12
COLUMNS = 80
_SHOWN_AFTER = 200

ASCII_BLANKS = " \t\r\n\f\v"
# Every other character that renders as nothing but room: Unicode spaces and separators, NEL,
# and the braille blank (a symbol, not a space, that fonts draw empty).
_OTHER_SPACES = (
    "\x85\u00a0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000\u2800"
)
_WIDE = "\u3000"  # two columns in a terminal
_BREAKS = "\n\r\f\v\x85\u2028\u2029"
_BLANK = f"[{re.escape(ASCII_BLANKS + _OTHER_SPACES)}]"


# A match may start only where a stretch starts and takes all of it, so each stretch is scanned
# once. The look-behind comes after the first character (and looks two back), so that the
# pattern opens with the class and the engine skips to the next blank in C instead of trying
# every position. No stretch shorter than SCROLL_ROWS characters reaches SCROLL_ROWS rows.
@cache
def _stretch() -> re.Pattern[str]:
    return re.compile(rf"{_BLANK}(?<!{_BLANK}{_BLANK}){_BLANK}{{{SCROLL_ROWS - 1},}}")


# In text without the other blanks, a stretch is a run of these ASCII bytes.
_ASCII_SPACE = Shape({ASCII_BLANKS: "w"})


# A carriage return not followed by a line feed sends a terminal back to the line's start.
@cache
def _bare_return() -> re.Pattern[str]:
    return re.compile(r"\r(?!\n)")


@cache
def _line() -> re.Pattern[str]:
    return re.compile(r"[^\n]*\r(?!\n)[^\n]*")


def rows(stretch: str) -> float:
    """How many terminal rows a stretch of blanks takes: its line breaks, and its other
    characters' width wrapped at COLUMNS (a tab as eight columns, a wide space as two)."""
    breaks = sum(map(stretch.count, _BREAKS)) - stretch.count("\r\n")
    columns = (
        len(stretch)
        - sum(map(stretch.count, _BREAKS))
        + 7 * stretch.count("\t")
        + stretch.count(_WIDE)
    )
    return breaks + columns / COLUMNS


def collapse_padding(text: str, found: Collector) -> str:
    """Collapse padding that has text after it to one paragraph break or space, recording that text."""

    def replace(match: re.Match) -> str:
        run = match.group(0)
        end = match.end()
        if end == len(text) or rows(run) < SCROLL_ROWS:
            return run  # trailing blanks hide nothing
        found.add("whitespace-padding", 1, readable(text[end : end + _SHOWN_AFTER]))
        breaks = sum(map(run.count, _BREAKS)) - run.count("\r\n")
        return "\n" * min(breaks, 2) or " "

    # A test per non-ASCII blank (none needed on ASCII text) spares non-ASCII text the regex too.
    ascii_only = text.isascii() or not any(space in text for space in _OTHER_SPACES)
    if ascii_only and not ascii_stretch(text):
        return text
    return _stretch().sub(replace, text)


def ascii_stretch(text: str) -> bool:
    """Whether SCROLL_ROWS ASCII blanks stand in a row in `text` (what a stretch is in text
    without the other blanks)."""
    return _ASCII_SPACE.has_run(text, "w", SCROLL_ROWS)


def overwritten_lines(text: str, found: Collector) -> str:
    """Each line a bare carriage return rewrites, as a terminal shows it: what a later segment
    covers is gone from the screen, so it goes from the text too, recorded for the reviewer."""
    if "\r" not in text or not _bare_return().search(text):
        return text

    def render(match: re.Match) -> str:
        line = match.group(0)
        # Later segments cover earlier ones from the left: walking back from the last, each
        # earlier segment shows only past the widest seen so far (linear in the line).
        segments = line.split("\r")
        shown, width = [], 0
        for segment in reversed(segments):
            if len(segment) > width:
                shown.append(segment[width:])
                width = len(segment)
        visible = "".join(shown)
        if visible == line.replace("\r", ""):
            return line  # nothing covered: the line stays as it came
        found.add("overwritten-text", 1, readable(line.replace("\r", "⏎")))
        return visible

    return _line().sub(render, text)
