"""A reviewer's view of a field: hidden characters made visible in place, tagged by style."""

from __future__ import annotations

from .invisible import decode_selectors, decode_tags, escape_text, hidden_spans, readable, spelled

_STYLE = {
    "zero-width": "hidden",
    "variation-selectors": "hidden",
    "tag-characters": "tag",
    "bidi-controls": "bidi",
    "private-use": "hidden",
    "control-characters": "control",
    "ansi-escapes": "control",
}


def reveal(text: str) -> list[tuple[str, str]]:
    """Split text into (style, segment) pairs, hidden characters spelled out or decoded.

    Styles: text, hidden (zero-width and variation selectors), tag (tag characters decoded to
    ASCII), bidi, control (control characters and escape sequences). Emoji sequences stay text.
    """
    segments: list[tuple[str, str]] = []
    last = 0
    for kind, start, end in hidden_spans(text):
        _append(segments, "text", text[last:start])
        _append(segments, _STYLE[kind], _spell(kind, text[start:end]))
        last = end
    _append(segments, "text", text[last:])
    return segments


def _spell(kind: str, run: str) -> str:
    if kind == "tag-characters":
        return decode_tags(run)
    if kind == "ansi-escapes":
        return escape_text(run)
    if kind == "variation-selectors" and len(run) > 1:
        return f"⟨{len(run)} selector bytes: {readable(decode_selectors(run))}⟩"
    return spelled(run)


def _append(segments: list[tuple[str, str]], style: str, segment: str) -> None:
    if not segment:
        return
    if segments and segments[-1][0] == style:
        segments[-1] = (style, segments[-1][1] + segment)
    else:
        segments.append((style, segment))
