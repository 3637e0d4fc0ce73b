"""HTML as a browser renders it: what a person viewing the page would not see goes, and so does
every element that makes the browser fetch from a host off the allow list.

The decision comes from parsed HTML and CSS, not from patterns over the source: Lexbor (through
selectolax) builds the tree the HTML5 algorithm builds, with implied and misnested tags resolved
as a browser resolves them; tinycss2 reads the `<style>` sheets and `style` attributes, and the
sheets' selectors are matched by Lexbor. What is removed is cut from the source text itself, so
everything else stays byte for byte. To know which source piece became which node, the source is
parsed once with a marker in every start tag (an attribute) and at the head of every text run
(private-use characters, which the invisible-character pass has already removed from the field);
a piece whose marker the parser did not put anywhere visible is not shown, and is cut.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import code, css
from .budget import Budget
from .model import Collector
from .urls import UrlJudge

# Comments (also unclosed, and the abrupt `<!-->`), bogus comments (`<?...>`, `<!x...>`,
# `</ x>`), doctypes and CDATA sections: no browser shows any of them.
_COMMENT = re.compile(r"<!--(?:-?>|(.*?)(?:--!?>|\Z))", re.DOTALL)
_BOGUS = re.compile(r"<(?:\?|!(?!--)|/(?![A-Za-z>]))[^>]*>?")
# A tag: its name, then attribute text up to a `>` outside quotes (an unclosed tag runs to the end
# of the field: the browser drops it, and so does this).
_TAG = re.compile(
    r"<(/?)([A-Za-z][^\s/>]*)((?:[^>\"']|\"[^\"]*(?:\"|\Z)|'[^']*(?:'|\Z))*)(>|\Z)", re.DOTALL
)
_RAW_TEXT = frozenset(
    "script style textarea title xmp iframe noembed noframes noscript plaintext".split()
)
# Raw text no browser shows (and that a marker would corrupt: a style sheet, a script).
_UNSHOWN_TEXT = frozenset("script style noscript noembed noframes iframe".split())
_ANY_MARKUP = re.compile(r"<[A-Za-z!/?]")
_TEXT_MARK = "\U0010fffd"
_MARK_END = "\U0010fffc"
_MARKED = re.compile(f"{_TEXT_MARK}(\\d+){_MARK_END}")
_ATTRIBUTE = "data-lz-mark"
# Elements whose content no one sees, however styled: metadata wherever the parser puts it,
# fallback content of media, a closed dialog, annotations, and SVG that is never drawn.
_NEVER_SHOWN = frozenset(
    "script style template noscript head meta link base title datalist rp audio video canvas"
    " iframe noembed noframes annotation annotation-xml desc metadata defs symbol clippath mask"
    " pattern marker lineargradient radialgradient filter".split()
)
# Where text is drawn inside SVG (anywhere else in it, text is not drawn at all).
_SVG_TEXT = frozenset(("text", "tspan", "textpath"))
# A feed or other XML document (its prologue, or a feed's root once a round took the prologue out):
# a reader shows its `<title>`s (every item has one), so there the title is content, not metadata.
_XML = re.compile(r"\s*<(?:\?xml[\s?]|rss[\s>]|feed[\s>]|rdf:rdf[\s>])", re.IGNORECASE)
_SHOWN_IN_XML = frozenset(("title",))
_TITLE_END = re.compile(r"</title[\s/>]", re.IGNORECASE)
_TAG_AS_TEXT = "#tag-as-text"  # a text piece that spells a tag: the parser is given it escaped
_SPACE = re.compile(r"\s+")
# Markup that holds no words: a doctype (the W3C forms), a bare tag the parser dropped (`<head>`).
# It is removed and counted like the rest, but there is no hidden payload in it to list.
_BARE_MARKUP = re.compile(
    r"\s*(?:<!doctype\s+html(?:\s+public\s+\"-//W3C//[^\"<>]*\"(?:\s+\"https?://www\.w3\.org/[^\"<>]*\")?)?\s*>"
    r"|</?[A-Za-z][A-Za-z0-9-]*\s*/?>)\s*",
    re.IGNORECASE,
)


# What one field may ask of the HTML parser. The HTML5 algorithm scans the stack of open
# elements at many start tags, so nesting costs time per tag (browsers cap it too), and each
# element costs memory many times its source: past either bound the field cannot be rendered
# within bounded work, and is withheld as uninspectable rather than passed on unread.
MAX_DEPTH = 512
MAX_ELEMENTS = 10_000
SOURCE_CHARS_PER_ELEMENT = 16
_VOID = frozenset(
    "area base br col embed hr img input link meta param source track wbr image".split()
)


class MarkupTooComplex(ValueError):
    """The field's HTML nests too deep or holds too many elements to be rendered."""


@dataclass
class _Piece:
    """One stretch of the source: a tag, a text run, or something never shown."""

    kind: str  # "start", "end", "text", "comment", "bogus"
    start: int
    end: int
    name: str = ""
    body: str = ""
    shown: bool = True
    placed: bool = False  # the parser made an element of this start tag
    fetches: list[str] = field(default_factory=list)
    alt: str = ""


def strip_markup(
    text: str, allow_hosts: tuple[str, ...], found: Collector, budget: Budget | None = None
) -> str:
    """Remove comments, hidden elements and off-list fetches, recording what each held."""
    if "<" not in text or not _ANY_MARKUP.search(text):
        return text
    budget = budget or Budget.unlimited()
    # Markdown code is shown as code: its markup is read as text, never rendered.
    source = code.masked(text, budget)
    pieces = list(_pieces(source))
    if not any(p.kind in ("start", "comment", "bogus") for p in pieces):
        return text
    _check_bounds(pieces, len(text))
    if any(p.kind == "start" for p in pieces):
        hidden = _NEVER_SHOWN - _SHOWN_IN_XML if _XML.match(text) else _NEVER_SHOWN
        _render(source, pieces, UrlJudge(allow_hosts), budget, hidden)
    return _rebuild(text, pieces, found)


def _pieces(text: str) -> Iterator[_Piece]:
    """The source split into pieces, in order, covering every character."""
    at, size = 0, len(text)
    raw_until: re.Pattern | None = None
    raw_name = ""
    # Where the last `</title>` starts: a `<title>` after it is never closed (found in one pass).
    last_title_end = max((m.start() for m in _TITLE_END.finditer(text)), default=-1)
    while at < size:
        if raw_until is not None:
            close = raw_until.search(text, at)
            end = close.start() if close else size
            if end > at:
                yield _Piece("text", at, end, name=raw_name)
            at, raw_until = end, None
            continue
        lt = text.find("<", at)
        if lt < 0:
            yield _Piece("text", at, size)
            return
        if lt > at:
            yield _Piece("text", at, lt)
        if text.startswith("<!--", lt):
            match = _COMMENT.match(text, lt)
            assert match is not None  # the pattern can always end at the field's end
            yield _Piece("comment", lt, match.end(), body=(match.group(1) or "").strip())
            at = match.end()
            continue
        tag = _TAG.match(text, lt)
        if tag and _placeholder(tag, last_title_end):
            yield _Piece("text", lt, tag.end(), name=_TAG_AS_TEXT)
            at = tag.end()
            continue
        if tag:
            closing, name = tag.group(1), tag.group(2).lower()
            yield _Piece("end" if closing else "start", lt, tag.end(), name=name)
            at = tag.end()
            if not closing and name in _RAW_TEXT and tag.group(4):
                raw_name = name
                raw_until = (
                    re.compile(r"\Z")
                    if name == "plaintext"
                    else re.compile(f"</{re.escape(name)}[\\s/>]", re.IGNORECASE)
                )
            continue
        bogus = _BOGUS.match(text, lt)
        if bogus:
            yield _Piece("bogus", lt, bogus.end(), body=bogus.group(0))
            at = bogus.end()
            continue
        yield _Piece("text", lt, lt + 1)
        at = lt + 1


def _placeholder(tag: re.Match[str], last_title_end: int) -> bool:
    """A `<title>` never closed: in a browser the rest of the field would be the page's title, but
    in text that only names the tag (`?t=<title>` in a bug report) it is the rest of the text a
    person reads. Read as text, what follows is judged as visible words, not cut unread."""
    return not tag.group(1) and tag.group(2).lower() == "title" and tag.end() > last_title_end


def _check_bounds(pieces: list[_Piece], size: int) -> None:
    """Raise MarkupTooComplex past MAX_ELEMENTS (or one per SOURCE_CHARS_PER_ELEMENT characters,
    whichever is more) or MAX_DEPTH open elements (counted as end tags close their openers)."""
    starts = sum(1 for p in pieces if p.kind == "start")
    if starts > max(MAX_ELEMENTS, size // SOURCE_CHARS_PER_ELEMENT):
        raise MarkupTooComplex(f"{starts} HTML elements in {size} characters")
    depth, open_by_name = 0, {}
    for piece in pieces:
        if piece.kind == "start" and piece.name not in _VOID:
            depth += 1
            open_by_name[piece.name] = open_by_name.get(piece.name, 0) + 1
            if depth > MAX_DEPTH:
                raise MarkupTooComplex(f"HTML nested more than {MAX_DEPTH} elements deep")
        elif piece.kind == "end" and open_by_name.get(piece.name):
            open_by_name[piece.name] -= 1
            depth -= 1


def _instrumented(text: str, pieces: list[_Piece]) -> str:
    """The source with every start tag and non-blank text run marked by its piece's index."""
    out = []
    for index, piece in enumerate(pieces):
        chunk = text[piece.start : piece.end]
        if piece.kind == "start":
            name_end = 1 + len(piece.name)
            chunk = f'{chunk[:name_end]} {_ATTRIBUTE}="{index}"{chunk[name_end:]}'
        elif piece.kind == "text" and not chunk.isspace() and piece.name not in _UNSHOWN_TEXT:
            if piece.name == _TAG_AS_TEXT:
                chunk = "&lt;" + chunk[1:]
            chunk = f"{_TEXT_MARK}{index}{_MARK_END}{chunk}"
        out.append(chunk)
    return "".join(out)


def _render(
    text: str, pieces: list[_Piece], judge: UrlJudge, budget: Budget, hidden: frozenset[str]
) -> None:
    """Parse the marked source and set, per piece, whether it is shown and what it fetches."""
    from selectolax.lexbor import LexborHTMLParser

    budget.spend(len(text), "parsing HTML")
    tree = LexborHTMLParser(_instrumented(text, pieces))
    for piece in pieces:
        if piece.kind in ("start", "text") and not text[piece.start : piece.end].isspace():
            piece.shown = False  # until the parser is found to have put it somewhere visible
    base = tree.css_first("base[href]")
    judge.base = base.attributes.get("href") if base is not None else None
    rules = css.sheet_rules(tree, budget)
    root = tree.root
    if root is None:
        return
    # Pre-order: each element's computed style from its parent's. Then, children before parents
    # (the pre-order reversed), whether anything inside an element is seen: an element whose own
    # text is hidden and holds nothing seen goes whole, tags and all.
    order: list[tuple[Any, css.Computed, int]] = []  # element, its style, its parent's index
    seen_inside: list[bool] = []
    hidden_inside: list[bool] = []  # some text inside that no one sees
    # Each entry also says whether its text is drawn: not where SVG draws no text.
    stack: list[tuple[Any, css.Computed, int, _Drawn]] = [
        (root, css.Computed.initial(), -1, _Drawn.HTML)
    ]
    while stack:
        node, parent, parent_index, drawn = stack.pop()
        if node.tag == "-text":
            text_value = node.text(deep=False) or ""
            shown = not parent.text_hidden and drawn is not _Drawn.SVG_SHAPES
            for mark in _MARKED.finditer(text_value):
                pieces[int(mark.group(1))].shown = shown
            if parent_index >= 0 and _MARKED.sub("", text_value).strip():
                (seen_inside if shown else hidden_inside)[parent_index] = True
            continue
        if not node.is_element_node:
            continue
        computed = css.compute(node, parent, rules, budget)
        drawn = _drawn(node, drawn)
        if _never_shown(node, hidden):
            computed = computed.hide()
        index = len(order)
        order.append((node, computed, parent_index))
        seen_inside.append(False)
        hidden_inside.append(False)
        children = []
        child = node.child
        while child is not None:
            children.append((child, computed, index, drawn))
            child = child.next
        stack.extend(reversed(children))
    for index in range(len(order) - 1, -1, -1):
        node, computed, parent_index = order[index]
        if parent_index >= 0:
            seen_inside[parent_index] |= seen_inside[index]
            hidden_inside[parent_index] |= hidden_inside[index]
        mark = node.attributes.get(_ATTRIBUTE)
        if mark is None or not mark.isdigit() or int(mark) >= len(pieces):
            continue
        piece = pieces[int(mark)]
        piece.placed = True
        piece.shown = not computed.hidden and (seen_inside[index] or not hidden_inside[index])
        fetched = _fetched(node, computed, rules.urls if node.tag == "style" else ())
        piece.fetches = [url for url in fetched if not judge.allowed(url)]
        piece.alt = node.attributes.get("alt") or ""


# Attributes that make a browser fetch, per element (any element: `background`, and CSS urls).
_FETCH_ATTRIBUTES = {
    "img": ("src", "srcset", "lowsrc"),
    "source": ("src", "srcset"),
    "video": ("src", "poster"),
    "audio": ("src",),
    "track": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "iframe": ("src",),
    "frame": ("src",),
    "input": ("src",),
    "script": ("src",),
    "link": ("href",),
    "image": ("href", "xlink:href", "src"),
    "use": ("href", "xlink:href"),
    "feimage": ("href", "xlink:href"),
}
_REFRESH = re.compile(r"url\s*=\s*['\"]?([^'\"\s;]+)", re.IGNORECASE)


def _fetched(node, computed: css.Computed, sheet_urls: Sequence[str]) -> Iterator[str]:
    """Every URL rendering this element fetches: its source attributes, `srcset` candidates,
    `background`, a refresh target, the `url(...)` values of its style, what a `<style>`
    imports, and what a frame's `srcdoc` page fetches."""
    attributes = node.attributes
    yield from sheet_urls
    srcdoc = attributes.get("srcdoc")
    if srcdoc:
        yield from _srcdoc_fetches(srcdoc)
    for name in (*_FETCH_ATTRIBUTES.get(node.tag, ()), "background", "imagesrcset"):
        value = attributes.get(name)
        if not value:
            continue
        if name.endswith("srcset"):
            yield from (c.split()[0] for c in value.split(",") if c.strip())
        else:
            yield value
    if node.tag == "meta" and (attributes.get("http-equiv") or "").lower() == "refresh":
        target = _REFRESH.search(attributes.get("content") or "")
        if target:
            yield target.group(1)
    yield from computed.urls


def _srcdoc_fetches(srcdoc: str) -> Iterator[str]:
    """What the page in a frame's `srcdoc` fetches (its URLs as they stand: the frame's own)."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(srcdoc)
    for element in tree.css("*"):
        yield from _fetched(element, css.Computed.initial(), ())


class _Drawn(enum.Enum):
    """How the enclosing markup draws text: HTML does, SVG only in its text elements."""

    HTML = "html"
    SVG_SHAPES = "svg-shapes"
    SVG_TEXT = "svg-text"


def _drawn(node, outer: _Drawn) -> _Drawn:
    tag = node.tag.lower()
    if tag == "svg":
        return _Drawn.SVG_SHAPES
    if outer is _Drawn.HTML:
        return outer
    if tag == "foreignobject":
        return _Drawn.HTML
    return _Drawn.SVG_TEXT if tag in _SVG_TEXT else outer


def _never_shown(node, hidden: frozenset[str]) -> bool:
    """An element no one sees, whatever its style: by its kind (one of `hidden`), or its own
    attributes."""
    tag, attributes = node.tag.lower(), node.attributes
    if tag in hidden or "hidden" in attributes:
        return True
    if tag == "dialog":
        return "open" not in attributes
    if tag == "svg":
        return any(
            (attributes.get(side) or "").strip() in ("0", "0px") for side in ("width", "height")
        )
    return False


def _rebuild(text: str, pieces: list[_Piece], found: Collector) -> str:
    """The source without the pieces that are not shown, recording each hidden stretch."""
    out: list[str] = []
    hidden: list[str] = []
    open_hidden: dict[str, int] = {}  # hidden start tags not closed yet, by name
    changed = False

    def flush() -> None:
        if hidden:
            readable = _SPACE.sub(" ", " ".join(hidden)).strip()
            found.add("hidden-html", 1, readable)
            hidden.clear()

    for index, piece in enumerate(pieces):
        chunk = text[piece.start : piece.end]
        if piece.kind == "comment":
            found.add("html-comment", 1, piece.body)
            changed = True
            continue
        if piece.kind == "bogus":
            found.add("hidden-html", 1, _readable(piece.body))
            changed = True
            continue
        if piece.kind == "end":
            if open_hidden.get(piece.name):
                open_hidden[piece.name] -= 1
                changed = True
                continue
            out.append(chunk)
            continue
        if piece.kind == "text" and chunk.isspace():
            if hidden and _next_is_hidden(pieces, index, text):
                continue
            flush()
            out.append(chunk)
            continue
        if piece.kind == "start" and "<!--" in chunk:
            # Comment syntax inside a tag is attribute text no one sees, shaped to read as a
            # comment to whatever reads the source: the tag goes (its element's content stays).
            found.add("hidden-html", 1, chunk)
            open_hidden[piece.name] = open_hidden.get(piece.name, 0) + 1
            changed = True
            continue
        if piece.fetches:
            # The element goes (an image leaves its alt text if shown), and so does its end tag.
            kind = "markdown-image" if piece.name == "img" else "remote-resource"
            found.add(kind, 1, " ".join(piece.fetches))
            out.append(piece.alt if piece.name == "img" and piece.shown else "")
            open_hidden[piece.name] = open_hidden.get(piece.name, 0) + 1
            changed = True
            continue
        if not piece.shown:
            if piece.kind == "start":
                open_hidden[piece.name] = open_hidden.get(piece.name, 0) + 1
            if piece.kind == "text" or not piece.placed:
                # A tag the parser dropped (left open at the end) is read whole.
                hidden.append(_readable(chunk))
            changed = True
            continue
        flush()
        out.append(chunk)
    flush()
    return "".join(out) if changed else text


def _readable(chunk: str) -> str:
    """A removed piece as a reviewer reads it: nothing, for bare markup."""
    return "" if _BARE_MARKUP.fullmatch(chunk) else chunk


def _next_is_hidden(pieces: list[_Piece], index: int, text: str) -> bool:
    for piece in pieces[index + 1 :]:
        if piece.kind == "text" and text[piece.start : piece.end].isspace():
            continue
        return piece.kind in ("start", "text") and not piece.shown
    return True
