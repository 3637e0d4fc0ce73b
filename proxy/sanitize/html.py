"""HTML a browser would not show: comments and elements hidden by attributes or inline style."""

from __future__ import annotations

import re

from .model import Collector

# A comment runs to its first terminator; an unclosed one runs to the end of the field, as in a
# browser. The lazy body can always end at \Z, so every attempt succeeds and nothing is rescanned.
_COMMENT = re.compile(r"<!--(.*?)(?:--!?>|\Z)", re.DOTALL)

# Attribute text may not hold '<' or '>', so an attempt stops at the next one: "<div style=" repeated
# costs one short scan per '<'.
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)([^<>]*)>")
_ATTR = re.compile(r"""([^\s"'=<>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?""")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_SPACE = re.compile(r"\s+")

# px per unit, for judging how far off-screen a negative offset pushes text.
_UNITS = {
    "px": 1.0,
    "": 1.0,
    "pt": 4 / 3,
    "em": 16.0,
    "rem": 16.0,
    "vw": 10.0,
    "vh": 10.0,
    "%": 10.0,
    "cm": 37.8,
    "mm": 3.78,
    "in": 96.0,
    "pc": 16.0,
    "ch": 8.0,
    "ex": 8.0,
}
# One way to split any number, so a long digit run that fails does not backtrack.
_LENGTH = re.compile(r"(-?(?:\d+(?:\.\d+)?|\.\d+))\s*([a-z%]*)")
_OFFSCREEN_PX = -100.0
_NAMED_COLOURS = {
    "white": "#ffffff",
    "black": "#000000",
    "red": "#ff0000",
    "blue": "#0000ff",
    "green": "#008000",
    "yellow": "#ffff00",
    "gray": "#808080",
    "grey": "#808080",
    "silver": "#c0c0c0",
    "lime": "#00ff00",
    "navy": "#000080",
    "fuchsia": "#ff00ff",
    "magenta": "#ff00ff",
    "aqua": "#00ffff",
    "cyan": "#00ffff",
    "maroon": "#800000",
    "olive": "#808000",
    "purple": "#800080",
    "teal": "#008080",
    "orange": "#ffa500",
}


def strip_comments(text: str, found: Collector) -> str:
    """Remove HTML comments, recording each body."""
    if "<" not in text or "<!--" not in text:  # the one-character test is memchr, far cheaper
        return text

    def drop(match: re.Match) -> str:
        found.add("html-comment", 1, match.group(1).strip())
        return ""

    return _COMMENT.sub(drop, text)


def strip_hidden(text: str, found: Collector) -> str:
    """Remove elements hidden from view, and everything inside them, keeping the text around them."""
    if "<" not in text:
        return text
    spans = list(_hidden_spans(text))
    if not spans:
        return text
    pieces: list[str] = []
    last = 0
    for start, end in spans:
        pieces.append(text[last:start])
        hidden = _TAG.sub(" ", text[start:end])
        found.add("hidden-html", 1, _SPACE.sub(" ", hidden).strip())
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _hidden_spans(text: str):
    """Yield (start, end) of each outermost hidden element, in order.

    One pass over the tags with a stack of open elements: a close tag pops down to its nearest
    opener of the same name (as browsers recover from unclosed tags), and an unclosed hidden
    element hides the rest of the field. Per-name counts keep a close tag with no opener from
    searching the stack, so the pass stays linear.
    """
    stack: list[str] = []
    open_count: dict[str, int] = {}
    hidden_at = -1  # stack depth of the outermost open hidden element, -1 when none
    hidden_start = 0
    for match in _TAG.finditer(text):
        closing, name, attrs = match.group(1), match.group(2).lower(), match.group(3)
        if closing:
            if not open_count.get(name):
                continue
            while True:
                top = stack.pop()
                open_count[top] -= 1
                if len(stack) == hidden_at:
                    yield hidden_start, match.end() if top == name else match.start()
                    hidden_at = -1
                if top == name:
                    break
            continue
        hides = hidden_at < 0 and _is_hidden(attrs)
        # Only void elements close themselves: a browser ignores the slash in <span hidden/>.
        if name in _VOID:
            if hides:
                yield match.start(), match.end()
            continue
        if hides:
            hidden_at, hidden_start = len(stack), match.start()
        stack.append(name)
        open_count[name] = open_count.get(name, 0) + 1
    if hidden_at >= 0:
        yield hidden_start, len(text)


def attributes(attrs: str) -> dict[str, str]:
    """The attributes of one start tag's attribute text, names lowercased, values unquoted."""
    values = {}
    for match in _ATTR.finditer(attrs):
        value = match.group(2) or ""
        values.setdefault(match.group(1).lower(), value.strip("\"'").strip())
    return values


def _is_hidden(attrs: str) -> bool:
    if not attrs.strip():
        return False
    values = {name: value.lower() for name, value in attributes(attrs).items()}
    if "hidden" in values or values.get("aria-hidden") == "true":
        return True
    style = values.get("style")
    return bool(style) and _style_hides(style)


def _style_hides(style: str) -> bool:
    props: dict[str, str] = {}
    for declaration in style.split(";"):
        prop, _, value = declaration.partition(":")
        props[prop.strip()] = value.replace("!important", "").strip()
    if props.get("display") == "none" or props.get("visibility") in ("hidden", "collapse"):
        return True
    font = _pixels(props.get("font-size"))
    if font is not None and font < 1:
        return True
    opacity = _LENGTH.fullmatch(props.get("opacity", ""))
    if opacity and float(opacity.group(1)) / (100 if opacity.group(2) == "%" else 1) < 0.1:
        return True
    for prop in ("left", "top", "text-indent", "margin-left", "margin-top"):
        px = _pixels(props.get(prop))
        if px is not None and px <= _OFFSCREEN_PX:
            return True
    if props.get("clip", "").replace(" ", "") in ("rect(0,0,0,0)", "rect(0px,0px,0px,0px)"):
        return True
    colour = _colour(props.get("color"))
    if colour == "transparent":
        return True
    background = _colour(props.get("background-color") or props.get("background"))
    return colour is not None and colour == background


def _pixels(value: str | None) -> float | None:
    if not value:
        return None
    match = _LENGTH.fullmatch(value)
    if not match or match.group(2) not in _UNITS:
        return None
    return float(match.group(1)) * _UNITS[match.group(2)]


def _colour(value: str | None) -> str | None:
    """A colour in one canonical spelling, so #fff, #ffffff, white and rgb(255,255,255) compare equal."""
    if not value:
        return None
    value = value.split()[0] if value.startswith("#") else value.replace(" ", "")
    if value in _NAMED_COLOURS:
        return _NAMED_COLOURS[value]
    if value == "transparent" or (value.startswith(("rgba(", "hsla(")) and value.endswith(",0)")):
        return "transparent"
    if re.fullmatch(r"#[0-9a-f]{3}", value):
        return "#" + "".join(c * 2 for c in value[1:])
    if re.fullmatch(r"#[0-9a-f]{6}", value):
        return value
    rgb = re.fullmatch(r"rgba?\((\d+),(\d+),(\d+)(?:,[\d.]+)?\)", value)
    if rgb:
        return "#" + "".join(f"{min(int(c), 255):02x}" for c in rgb.groups())
    return value
