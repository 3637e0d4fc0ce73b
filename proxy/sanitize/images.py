"""Markdown as a CommonMark renderer reads it: off-list images, and definitions that render as nothing.

The text is parsed by markdown-it-py, so an image is what CommonMark calls one (nested brackets
in the alt text, backslash escapes, entity-encoded and `<...>` destinations, reference-style
images resolved through their definitions), and its URL is the one a renderer would fetch. An
image whose URL leaves the allow list is replaced by its alt text: rendering it sends whatever
the URL carries. A link-reference definition renders as nothing (`[//]: # (a comment)` is the
idiom): one that no link uses, or that served only a removed image, is removed with its text.
"""

from __future__ import annotations

import re
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline import image as image_rule
from markdown_it.token import Token

from .budget import OverBudget
from .model import Collector
from .urls import UrlJudge

IMAGE = "markdown-image"
DEFINITION = "link-definition"
# Each `![` that opens no image costs a run of the image rule (which may read to the text's end):
# past this many, the images are placed another way or the field fails closed.
_MISSES = 64
# The parse reads in Python, a character at a time: every `[` runs the link rules (which read its
# label), every `](` reads a destination up to the first blank or control character (`<...>`: up to
# a line break or angle bracket), and a field of them costs seconds per megabyte. A field whose
# estimate (in those characters, and a fixed part for each opener) passes the budget is not
# parsed: its images cannot be placed, so it fails closed (OverBudget), as a field does whose image
# could not be placed. The budget is about a quarter of a second of parsing at worst, and a page
# of five thousand ordinary links passes it.
BUDGET = 1 << 19
_LABEL_COST = 32  # per `[` and `]:`
_IMAGE_COST = 64  # per `![`, besides its `[`
_DESTINATION_COST = 32  # per `](`, besides the characters its destination may take
_DESTINATION = re.compile(r"\]\((<?)")
_DESTINATION_END = re.compile(r"[\x00-\x20\x7f]")
_ANGLED_DESTINATION_END = re.compile(r"[\n<>]")
# Where a line ends, as CommonMark counts lines (\r\n, \r or \n).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")


class _References(dict):
    """The parse's link-reference definitions, remembering which labels a link or image looked up."""

    def __init__(self) -> None:
        super().__init__()
        self.used: set[str] = set()

    def get(self, key, default=None):
        self.used.add(key)
        return super().get(key, default)


class UnlocatedImage(ValueError):
    """An image the parse found whose source text could not be found: the field fails closed."""


def strip_images(text: str, allow_hosts: tuple[str, ...], found: Collector) -> str:
    """Replace off-list images by their alt text and drop definitions that render as nothing."""
    # A definition needs `]:`; an image needs `![` and either `](` (inline) or a definition (a
    # reference). No whitespace or escape may stand between those characters, so a field without
    # them holds neither, and is ruled out before the costly parse: most text has no `]` at all,
    # which one character's search tells at memchr speed (two characters' take a pass each).
    if "]" not in text or ("]:" not in text and ("![" not in text or "](" not in text)):
        return text
    cost = parse_cost(text)
    if cost > BUDGET:
        raise OverBudget(f"Markdown too costly to parse for images (over {BUDGET:,} steps)")
    env = {"references": _References()}
    tokens = _parser().parse(text, env)
    judge = UrlJudge(allow_hosts)
    images = [t for t in _inline(tokens, env) if t.type == "image"]
    link_hrefs = {t.attrGet("href") for t in _inline(tokens, env) if t.type == "link_open"}
    off_list = [t for t in images if not judge.allowed(str(t.attrGet("src") or ""))]
    edits: list[tuple[int, int, str]] = []
    lines = _line_starts(text)
    if off_list:
        try:
            edits += _image_edits(text, env, images, off_list, found)
        except UnlocatedImage:
            edits += _block_edits(text, lines, env, tokens, judge, found)
    removed_srcs = {str(t.attrGet("src")) for t in off_list}
    for token in tokens:
        if token.type != "definition" or token.map is None:
            continue
        label, href = token.meta["id"], token.meta["url"]
        unused = label not in env["references"].used
        served_a_removed_image = href in removed_srcs and href not in link_hrefs
        if unused or served_a_removed_image:
            start, end = lines[token.map[0]], lines[token.map[1]]
            edits.append((start, end, ""))
            if unused:  # one that served a removed image went with it, its URL recorded there
                found.add(DEFINITION, 1, text[start:end].strip())
    return _applied(text, edits) if edits else text


def parse_cost(text: str, budget: int = BUDGET) -> int:
    """An estimate, in characters read, of what parsing `text` as Markdown costs; past `budget`
    it stops counting (the figure is then only known to be over it). Counted in C but for one
    step per `](`, of which there are at most the budget over their fixed cost."""
    cost = _LABEL_COST * (text.count("[") + text.count("]:")) + _IMAGE_COST * text.count("![")
    cost += _DESTINATION_COST * text.count("](")
    if cost > budget:
        return cost
    for opener in _DESTINATION.finditer(text):
        end = _ANGLED_DESTINATION_END if opener.group(1) else _DESTINATION_END
        start = opener.end()
        limit = min(len(text), start + budget - cost + 1)  # no further than the budget has left
        stop = end.search(text, start, limit)
        cost += (limit if stop is None else stop.start()) - start
        if cost > budget:
            break
    return cost


def _applied(text: str, edits: list[tuple[int, int, str]]) -> str:
    """`text` with each (start, end) span replaced, the spans apart from one another."""
    out, pos = [], 0
    for start, end, replacement in sorted(edits):
        out += [text[pos:start], replacement]
        pos = end
    return "".join([*out, text[pos:]])


def _image_edits(
    text: str, env: dict, images: list[Token], off_list: list[Token], found: Collector
) -> list[tuple[int, int, str]]:
    """Each off-list image's span in the source, found by running the parser's own image rule at
    each `![` in turn; a span is taken only for an image the whole parse found (an `![...]` in a
    code span is none), in document order."""
    md = _parser()
    expected = [(str(t.attrGet("src")), t in off_list) for t in images]
    edits, at, misses = [], 0, 0
    start = text.find("![")
    while start >= 0 and at < len(expected):
        if misses > _MISSES:
            raise UnlocatedImage("too many `![` that open no image to place the images")
        state = StateInline(text, md, env, [])
        state.pos = start
        if image_rule(state, False):
            token = state.tokens[-1]
            src = str(token.attrGet("src"))
            if src == expected[at][0]:
                if expected[at][1]:
                    edits.append((start, state.pos, token.content))
                    found.add(IMAGE, 1, src)
                at += 1
                start = text.find("![", state.pos)
                continue
        misses += 1
        start = text.find("![", start + 2)
    if any(off for _, off in expected[at:]):
        raise UnlocatedImage("an image the Markdown parse found could not be placed in the text")
    return edits


def _block_edits(
    text: str,
    lines: list[int],
    env: dict,
    tokens: list[Token],
    judge: UrlJudge,
    found: Collector,
) -> list[tuple[int, int, str]]:
    """The fallback for an image whose syntax crosses container markers (a blockquote's `>`):
    each block holding an off-list image is rewritten from the parse's own inline text, with the
    marker of its first line in front of every line."""
    edits = []
    md = _parser()
    for token in tokens:
        if token.type == "html_block" and any(
            t.type == "image" and not judge.allowed(str(t.attrGet("src") or ""))
            for t in _inline([token], env)
        ):
            raise UnlocatedImage("an off-list image inside an HTML block could not be placed")
        if token.type != "inline" or token.map is None or not token.children:
            continue
        if all(
            judge.allowed(str(c.attrGet("src") or "")) for c in token.children if c.type == "image"
        ):
            continue
        placed = [t for t in _parse_inline(md, token.content, env) if t.type == "image"]
        off = [t for t in placed if not judge.allowed(str(t.attrGet("src") or ""))]
        inner = _applied(token.content, _image_edits(token.content, env, placed, off, found))
        begin, finish = lines[token.map[0]], lines[token.map[1]]
        first = text[begin : lines[token.map[0] + 1]]
        head = token.content.split("\n", 1)[0]
        marker = first[: max(first.find(head), 0)]
        body = "\n".join(marker + line for line in inner.split("\n"))
        edits.append((begin, finish, body + ("\n" if text[:finish].endswith("\n") else "")))
    return edits


def _parse_inline(md: MarkdownIt, content: str, env: dict) -> list[Token]:
    found: list[Token] = []
    md.inline.parse(content, md, env, found)
    return found


def _inline(tokens: list[Token], env: dict):
    """The inline tokens of the document, in order, with those of Markdown inside HTML blocks:
    CommonMark shows that as text, but a renderer of another dialect may not, and an image there
    costs only its syntax when it goes."""
    for token in tokens:
        if token.children:
            yield from token.children
        elif token.type == "html_block" and "![" in token.content:
            for inner in _parser().parseInline(token.content, env):
                yield from inner.children or []


def _line_starts(text: str) -> list[int]:
    """The offset where each line starts, and the text's end after the last."""
    starts = [m.start() for m in _LINE.finditer(text) if m.end() > m.start()]
    return [*starts, len(text), len(text)]


@cache
def _parser() -> MarkdownIt:
    # CommonMark, with definitions kept as tokens (markdown-it-py's option) so their lines are known.
    return MarkdownIt("commonmark", {"inline_definitions": True})
