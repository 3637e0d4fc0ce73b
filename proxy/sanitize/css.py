"""The part of CSS that decides whether a person can see an element: the cascade of `<style>`
sheets and `style` attributes (tinycss2 reads them, nested rules, layers and conditional rules
included; Lexbor matches the selectors), then each property that can hide text, with `var()` and
`calc()` evaluated and colours read as CSS Colour 4 reads them, computed down the tree as a
browser inherits it. Everything is measured against the reference screen of values.py."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import tinycss2

from . import colours, values
from .budget import Budget
from .colours import Rgba
from .values import UNKNOWN, Context, meaningful, split_commas

# Text smaller than this many pixels (after zoom and scaling) cannot be read.
MIN_FONT_PX = 4.0
# Below this opacity, text is a ghost of its background.
MIN_OPACITY = 0.1
# Text whose contrast ratio against what is behind it is under this cannot be told apart from
# it (WCAG asks 4.5 for body text; 1.25 is a few shades off the background).
MIN_CONTRAST = 1.25
# An element moved this far up or left (or a screen's width right) is off the page: a person
# scrolls down, never up past the top nor sideways.
OFFSCREEN_PX = -100.0
_WHITE = (1.0, 1.0, 1.0)
_KEYWORD_SIZES = {"xx-small": 9.0, "x-small": 10.0, "small": 13.0, "medium": 16.0}
_SPECIFICITY = (
    re.compile(r"#[\w-]+"),
    re.compile(r"\.[\w-]+|\[[^\]]*\]|(?<!:):(?!:|is\(|where\(|not\(|has\()[\w-]+"),
    re.compile(r"(?:^|[\s>+~(,])[a-zA-Z][\w-]*|::[\w-]+"),
)
# Selector spellings Lexbor does not read, as the reference page matches them: every element is
# defined and in the page's one language and direction, the scope is the root, and a pseudo-element
# counts as its element (hiding its first line is taken as hiding it whole: cautious).
_SELECTOR_REWRITES = (
    (re.compile(r":defined\b|:(?:lang|dir)\([^)]*\)", re.IGNORECASE), ""),
    (re.compile(r":scope\b", re.IGNORECASE), ":root"),
    (re.compile(r":-(?:webkit|moz)-any\(", re.IGNORECASE), ":is("),
    (re.compile(r"::?(?:first-line|first-letter|selection|marker)\b", re.IGNORECASE), ""),
)
# At-rules whose content never applies to the page as first shown.
# (`@starting-style` is not among them: Chromium draws a page's first frame with it.)
_INERT_AT_RULES = frozenset(("keyframes", "-webkit-keyframes", "page", "property"))
_HIDING_CONTENT = frozenset(("hidden",))
_POSITIONED = frozenset(("absolute", "fixed"))
_SHIFTED = frozenset(("relative",))  # sticky offsets are limits to scrolling, not shifts
# A browser's smallest font for a size relative to the parent's (Chromium's default setting);
# an absolute size, or a calculated zero, is drawn as given.
MIN_RELATIVE_FONT_PX = 6.0
_RELATIVE_FONT_UNITS = frozenset(("em", "ex", "ch", "cap", "ic", "lh"))
# Work units (see budget.py) of the selector matching: an element tested in C is a small fraction
# of one, an element matched (a Python object made, then cascaded) several.
_C_STEPS_PER_UNIT = 16
UNITS_PER_MATCH = 4
# `:has()` walks below every element it tests: taken as this many elements tested per element.
_HAS_SUBTREE = 32
_MASKS = ("mask", "mask-image", "-webkit-mask", "-webkit-mask-image", "-webkit-mask-box-image")


@dataclass(frozen=True)
class Computed:
    """What an element inherits and passes on, and whether it (with its content) is hidden."""

    hidden: bool = False
    invisible: bool = False  # visibility: hidden (a child may set it visible again)
    font_px: float = values.ROOT_FONT_PX
    scale: float = 1.0  # zoom and scaling of the element and its ancestors
    color: Rgba = colours.BLACK
    fill: Rgba | None = None  # -webkit-text-fill-color, over `color` when set
    backdrop: tuple[float, float, float] | None = _WHITE  # None: an image, colour unknown
    opacity: float = 1.0
    urls: tuple[str, ...] = ()
    custom: dict[str, list] = field(default_factory=dict, compare=False)

    @classmethod
    def initial(cls) -> Computed:
        return cls()

    @cached_property  # children without styles of their own share their parent's object
    def text_hidden(self) -> bool:
        """Whether the element's own text cannot be seen (a child may set its own size, colour
        or visibility, and is judged in turn)."""
        if self.hidden or self.invisible or self.font_px * self.scale < MIN_FONT_PX:
            return True
        if self.backdrop is None:
            return False  # over an image: its colours are unknown
        paint = self.fill or self.color
        shown = colours.blend((*paint[:3], paint[3] * self.opacity), self.backdrop)
        return colours.contrast(shown, self.backdrop) < MIN_CONTRAST

    def hide(self) -> Computed:
        return replace(self, hidden=True)


@dataclass(frozen=True)
class Declaration:
    """One declaration of a rule, read once: its name, value tokens, importance."""

    name: str
    value: list
    important: bool


@dataclass
class Sheet:
    """The page's style rules, matched: for each element (by Lexbor's node identity), the rules
    that apply to it with their rank, and every URL the sheets themselves fetch."""

    matched: dict[int, list[tuple[tuple, list[Declaration]]]] = field(default_factory=dict)
    urls: list[str] = field(default_factory=list)


def sheet_rules(tree, budget: Budget | None = None) -> Sheet:
    """Every style rule of the page's `<style>` sheets that applies on the reference screen, in
    source order, matched against the page's elements within `budget`."""
    budget = budget or Budget.unlimited()
    sheet = Sheet()
    elements = max(1, len(tree.css("*")))
    reader = _SheetReader(tree, sheet, budget, elements)
    for style in tree.css("style"):
        source = style.text(deep=True) or ""
        budget.spend(len(source), "reading a style sheet")
        reader.read(tinycss2.parse_stylesheet(source, True, True), [], None)
    return sheet


class _SheetReader:
    """Walks a sheet's rules, nested ones and layers included, matching each selector once."""

    def __init__(self, tree, sheet: Sheet, budget: Budget, elements: int) -> None:
        self.tree, self.sheet, self.budget, self.elements = tree, sheet, budget, elements
        self.layers: dict[str, int] = {}
        self.order = 0

    def layer(self, name: str) -> int:
        return self.layers.setdefault(name, len(self.layers))

    def read(self, nodes: Sequence[Any], parents: list[str], layer: int | None) -> None:
        for node in nodes:
            if node.type == "qualified-rule":
                selectors = _nested(parents, tinycss2.serialize(node.prelude).strip(), self.budget)
                if not selectors:
                    continue
                contents = tinycss2.parse_blocks_contents(node.content, True, True)
                self.apply(selectors, contents, layer)
                self.read(contents, selectors, layer)
            elif node.type == "at-rule":
                self.at_rule(node, parents, layer)

    def at_rule(self, node, parents: list[str], layer: int | None) -> None:
        keyword = node.lower_at_keyword
        prelude = tinycss2.serialize(node.prelude).strip()
        if keyword == "import":
            self.sheet.urls.extend(_strings_and_urls(node.prelude))
        if keyword == "font-face" and node.content is not None:
            self.sheet.urls.extend(_strings_and_urls(node.content))
        if keyword == "layer":
            names = [n.strip() for n in prelude.split(",") if n.strip()]
            if node.content is None:
                for name in names:
                    self.layer(name)
                return
            layer = self.layer(names[0] if names else f"anonymous {self.order}")
            self.order += 1
        elif not _applies(keyword, prelude, node.content):
            return
        if node.content is None:
            return
        contents = tinycss2.parse_blocks_contents(node.content, True, True)
        if parents:
            self.apply(parents, contents, layer)  # declarations straight inside a nested at-rule
        self.read(contents, parents, layer)

    def apply(self, selectors: list[str], contents: Sequence[Any], layer: int | None) -> None:
        declarations = [
            Declaration(
                d.lower_name if not d.name.startswith("--") else d.name, d.value, d.important
            )
            for d in contents
            if d.type == "declaration"
        ]
        if not declarations:
            return
        matched_sets = []
        for selector in selectors:
            # Lexbor walks every element per compound of the selector in C (cheap), and `:has()`
            # walks each one's subtree again; each element it returns is a Python object (dear).
            compounds = 1 + len(selector) // 8
            cost = self.elements * compounds // _C_STEPS_PER_UNIT
            if ":has(" in selector.lower():
                cost *= _HAS_SUBTREE
            self.budget.spend(cost, "matching CSS selectors")
            try:
                matched = self.tree.css(selector)
            except Exception:
                return  # one selector a browser cannot read drops the whole rule, as in a browser
            self.budget.spend(UNITS_PER_MATCH * len(matched), "matching CSS selectors")
            matched_sets.append((selector, matched))
        for selector, matched in matched_sets:
            rank = (layer, _specificity(selector), self.order)
            self.budget.spend(len(matched) * len(declarations), "cascading CSS")
            for element in matched:
                self.sheet.matched.setdefault(element.mem_id, []).append((rank, declarations))
        self.order += 1


def _nested(parents: list[str], prelude: str, budget: Budget) -> list[str]:
    """A rule's selectors, each made whole against each of its parent rule's (CSS nesting; the
    pairs are spelled out, as Lexbor misreads `:is()` before a combinator). Their text is paid
    for before it is made: nested lists multiply at every level."""
    own = [_rewritten(part.strip()) for part in prelude.split(",") if part.strip()]
    if not parents:
        return own
    longest = max(map(len, parents)) + max(map(len, own), default=0)
    budget.spend(len(parents) * len(own) * longest, "nesting CSS rules")
    return [
        part.replace("&", parent) if "&" in part else f"{parent} {part}"
        for parent in parents
        for part in own
    ]


def _rewritten(selector: str) -> str:
    for pattern, replacement in _SELECTOR_REWRITES:
        selector = pattern.sub(replacement, selector)
    return selector or "*"


def _specificity(selector: str) -> tuple[int, int, int]:
    ids, classes, types = (len(pattern.findall(selector)) for pattern in _SPECIFICITY)
    return ids, classes, types


def _applies(keyword: str, prelude: str, content) -> bool:
    """Whether a conditional or grouping at-rule's content applies to the page as first shown."""
    if keyword in _INERT_AT_RULES or content is None:
        return False
    if keyword == "media":
        return _media_applies(prelude)
    return not (keyword == "supports" and prelude.lower().startswith("not"))


_MEDIA_FEATURE = re.compile(r"\(\s*([a-z-]+)\s*(?::\s*([^)]*)|([<>]=?|=)\s*([^)]*))?\)")


def _media_applies(prelude: str) -> bool:
    """Whether a media query list holds on the reference screen (a screen, light, wide)."""
    return any(_query_applies(query.strip().lower()) for query in prelude.split(","))


def _query_applies(query: str) -> bool:
    negated = query.startswith("not ")
    query = query.removeprefix("not ").removeprefix("only ").strip()
    kind = query.split("(", 1)[0].replace("and", " ").strip()
    holds = kind in ("", "all", "screen")
    for name, value, operator, compared in _MEDIA_FEATURE.findall(query):
        holds = holds and _feature_holds(name, value or compared, operator)
    return holds != negated


def _feature_holds(name: str, value: str, operator: str) -> bool:
    if name == "prefers-color-scheme":
        return value.strip() != "dark"
    if name in ("orientation",):
        return value.strip() == "landscape"
    axis = name.removeprefix("min-").removeprefix("max-")
    if axis not in ("width", "height", "device-width", "device-height"):
        return True  # a feature not evaluated here is taken to hold (the rule applies: cautious)
    size = values.VIEW_HEIGHT if "height" in axis else values.VIEW_WIDTH
    tokens = tinycss2.parse_component_value_list(value)
    length = values.length(tokens, Context())
    if length is None or length is UNKNOWN:
        return True
    limit: float = length  # type: ignore[assignment]
    if name.startswith("min-") or operator == ">=":
        return size >= limit
    if name.startswith("max-") or operator == "<=":
        return size <= limit
    return {">": size > limit, "<": size < limit}.get(operator, size == limit)


def compute(node, parent: Computed, sheet: Sheet, budget: Budget | None = None) -> Computed:
    """The element's computed visibility, from its matched rules, style attribute and
    presentation attributes, inheriting from `parent`."""
    props = _cascade(node, sheet)
    if not props:
        return inherited(parent)
    return from_properties(node, parent, props, budget)


def inherited(parent: Computed) -> Computed:
    """What `from_properties` computes for an element without properties of its own: its
    parent's style, without the parent's URLs (most elements; it shares the parent's object)."""
    # Nothing can hide it that does not already hide the parent: a parent that is not hidden
    # has an opacity above the minimum (or it would be hidden).
    return replace(parent, urls=()) if parent.urls else parent


def _cascade(node, sheet: Sheet) -> dict[str, list]:
    """property -> value tokens: matched rules by (important, layer, specificity, order), the
    style attribute above every rule, presentation attributes below everything."""
    ranked: dict[str, tuple[tuple, list]] = {}

    def offer(key: tuple, declaration: Declaration) -> None:
        name = declaration.name
        if name not in ranked or key >= ranked[name][0]:
            ranked[name] = (key, declaration.value)

    attributes = node.attributes
    for name in ("fill", "opacity", "fill-opacity", "visibility", "display", "font-size", "color"):
        value = attributes.get(name)
        if value and (node.tag != "font" or name == "color"):
            ranked[name] = ((False, -1, 0, (0, 0, 0), 0), _tokens(value))
    if attributes.get("bgcolor"):
        ranked["background-color"] = ((False, -1, 0, (0, 0, 0), 0), _tokens(attributes["bgcolor"]))
    # Unlayered rules beat layered ones, a later layer an earlier one; !important reverses both.
    for (layer, specificity, order), declarations in sheet.matched.get(node.mem_id, ()):
        for declaration in declarations:
            place = (1 << 30) if layer is None else layer
            place = -place if declaration.important else place
            offer((declaration.important, 0, place, specificity, order), declaration)
    style = attributes.get("style")
    if style:
        for item in tinycss2.parse_blocks_contents(style, True, True):
            if item.type == "declaration":
                name = item.name if item.name.startswith("--") else item.lower_name
                offer(
                    (item.important, 1, 0, (0, 0, 0), 0),
                    Declaration(name, item.value, item.important),
                )
    return {name: value for name, (_, value) in ranked.items()}


def _tokens(value: str) -> list:
    return tinycss2.parse_component_value_list(value)


def from_properties(
    node, parent: Computed, props: dict[str, list], budget: Budget | None = None
) -> Computed:
    """The element's computed visibility from its cascaded `props`, inheriting from `parent`."""
    custom = parent.custom
    own_custom = {name: value for name, value in props.items() if name.startswith("--")}
    if own_custom:
        custom = {**parent.custom, **own_custom}
    resolved = _Resolved(props, custom, budget)
    urls = tuple(resolved.urls())
    if parent.hidden:
        return replace(parent, urls=urls, custom=custom)
    hidden = _keyword(resolved["display"]) == "none"
    hidden = hidden or _keyword(resolved["content-visibility"]) in _HIDING_CONTENT
    visibility = _keyword(resolved["visibility"])
    invisible = parent.invisible if not visibility else visibility in ("hidden", "collapse")
    font_px = _font_size(resolved, parent.font_px)
    context = Context(font_px=font_px, percent_of=values.OWN_SIZE_PX)
    scale = parent.scale * _zoom(resolved["zoom"]) * _scaling(resolved, context)
    opacity = parent.opacity * _fraction(resolved["opacity"]) * _filter_opacity(resolved["filter"])
    if node.tag in ("text", "tspan"):
        opacity *= _fraction(resolved["fill-opacity"])
    color = parent.color
    text_colour = resolved["fill"] if node.tag in ("text", "tspan", "textpath") else None
    text_colour = text_colour or resolved["color"]
    if text_colour:
        color = _paint(text_colour, parent.color) or color
    fill = parent.fill
    text_fill = resolved["-webkit-text-fill-color"]
    if text_fill:
        fill = _paint(text_fill, color) or fill
    backdrop = _backdrop(resolved, color, parent.backdrop)
    hidden = (
        hidden
        or opacity < MIN_OPACITY
        or _masked(resolved)
        or _clipped(resolved, context)
        or _offscreen(resolved, Context(font_px=font_px, percent_of=values.VIEW_WIDTH))
    )
    return Computed(hidden, invisible, font_px, scale, color, fill, backdrop, opacity, urls, custom)


class _Resolved:
    """Cascaded values with `var()` substituted (None: unset, or invalid at computed time).

    Each custom property is substituted once per element, and every token substituted for the
    element counts against one cap and the field's budget: a chain of properties that each
    repeat the one before doubles at every link, and would otherwise take exponential time."""

    def __init__(self, props: dict[str, list], custom: dict[str, list], budget: Budget | None):
        self.props, self.custom, self.budget = props, custom, budget
        self.cache: dict[str, list | None] = {}
        self.variables: dict[str, list | None] = {}
        self.counter = [0]

    def __getitem__(self, name: str) -> list | None:
        if name not in self.cache:
            value = self.props.get(name)
            if value is not None and values.has_var(value):
                value = self._substituted(value, frozenset())
            self.cache[name] = value
        return self.cache[name]

    def _substituted(self, value: list, visiting: frozenset[str]) -> list | None:
        def lookup(name: str) -> list | None:
            if name in visiting or name not in self.custom:
                return None  # a cycle makes every property in it invalid, as in a browser
            if name not in self.variables:
                raw = self.custom[name]
                self.variables[name] = (
                    self._substituted(raw, visiting | {name}) if values.has_var(raw) else raw
                )
            return self.variables[name]

        before = self.counter[0]
        result = values.substitute(value, lookup, self.counter)
        if self.budget is not None:
            self.budget.spend(self.counter[0] - before, "substituting CSS variables")
        return result

    def urls(self) -> Iterator[str]:
        """Every URL the element's own properties fetch: `url()`, and the strings of
        `image-set()` (which are URLs there)."""
        for name in self.props:
            value = self[name]
            if value is not None:
                yield from _strings_and_urls(value, in_image_set=False)


def _strings_and_urls(tokens: Sequence[Any], in_image_set: bool = True) -> Iterator[str]:
    """URLs in tokens: `url()` values, and strings where a string is a URL (`image-set()`, or a
    rule's prelude or `src` when `in_image_set` is set from the start)."""
    stack: list[tuple[Sequence[Any], bool]] = [(tokens, in_image_set)]
    while stack:
        current, strings_are_urls = stack.pop()
        for token in current:
            if token.type == "url" or (token.type == "string" and strings_are_urls):
                yield token.value
            elif token.type == "function":
                name = token.lower_name
                if name == "url" or name == "src":
                    yield from (t.value for t in token.arguments if t.type == "string")
                else:
                    image_set = name.endswith("image-set")
                    stack.append((token.arguments, strings_are_urls or image_set))
            elif token.type in ("() block", "[] block", "{} block"):
                stack.append((token.content, strings_are_urls))


def _keyword(tokens: list | None) -> str:
    token = values.single(tokens) if tokens else None
    return token.lower_value if token is not None and token.type == "ident" else ""


def _font_size(resolved: _Resolved, inherited: float) -> float:
    tokens = resolved["font-size"]
    font = resolved["font"]
    if tokens is None and font is not None:
        tokens = _font_shorthand_size(font)
    if tokens is None:
        return inherited
    keyword = _keyword(tokens)
    if keyword in _KEYWORD_SIZES:
        return _KEYWORD_SIZES[keyword]
    size = values.length(tokens, Context(font_px=inherited, percent_of=inherited))
    if size is None:
        return inherited
    if size is UNKNOWN:
        return inherited
    token = values.single(tokens)
    relative = token is not None and (
        token.type == "percentage"
        or (token.type == "dimension" and token.lower_unit in _RELATIVE_FONT_UNITS)
    )
    if relative and size > 0:  # type: ignore[operator]
        return max(MIN_RELATIVE_FONT_PX, size)  # type: ignore[arg-type]
    return max(0.0, size)  # type: ignore[arg-type]


def _font_shorthand_size(tokens: list) -> list | None:
    """The size of a `font` shorthand: the first length, percentage or calculation in it."""
    for token in meaningful(tokens):
        if token.type in ("dimension", "percentage") or (
            token.type == "number" and token.value == 0
        ):
            return [token]
        if token.type == "function" and token.lower_name in ("calc", "min", "max", "clamp"):
            return [token]
        if token.type == "ident" and token.lower_value in _KEYWORD_SIZES:
            return [token]
    return None


def _fraction(tokens: list | None) -> float:
    if not tokens:
        return 1.0
    value = values.number_or_percent(tokens)
    if value is None or value is UNKNOWN:
        return 1.0
    return max(0.0, min(1.0, value))  # type: ignore[type-var]


def _zoom(tokens: list | None) -> float:
    if not tokens:
        return 1.0
    value = values.number_or_percent(tokens)
    if value is None or value is UNKNOWN or value == 0:  # zoom: 0 is read as 1 by browsers
        return 1.0
    return abs(value)  # type: ignore[arg-type]


def _filter_opacity(tokens: list | None) -> float:
    result = 1.0
    for token in meaningful(tokens or []):
        if token.type == "function" and token.lower_name == "opacity":
            result *= _fraction(token.arguments) if meaningful(token.arguments) else 0.0
    return result


def _numbers(arguments: list, context: Context) -> list[float | None]:
    out: list[float | None] = []
    for part in split_commas(arguments):
        for token in meaningful(part):
            value = values.quantity(token, context)
            out.append(None if value is None or value is UNKNOWN else value[0])  # type: ignore[index]
    return out


def _scaling(resolved: _Resolved, context: Context) -> float:
    """How much `transform` and `scale` shrink the element: the smaller axis' factor."""
    factor = 1.0
    scale = resolved["scale"]
    if scale:
        numbers = [values.number_of(t) for t in meaningful(scale)]
        known = [abs(n) for n in numbers if isinstance(n, float)]
        if known:
            factor *= min(known)
    for token in meaningful(resolved["transform"] or []):
        if token.type != "function":
            continue
        name, numbers = token.lower_name, _numbers(token.arguments, context)
        known = [n for n in numbers if n is not None]
        if name in ("scale", "scalex", "scaley", "scale3d") and known:
            factor *= min(abs(n) for n in known[:2])
        elif name == "matrix" and len(known) == 6:
            a, b, c, d = known[:4]
            factor *= abs(a * d - b * c) ** 0.5
    return factor


def _paint(tokens: list, current: Rgba) -> Rgba | None:
    token = values.single(tokens)
    if token is None:
        return None
    if token.type == "ident" and token.lower_value == "none":
        return (*current[:3], 0.0)
    colour = colours.parse(token, current)
    return None if colour is None or colour is UNKNOWN else colour  # type: ignore[return-value]


def _backdrop(
    resolved: _Resolved, color: Rgba, behind: tuple[float, float, float] | None
) -> tuple[float, float, float] | None:
    for name in ("background-color", "background"):
        tokens = resolved[name]
        if not tokens:
            continue
        if any(
            t.type == "url"
            or (
                t.type == "function"
                and ("gradient" in t.lower_name or "image" in t.lower_name or t.lower_name == "url")
            )
            for t in meaningful(tokens)
        ):
            return None  # an image: its colours are unknown
        colour = colours.first(tokens, color)
        if colour is UNKNOWN:
            return None
        if colour is not None and behind is not None:
            return colours.blend(colour, behind)  # type: ignore[arg-type]
    return behind


def _masked(resolved: _Resolved) -> bool:
    """Masked by an image: what it lets through is unknown (and nothing, when it fails to load)."""
    for name in _MASKS:
        for token in meaningful(resolved[name] or []):
            if token.type == "url" or (token.type == "function" and token.lower_name != "var"):
                return True
    return False


def _length(tokens: list | None, context: Context) -> float | None:
    if not tokens:
        return None
    value = values.length(tokens, context)
    return None if value is None or value is UNKNOWN else value  # type: ignore[return-value]


def _clipped(resolved: _Resolved, context: Context) -> bool:
    """Clipped or scaled to nothing: a zero box that hides overflow, clip, clip-path, scale(0)."""
    overflow = {t.lower_value for t in meaningful(resolved["overflow"] or []) if t.type == "ident"}
    if overflow & {"hidden", "clip"}:
        for name in ("width", "height", "max-width", "max-height"):
            size = _length(resolved[name], context)
            if size is not None and size <= 1:
                return True
    clip = values.single(resolved["clip"] or [])
    if clip is not None and clip.type == "function" and clip.lower_name == "rect":
        sizes = _numbers([t for t in clip.arguments if t.type != "ident"], context)
        known = [s for s in sizes if s is not None]
        # rect(top, right, bottom, left): nothing left between top and bottom or left and right
        if len(known) == 4 and (known[2] - known[0] <= 1 or known[1] - known[3] <= 1):
            return True
    clip_path = values.single(resolved["clip-path"] or [])
    if (
        clip_path is not None
        and clip_path.type == "function"
        and _clip_path_empty(clip_path, context)
    ):
        return True
    return _scaling(resolved, context) < 0.05


def _clip_path_empty(shape, context: Context) -> bool:
    name = shape.lower_name
    if name == "inset":
        parts = _numbers(
            [t for t in shape.arguments if t.type != "ident"], Context(percent_of=100.0)
        )
        known = [p for p in parts if p is not None]
        return bool(known) and known[0] >= 50
    if name in ("circle", "ellipse"):
        first = next((t for t in meaningful(shape.arguments)), None)
        size = None if first is None else values.length_of(first, context)
        return isinstance(size, float) and size <= 0
    if name == "polygon":
        points = []
        for part in split_commas(shape.arguments):
            numbers = [values.length_of(t, Context(percent_of=100.0)) for t in meaningful(part)]
            if len(numbers) == 2 and all(isinstance(n, float) for n in numbers):
                points.append(numbers)
        if len(points) < 3:
            return True
        area = sum(
            a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1], strict=True)
        )
        return abs(area) / 2 < 1
    return False


def _box(tokens: list | None, context: Context) -> list[float | None]:
    """A 1-4 value box shorthand (`inset`, `margin`) as top, right, bottom, left."""
    parts = [values.length_of(t, context) for t in meaningful(tokens or [])]
    known = [p if isinstance(p, float) else None for p in parts]
    if not known:
        return [None] * 4
    while len(known) < 4:
        known.append(known[{1: 0, 2: 0, 3: 1}[len(known)]])
    return known[:4]


def _offscreen(resolved: _Resolved, context: Context) -> bool:
    """Moved off the page: positioned, shifted, pushed by a margin or indent, or translated."""
    top, right, bottom, left = _box(resolved["inset"], context)

    def side(name: str, logical: str, fallback: float | None) -> float | None:
        value = _length(resolved[name], context)
        value = _length(resolved[logical], context) if value is None else value
        return fallback if value is None else value

    top = side("top", "inset-block-start", top)
    bottom = side("bottom", "inset-block-end", bottom)
    left = side("left", "inset-inline-start", left)
    right = side("right", "inset-inline-end", right)
    position = _keyword(resolved["position"])
    width, height = values.VIEW_WIDTH, values.VIEW_HEIGHT
    if position in _POSITIONED:
        if left is not None and (left <= OFFSCREEN_PX or left >= width):
            return True
        if left is None and right is not None and (right <= OFFSCREEN_PX or right >= width):
            return True
        if top is not None and (top <= OFFSCREEN_PX or (position == "fixed" and top >= height)):
            return True
        below = position == "fixed" and bottom is not None and bottom <= OFFSCREEN_PX
        if top is None and bottom is not None and (bottom >= height or below):
            return True
    elif position in _SHIFTED:
        dx = left if left is not None else (-right if right is not None else 0.0)
        dy = top if top is not None else (-bottom if bottom is not None else 0.0)
        if dx <= OFFSCREEN_PX or dx >= width or dy <= OFFSCREEN_PX:
            return True
    margins = _box(resolved["margin"], context)
    for name, logical, index in (
        ("margin-left", "margin-inline-start", 3),
        ("margin-top", "margin-block-start", 0),
    ):
        margin = side(name, logical, margins[index])
        if margin is not None and margin <= OFFSCREEN_PX:
            return True
    indent = _length(resolved["text-indent"], context)
    if indent is not None and indent <= OFFSCREEN_PX:
        return True
    dx, dy = _translation(resolved, Context(font_px=context.font_px, percent_of=values.OWN_SIZE_PX))
    return dx <= OFFSCREEN_PX or dx >= width or dy <= OFFSCREEN_PX


def _translation(resolved: _Resolved, context: Context) -> tuple[float, float]:
    dx = dy = 0.0
    translate = [values.length_of(t, context) for t in meaningful(resolved["translate"] or [])]
    if translate and isinstance(translate[0], float):
        dx += translate[0]
    if len(translate) > 1 and isinstance(translate[1], float):
        dy += translate[1]
    for token in meaningful(resolved["transform"] or []):
        if token.type != "function":
            continue
        name, numbers = token.lower_name, _numbers(token.arguments, context)
        if (
            name in ("translate", "translate3d", "translatex")
            and numbers
            and numbers[0] is not None
        ):
            dx += numbers[0]
        if name in ("translate", "translate3d") and len(numbers) > 1 and numbers[1] is not None:
            dy += numbers[1]
        if name == "translatey" and numbers and numbers[0] is not None:
            dy += numbers[0]
        if name == "matrix" and len(numbers) == 6 and None not in numbers:
            dx += numbers[4]  # type: ignore[operator]
            dy += numbers[5]  # type: ignore[operator]
    return dx, dy
