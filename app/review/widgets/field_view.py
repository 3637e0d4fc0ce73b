"""The field as received: hidden characters shown where they were, syntax highlighted, matches marked."""

import json
import re
from collections.abc import Iterable
from typing import Any

from textual.content import Content
from textual.highlight import highlight

from lazaretto.proxy.sanitize import reveal

SEGMENT_STYLES = {
    "hidden": "bold $text-warning on $warning-muted",
    "tag": "italic $text-error on $error-muted",
    "bidi": "bold $text-accent on $accent-muted",
    "control": "bold $text-secondary on $secondary-muted",
}
"""How each kind of revealed segment stands out from the text around it (theme variables)."""

EXCERPT_STYLE = "bold underline $text-error"
"""The text a detector signal matched."""

PREVIEW_CHARS = 6000
"""The detail pane shows this much of a field; `enter` shows all of it."""

_HTML = re.compile(r"<(!--|/?[a-zA-Z][\w-]*(\s[^<>]*)?/?>)")
_MARKDOWN = re.compile(
    r"(^#{1,6} |^\s*[-*+] |^\s*\d+\. |!?\[[^\]\n]*\]\([^)\n]*\)|\*\*[^*\n]+\*\*|^```)", re.M
)


def guess_language(text: str) -> str:
    """`json`, `html`, `markdown` or `text`: the lexer the field is highlighted with."""
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            json.loads(stripped)
            return "json"
        except ValueError:
            pass
    if _HTML.search(text):
        return "html"
    if _MARKDOWN.search(text):
        return "markdown"
    return "text"


def revealed(
    text: str, *, excerpts: Iterable[str] = (), limit: int | None = PREVIEW_CHARS
) -> Content:
    """The field with hidden content made visible in place, highlighted, and matched excerpts marked.

    With `limit`, only the first `limit` characters are shown, followed by a note of how many more.
    """
    shown = text if limit is None else text[:limit]
    content, display = _render(shown, guess_language(shown))
    for excerpt in excerpts:
        needle = excerpt.strip().strip("…").strip()
        if not needle:
            continue
        for match in re.finditer(re.escape(needle), display, re.IGNORECASE):
            content = content.stylize(EXCERPT_STYLE, match.start(), match.end())
    if len(shown) < len(text):
        more = len(text) - len(shown)
        content = content.append(
            Content.styled(f"\n… {more:,} more characters (enter shows all)", "italic $text-muted")
        )
    return content


def highlighted_json(value: Any) -> Content:
    """A JSON value, indented and highlighted, with hidden content made visible."""
    content, _ = _render(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False), "json")
    return content


def _render(text: str, language: str) -> tuple[Content, str]:
    # Returns the styled content and its plain text, whose offsets excerpts are found at.
    segments = reveal(text)
    display = "".join(segment for _, segment in segments)
    content = _highlighted(display, language)
    offset = 0
    for style, segment in segments:
        if style in SEGMENT_STYLES:
            content = content.stylize(SEGMENT_STYLES[style], offset, offset + len(segment))
        offset += len(segment)
    return content, display


def _highlighted(display: str, language: str) -> Content:
    if language == "text":
        return Content(display)
    content = highlight(display, language=language)
    # The highlighter normalizes line endings; if that moved any offset, the revealed
    # marks would land on the wrong characters, so plain text is the safe fallback.
    if content.plain.rstrip("\n") != display.rstrip("\n"):
        return Content(display)
    return content
