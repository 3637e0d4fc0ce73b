"""The part of CSS that decides whether a person can see an element: the cascade of `<style>`
sheets and `style` attributes (tinycss2 reads them, Lexbor matches the selectors), then each
property that can hide text, computed down the tree as a browser inherits it."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import tinycss2
from tinycss2.color3 import parse_color

# Text smaller than this many pixels cannot be read.
MIN_FONT_PX = 4.0
# Below this opacity, text is a ghost of its background.
MIN_OPACITY = 0.1
# Text whose contrast ratio against what is behind it is under this cannot be told apart from
# it (WCAG asks 4.5 for body text; 1.25 is a few shades off the background).
MIN_CONTRAST = 1.25
# An offset this far negative puts the element off the page.
OFFSCREEN_PX = -100.0
_WHITE = (1.0, 1.0, 1.0)
_BLACK = (0.0, 0.0, 0.0)
_PX = {"px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 37.8, "mm": 3.78, "q": 0.945}
_KEYWORD_SIZES = {"xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0}
_OFFSETS = ("left", "top", "text-indent", "margin-left", "margin-top")
_SPECIFICITY = (
    re.compile(r"#[\w-]+"),
    re.compile(r"\.[\w-]+|\[[^\]]*\]|(?<!:):(?!:)[\w-]+"),
    re.compile(r"(?:^|[\s>+~(,])[a-zA-Z][\w-]*|::[\w-]+"),
)
_URL = re.compile(r"url\(\s*['\"]?([^'\")\s]+)", re.IGNORECASE)


@dataclass(frozen=True)
class Computed:
    """What an element inherits and passes on, and whether it (with its content) is hidden."""

    hidden: bool = False
    invisible: bool = False  # visibility: hidden (a child may set it visible again)
    font_px: float = 16.0
    color: tuple[float, float, float, float] = (*_BLACK, 1.0)
    backdrop: tuple[float, float, float] | None = _WHITE  # None: an image, colour unknown
    opacity: float = 1.0
    urls: tuple[str, ...] = ()

    @classmethod
    def initial(cls) -> Computed:
        return cls()

    @cached_property  # children without styles of their own share their parent's object
    def text_hidden(self) -> bool:
        """Whether the element's own text cannot be seen (a child may set its own size, colour
        or visibility, and is judged in turn)."""
        if self.hidden or self.invisible or self.font_px < MIN_FONT_PX:
            return True
        if self.backdrop is None:
            return False  # over an image: its colours are unknown
        shown = _blend((*self.color[:3], self.color[3] * self.opacity), self.backdrop)
        return _contrast(shown, self.backdrop) < MIN_CONTRAST

    def hide(self) -> Computed:
        return replace(self, hidden=True)


# The elements a rule matches (by Lexbor's node identity), its specificity, its place in the
# sheets, and its declarations.
Rule = tuple[frozenset[int], tuple[int, int, int], int, list]


def sheet_rules(tree) -> list[Rule]:
    """Every style rule of the page's `<style>` sheets (media blocks included: hidden in any
    medium counts), in source order, with the elements it matches."""
    rules: list[Rule] = []
    for style in tree.css("style"):
        sheet = tinycss2.parse_stylesheet(style.text(deep=True) or "", True, True)
        _collect(tree, sheet, rules)
    return rules


def _collect(tree, nodes: list, rules: list[Rule]) -> None:
    for node in nodes:
        if node.type == "qualified-rule":
            declarations = tinycss2.parse_blocks_contents(node.content, True, True)
            selector = tinycss2.serialize(node.prelude).strip()
            for part in selector.split(","):
                try:
                    matched = frozenset(element.mem_id for element in tree.css(part.strip()))
                except Exception:
                    continue  # a selector Lexbor cannot read is one a browser ignores too
                rules.append((matched, _specificity(part), len(rules), declarations))
        elif node.type == "at-rule" and node.content is not None:
            _collect(tree, tinycss2.parse_blocks_contents(node.content, True, True), rules)


def _specificity(selector: str) -> tuple[int, int, int]:
    ids, classes, types = (len(pattern.findall(selector)) for pattern in _SPECIFICITY)
    return ids, classes, types


def compute(node, parent: Computed, rules: list[Rule]) -> Computed:
    """The element's computed visibility, from its matched rules, style attribute and
    presentation attributes, inheriting from `parent`."""
    props = _cascade(node, rules)
    if not props:
        return inherited(parent)
    return from_properties(node, parent, props)


def inherited(parent: Computed) -> Computed:
    """What `from_properties` computes for an element without properties of its own: its
    parent's style, without the parent's URLs (most elements; it shares the parent's object)."""
    # Nothing can hide it that does not already hide the parent: a parent that is not hidden
    # has an opacity above the minimum (or it would be hidden).
    return replace(parent, urls=()) if parent.urls else parent


def from_properties(node, parent: Computed, props: dict[str, str]) -> Computed:
    """The element's computed visibility from its cascaded `props`, inheriting from `parent`."""
    if parent.hidden:
        return replace(parent, urls=tuple(_urls(props)))
    display = props.get("display", "")
    hidden = display == "none"
    visibility = props.get("visibility")
    invisible = parent.invisible if visibility is None else visibility in ("hidden", "collapse")
    font_px = _font_size(props.get("font-size"), parent.font_px)
    opacity = parent.opacity * _number(props.get("opacity"), 1.0)
    opacity *= _number(props.get("fill-opacity"), 1.0) if node.tag in ("text", "tspan") else 1.0
    backdrop = parent.backdrop
    background = props.get("background-color") or props.get("background")
    if background:
        if "url(" in background.lower():
            backdrop = None
        else:
            colour = _colour(background)
            if colour is not None and colour[3] > 0.5 and backdrop is not None:
                backdrop = _blend(colour, backdrop)
    color = parent.color
    text_colour = props.get("fill") if node.tag in ("text", "tspan", "textpath") else None
    text_colour = text_colour or props.get("color")
    if text_colour:
        if text_colour.strip().lower() == "none":
            color = (*_BLACK, 0.0)
        else:
            color = _colour(text_colour) or color
    hidden = hidden or _clipped(props) or _offscreen(props) or opacity < MIN_OPACITY
    return Computed(hidden, invisible, font_px, color, backdrop, opacity, tuple(_urls(props)))


def _cascade(node, rules: list[Rule]) -> dict[str, str]:
    """property -> value: matched rules by (important, specificity, order), the style attribute
    above unimportant rules, presentation attributes below everything."""
    ranked: dict[str, tuple[tuple, str]] = {}

    def offer(rank: tuple, declarations) -> None:
        for declaration in declarations:
            if declaration.type != "declaration":
                continue
            key = (declaration.important, *rank)
            name = declaration.lower_name
            if name not in ranked or key >= ranked[name][0]:
                ranked[name] = (key, tinycss2.serialize(declaration.value).strip().lower())

    attributes = node.attributes
    for name in ("fill", "opacity", "fill-opacity", "visibility", "display", "font-size", "color"):
        value = attributes.get(name)
        if value and (node.tag != "font" or name == "color"):
            ranked[name] = ((False, -1, (0, 0, 0), 0), value.strip().lower())
    if attributes.get("bgcolor"):
        ranked["background-color"] = ((False, -1, (0, 0, 0), 0), attributes["bgcolor"].lower())
    for matched, specificity, order, declarations in rules:
        if node.mem_id in matched:
            offer((0, specificity, order), declarations)
    style = attributes.get("style")
    if style:
        offer((1, (0, 0, 0), 0), tinycss2.parse_blocks_contents(style, True, True))
    return {name: value for name, (_, value) in ranked.items()}


def _urls(props: dict[str, str]) -> list[str]:
    return [url for value in props.values() if "url(" in value for url in _URL.findall(value)]


def _length(value: str | None, relative_to: float) -> float | None:
    """A CSS length in pixels (`em` and `%` relative to `relative_to`), None if not one."""
    if not value:
        return None
    tokens = [t for t in tinycss2.parse_component_value_list(value) if t.type != "whitespace"]
    if not tokens:
        return None
    token: Any = tokens[0]
    if token.type == "number":
        return float(token.value)
    if token.type == "percentage":
        return relative_to * float(token.value) / 100
    if token.type == "dimension":
        unit = token.lower_unit
        if unit in _PX:
            return float(token.value) * _PX[unit]
        if unit in ("em", "ex", "ch"):
            return float(token.value) * relative_to * (1.0 if unit == "em" else 0.5)
        if unit == "rem":
            return float(token.value) * 16.0
        if unit in ("vw", "vh", "vmin", "vmax"):
            return float(token.value) * 10.0
    return None


def _font_size(value: str | None, inherited: float) -> float:
    if not value:
        return inherited
    if value in _KEYWORD_SIZES:
        return _KEYWORD_SIZES[value]
    size = _length(value, inherited)
    return inherited if size is None else size


def _number(value: str | None, default: float) -> float:
    if not value:
        return default
    token: Any = next(
        (t for t in tinycss2.parse_component_value_list(value) if t.type != "whitespace"), None
    )
    if token is None:
        return default
    if token.type == "number":
        return float(token.value)
    if token.type == "percentage":
        return float(token.value) / 100
    return default


def _clipped(props: dict[str, str]) -> bool:
    """Clipped or scaled to nothing: a zero box that hides overflow, clip, clip-path, scale(0)."""
    overflow = props.get("overflow", "")
    if any(word in overflow for word in ("hidden", "clip")):
        for name in ("width", "height", "max-width", "max-height"):
            size = _length(props.get(name), 16.0)
            if size is not None and size <= 1:
                return True
    clip = props.get("clip", "").replace("px", "")
    if clip.startswith("rect(") and all(
        part in ("0", "1", "auto") for part in re.split(r"[\s,]+", clip[5:-1].strip())
    ):
        return True
    clip_path = props.get("clip-path", "")
    inset = re.match(r"inset\(\s*(\d+(?:\.\d+)?)%", clip_path)
    if (inset and float(inset.group(1)) >= 50) or re.match(r"circle\(\s*0", clip_path):
        return True
    transform = props.get("transform", "")
    for function, args in re.findall(r"(scale[xy]?|matrix)\(([^)]*)\)", transform):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if function == "matrix" and len(numbers) >= 4:
            if abs(numbers[0] * numbers[3] - numbers[1] * numbers[2]) < 0.01:
                return True
        elif numbers and min(abs(n) for n in numbers) < 0.05:
            return True
    return False


def _offscreen(props: dict[str, str]) -> bool:
    for name in _OFFSETS:
        offset = _length(props.get(name), 16.0)
        if offset is not None and offset <= OFFSCREEN_PX:
            return True
    for amount in re.findall(
        r"translate[xy]?\(\s*(-?\d+(?:\.\d+)?)(px|em|rem|%)?", props.get("transform", "")
    ):
        offset = _length("".join(amount) or "0", 16.0)
        if offset is not None and offset <= OFFSCREEN_PX * 10:
            return True
    return False


def _colour(value: str) -> tuple[float, float, float, float] | None:
    """The first colour in a value (a `background` shorthand may hold more than a colour)."""
    token: Any
    for token in tinycss2.parse_component_value_list(value):
        if token.type == "whitespace":
            continue
        colour = parse_color(token)
        if colour is not None and not isinstance(colour, str):  # "currentColor": inherited
            return (colour.red, colour.green, colour.blue, colour.alpha)
    return None


def _blend(
    colour: tuple[float, float, float, float], behind: tuple[float, float, float]
) -> tuple[float, float, float]:
    alpha = max(0.0, min(1.0, colour[3]))
    red, green, blue = (
        c * alpha + b * (1 - alpha) for c, b in zip(colour[:3], behind, strict=True)
    )
    return red, green, blue


def _contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    def luminance(rgb: tuple[float, ...]) -> float:
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
