"""Markdown images whose URL points off the allow list: rendering one sends whatever its URL carries."""

from __future__ import annotations

import re

from .model import Collector
from .urls import UrlJudge

# Alt and label text may not hold brackets, so "![" repeated fails at once instead of scanning on.
# The URL allows one level of balanced parentheses (Wikipedia-style links); each alternative starts
# with a different character, so nothing backtracks.
_IMAGE = re.compile(
    r"!\[([^\[\]]*)\]"
    r"(?:\(\s*(<[^<>\n]*>|(?:[^\s()]|\([^\s()]*\))*)"
    r"""(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)"""
    r"|\[([^\[\]]*)\])?"
)
_DEFINITION = re.compile(
    r"^ {0,3}\[([^\[\]\n]+)\]:[ \t]*(?:\n[ \t]*)?(<[^<>\n]*>|\S+)[^\n]*\n?", re.MULTILINE
)
_SPACE = re.compile(r"\s+")


def strip_images(text: str, allow_hosts: tuple[str, ...], found: Collector) -> str:
    """Replace off-list images by their alt text, recording each URL."""
    # A one-character test runs at memchr speed; the two-character one costs a full search.
    if "!" in text and "![" in text:
        text = _strip_markdown(text, allow_hosts, found)
    return text


def _strip_markdown(text: str, allow_hosts: tuple[str, ...], found: Collector) -> str:
    definitions = (
        {_label(m.group(1)): m for m in _DEFINITION.finditer(text)} if "]:" in text else {}
    )
    used: set[str] = set()

    def replace(match: re.Match) -> str:
        alt, inline, reference = match.group(1), match.group(2), match.group(3)
        label = None  # of a reference image: its definition goes too once the image is stripped
        if inline is not None:
            url = inline
        else:
            label = _label(reference or alt)
            if label not in definitions:
                return match.group(0)  # not an image: a bracketed phrase after '!'
            url = definitions[label].group(2)
        url = url.strip("<>")
        if _allowed(url, allow_hosts):
            return match.group(0)
        if label is not None:
            used.add(label)
        found.add("markdown-image", 1, url)
        return alt

    stripped = _IMAGE.sub(replace, text)
    if not used:
        return stripped
    # A definition is invisible when rendered; once its image is gone it only carries the URL.
    return _DEFINITION.sub(lambda m: "" if _label(m.group(1)) in used else m.group(0), stripped)


def _label(label: str) -> str:
    return _SPACE.sub(" ", label.strip()).casefold()


def _allowed(url: str, allow_hosts: tuple[str, ...]) -> bool:
    return UrlJudge(allow_hosts).allowed(url)
