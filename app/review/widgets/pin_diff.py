"""A pinned surface against its drifted version, word by word, with hidden characters made visible."""

import json
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from textual.content import Content

from lazaretto.proxy.sanitize import reveal

from .field_view import SEGMENT_STYLES

ADDED_STYLE = "bold underline $text-success on $success-muted"
REMOVED_STYLE = "strike $text-error on $error-muted"
"""Added and removed words; underline and strike survive the hidden-character marks laid over them."""

FIRST_FIELDS = ("name", "title", "description")
"""Fields a person reads first; schemas and annotations follow in sorted order."""

DIFF_CHARS = 20_000
"""Each side is compared up to here; a longer surface says how much was left out."""

WORD_PAIRS = 400_000
"""A changed block of lines whose word counts multiply past this is shown as removed then added:
a word diff costs up to that product, and two unrelated texts gain nothing from it."""

_WORDS = re.compile(r"\s+|\w+|[^\w\s]")
_WORD = re.compile(r"\w")

Token = tuple[str, str]
"""(reveal style, text as shown): `text` for plain words, else a hidden run spelled out."""


@dataclass(frozen=True)
class WordDiff:
    """The merged text with changes styled, and how many words each side gained or lost."""

    content: Content
    added: int
    removed: int


def surface_text(canonical: str | None) -> str:
    """A pinned entry as text: each field under its name, strings as they are, the rest as indented JSON."""
    if canonical is None:
        return ""
    value = json.loads(canonical)
    if not isinstance(value, dict):
        return _field_text(value)
    keys = [key for key in FIRST_FIELDS if key in value] + sorted(
        key for key in value if key not in FIRST_FIELDS
    )
    return "\n\n".join(f"{key}:\n{_field_text(value[key])}" for key in keys)


def _field_text(value: Any) -> str:
    # ensure_ascii off: a hidden character must stay itself, so that it is revealed, not escaped.
    return (
        value
        if isinstance(value, str)
        else json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)
    )


def tokens(text: str) -> list[Token]:
    """Words, spaces and punctuation; each run of hidden characters is one token, spelled out."""
    out: list[Token] = []
    for style, segment in reveal(text):
        if style == "text":
            out.extend(("text", word) for word in _WORDS.findall(segment))
        else:
            out.append((style, segment))
    return out


def word_diff(old: str, new: str) -> WordDiff:
    """`old` against `new`: lines first, then the words of each changed block of lines."""
    notes = [
        _cut_note(label, text)
        for label, text in (("pinned", old), ("new", new))
        if len(text) > DIFF_CHARS
    ]
    old_lines = old[:DIFF_CHARS].splitlines(keepends=True)
    new_lines = new[:DIFF_CHARS].splitlines(keepends=True)
    parts: list[Content] = []
    added = removed = 0
    for op, i1, i2, j1, j2 in SequenceMatcher(
        None, old_lines, new_lines, autojunk=False
    ).get_opcodes():
        before, after = tokens("".join(old_lines[i1:i2])), tokens("".join(new_lines[j1:j2]))
        if op == "equal":
            parts.append(_shown(before, None))
            continue
        for piece, style in _block(before, after):
            parts.append(_shown(piece, style))
            # Words and hidden runs count; spaces and punctuation (JSON's quotes and braces) do not.
            count = sum(1 for kind, text in piece if kind != "text" or _WORD.search(text))
            if style == ADDED_STYLE:
                added += count
            elif style == REMOVED_STYLE:
                removed += count
    return WordDiff(Content("").join([*parts, *notes]), added, removed)


def _block(before: list[Token], after: list[Token]) -> list[tuple[list[Token], str | None]]:
    # The pieces of one changed block, each with its style (None for words both sides share).
    if len(before) * len(after) > WORD_PAIRS:
        return [(before, REMOVED_STYLE), (after, ADDED_STYLE)]
    pieces: list[tuple[list[Token], str | None]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if op == "equal":
            pieces.append((before[i1:i2], None))
            continue
        if i2 > i1:
            pieces.append((before[i1:i2], REMOVED_STYLE))
        if j2 > j1:
            pieces.append((after[j1:j2], ADDED_STYLE))
    return pieces


def _shown(piece: list[Token], style: str | None) -> Content:
    content = Content("".join(text for _, text in piece))
    if style:
        content = content.stylize(style)
    offset = 0
    for kind, text in piece:
        # Laid over the change style: a hidden run keeps its own mark, the change its underline or strike.
        if kind in SEGMENT_STYLES:
            content = content.stylize(SEGMENT_STYLES[kind], offset, offset + len(text))
        offset += len(text)
    return content


def _cut_note(label: str, text: str) -> Content:
    return Content.styled(
        f"\n… the {label} version has {len(text) - DIFF_CHARS:,} more characters, not compared here "
        "(`lazaretto pin accept` prints both in full before it asks)",
        "italic $text-muted",
    )
