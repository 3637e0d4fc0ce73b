"""Markdown code, found as a CommonMark renderer finds it: fenced and indented code blocks and code
spans show their markup as text (`<script>` in a fence is an example a person reads), so the HTML
pass must read it as text too. A field that opens as an HTML document is a page, not Markdown, and
is left as it is.
"""

from __future__ import annotations

import re
from functools import cache

from markdown_it import MarkdownIt

from .budget import Budget


# A page, not Markdown: a browser renders it, fences and all.
@cache
def _document() -> re.Pattern[str]:
    return re.compile(r"\s*<(?:!doctype|html[\s>])", re.IGNORECASE)


# A code span: a run of backticks, then the fewest characters up to a run of the same length.
@cache
def _span() -> re.Pattern[str]:
    return re.compile(r"(?<![`\\])(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)


@cache
def _line() -> re.Pattern[str]:
    return re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


# Markdown's parse costs more per character than any other step of a field's cleaning.
UNITS_PER_CHARACTER = 4


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark")


def masked(text: str, budget: Budget) -> str:
    """The text with every `<` inside Markdown code replaced by a space (same length, so every
    other character keeps its place)."""
    # Code needs a backtick or a tilde fence; an indented block alone is left to the HTML pass
    # (every indented page would otherwise pay for a Markdown parse).
    if "`" not in text and "~~~" not in text:
        return text
    if _document().match(text):
        return text
    budget.spend(UNITS_PER_CHARACTER * len(text), "parsing Markdown")
    starts = [m.start() for m in _line().finditer(text)]
    ranges: list[tuple[int, int]] = []
    for token in _parser().parse(text):
        if token.map is None:
            continue
        start, end = starts[token.map[0]], starts[min(token.map[1], len(starts) - 1)]
        if token.type in ("fence", "code_block"):
            ranges.append((start, end))
        elif token.type == "inline" and token.children:
            spans = {child.content for child in token.children if child.type == "code_inline"}
            if spans:
                ranges.extend(_code_spans(text, start, end, spans))
    if not ranges:
        return text
    chars = list(text)
    for start, end in ranges:
        for index in range(start, end):
            if chars[index] == "<":
                chars[index] = " "
    return "".join(chars)


def _code_spans(text: str, start: int, end: int, contents: set[str]) -> list[tuple[int, int]]:
    """Where in text[start:end] the parse's code spans are (matched by their content)."""
    found = []
    for match in _span().finditer(text, start, end):
        content = re.sub(r"[\r\n]", " ", match.group(2))
        if content.startswith(" ") and content.endswith(" ") and content.strip():
            content = content[1:-1]
        if content in contents:
            found.append((match.start(), match.end()))
    return found
