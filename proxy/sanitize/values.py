"""CSS values as a browser computes them: `var()` substituted, `calc()` and its kin evaluated,
lengths in pixels against a reference screen.

The reference screen is the one the browser oracle of the tests renders on (1280 by 800 CSS
pixels, 16-pixel text): percentages of the viewport, `vw`, `vh`, `em` and `rem` mean what they mean
there. A value is either a number, or UNKNOWN when it is valid CSS this module does not evaluate
(trigonometry, a container's size): what reads it then assumes the worst for the reader.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tinycss2 import ast

VIEW_WIDTH = 1280.0
VIEW_HEIGHT = 800.0
ROOT_FONT_PX = 16.0
# What one element's own size is taken to be where a percentage of it is asked (a translation).
OWN_SIZE_PX = 100.0
# A custom property's value, with every var() in it substituted, may hold this many tokens: a
# chain of properties that each repeat the one before grows exponentially (Chromium caps it too).
MAX_SUBSTITUTED_TOKENS = 8192

_ABSOLUTE = {
    "px": 1.0,
    "pt": 4 / 3,
    "pc": 16.0,
    "in": 96.0,
    "cm": 96 / 2.54,
    "mm": 96 / 25.4,
    "q": 96 / 101.6,
}
_FONT_RELATIVE = {"em": 1.0, "ex": 0.5, "ch": 0.5, "cap": 0.7, "ic": 1.0, "lh": 1.2}
_ROOT_RELATIVE = {"rem": 1.0, "rex": 0.5, "rch": 0.5, "rcap": 0.7, "ric": 1.0, "rlh": 1.2}
_VIEWPORT = {
    **{prefix + "vw": VIEW_WIDTH / 100 for prefix in ("", "s", "l", "d")},
    **{prefix + "vh": VIEW_HEIGHT / 100 for prefix in ("", "s", "l", "d")},
    **{prefix + "vi": VIEW_WIDTH / 100 for prefix in ("", "s", "l", "d")},
    **{prefix + "vb": VIEW_HEIGHT / 100 for prefix in ("", "s", "l", "d")},
    **{prefix + "vmin": VIEW_HEIGHT / 100 for prefix in ("", "s", "l", "d")},
    **{prefix + "vmax": VIEW_WIDTH / 100 for prefix in ("", "s", "l", "d")},
    # A container's size is not known: the viewport's stands in for it.
    "cqw": VIEW_WIDTH / 100,
    "cqh": VIEW_HEIGHT / 100,
    "cqi": VIEW_WIDTH / 100,
    "cqb": VIEW_HEIGHT / 100,
    "cqmin": VIEW_HEIGHT / 100,
    "cqmax": VIEW_WIDTH / 100,
}
_ANGLE = {"deg": 1.0, "rad": 180 / math.pi, "grad": 0.9, "turn": 360.0}
_CONSTANTS = {"pi": math.pi, "e": math.e, "infinity": math.inf, "-infinity": -math.inf}
_MATH = frozenset(("calc", "-webkit-calc", "min", "max", "clamp", "abs", "sign", "round"))


class Unknown:
    """Valid CSS whose value is not evaluated here."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = Unknown()


class SubstitutionTooLarge(ValueError):
    """A custom property grew past MAX_SUBSTITUTED_TOKENS as its var() references were substituted."""


@dataclass(frozen=True)
class Context:
    """What relative units are measured against for one element."""

    font_px: float = ROOT_FONT_PX
    root_font_px: float = ROOT_FONT_PX
    percent_of: float | None = None  # what 100% is, in pixels (None: a percentage is no length)


def meaningful(tokens: Iterable[Any]) -> list[Any]:
    """The tokens without whitespace and comments."""
    return [t for t in tokens if t.type not in ("whitespace", "comment")]


def split_commas(tokens: Sequence[Any]) -> list[list[Any]]:
    """Top-level comma-separated parts (each still with its whitespace)."""
    parts: list[list[Any]] = [[]]
    for token in tokens:
        if token.type == "literal" and token.value == ",":
            parts.append([])
        else:
            parts[-1].append(token)
    return parts


# --- var() ---------------------------------------------------------------------------------------


def has_var(tokens: Sequence[Any]) -> bool:
    """Whether a var() appears anywhere in the tokens (nested functions and blocks included)."""
    stack = [tokens]
    while stack:
        for token in stack.pop():
            if token.type == "function":
                if token.lower_name == "var":
                    return True
                stack.append(token.arguments)
            elif token.type in ("() block", "[] block", "{} block"):
                stack.append(token.content)
    return False


def substitute(tokens: Sequence[Any], lookup, counter: list[int] | None = None) -> list[Any] | None:
    """The tokens with each var() replaced by `lookup(name)` (resolved tokens, or None when the
    property is unset or invalid) or by its fallback; None when a reference cannot be resolved
    (the declaration is then invalid at computed-value time, as in a browser)."""
    counter = counter if counter is not None else [0]
    out: list[Any] = []
    for token in tokens:
        if token.type == "function" and token.lower_name == "var":
            replaced = _var(token, lookup, counter)
            if replaced is None:
                return None
            out.extend(replaced)
            counter[0] += len(replaced)  # a remembered value is no cheaper to copy
        elif token.type == "function" and has_var(token.arguments):
            arguments = substitute(token.arguments, lookup, counter)
            if arguments is None:
                return None
            out.append(
                ast.FunctionBlock(token.source_line, token.source_column, token.name, arguments)
            )
        elif token.type == "() block" and has_var(token.content):
            content = substitute(token.content, lookup, counter)
            if content is None:
                return None
            out.append(ast.ParenthesesBlock(token.source_line, token.source_column, content))
        else:
            out.append(token)
        counter[0] += 1
        if counter[0] > MAX_SUBSTITUTED_TOKENS:
            raise SubstitutionTooLarge("a custom property's substituted value is too large")
    return out


def _var(token, lookup, counter: list[int]) -> list[Any] | None:
    parts = split_commas(token.arguments)
    name_tokens = meaningful(parts[0])
    if len(name_tokens) != 1 or name_tokens[0].type != "ident":
        return None
    value = lookup(name_tokens[0].value)
    if value is not None:
        return value
    if len(parts) == 1:
        return None
    fallback = [t for part in _rejoin(parts[1:]) for t in part]
    return substitute(fallback, lookup, counter)


def _rejoin(parts: list[list[Any]]) -> list[list[Any]]:
    """A fallback keeps its own commas: the parts after the first, joined back with them."""
    comma = ast.LiteralToken(0, 0, ",")
    joined: list[list[Any]] = []
    for index, part in enumerate(parts):
        joined.append(part if index == 0 else [comma, *part])
    return joined


# --- numbers, lengths, angles --------------------------------------------------------------------

# A calculated value: a number with its kind ("number", "length" in px, "angle" in degrees,
# "percent" when a percentage could not be resolved against anything).
Quantity = tuple[float, str]


def quantity(token, context: Context) -> Quantity | Unknown | None:
    """One token's value with its kind; None when it is none of these."""
    kind = token.type
    if kind == "number":
        return float(token.value), "number"
    if kind == "percentage":
        if context.percent_of is None:
            return float(token.value), "percent"
        return float(token.value) * context.percent_of / 100, "length"
    if kind == "dimension":
        unit = token.lower_unit
        value = float(token.value)
        if unit in _ABSOLUTE:
            return value * _ABSOLUTE[unit], "length"
        if unit in _FONT_RELATIVE:
            return value * _FONT_RELATIVE[unit] * context.font_px, "length"
        if unit in _ROOT_RELATIVE:
            return value * _ROOT_RELATIVE[unit] * context.root_font_px, "length"
        if unit in _VIEWPORT:
            return value * _VIEWPORT[unit], "length"
        if unit in _ANGLE:
            return value * _ANGLE[unit], "angle"
        return None
    if kind == "function" and token.lower_name in _MATH:
        return _math_function(token, context)
    if kind == "function":
        return (
            UNKNOWN
            if token.lower_name
            in (
                "sin",
                "cos",
                "tan",
                "pow",
                "sqrt",
                "hypot",
                "log",
                "exp",
                "mod",
                "rem",
                "asin",
                "acos",
                "atan",
                "atan2",
                "anchor",
                "anchor-size",
                "env",
                "attr",
                "sibling-index",
                "sibling-count",
                "progress",
            )
            else None
        )
    return None


def _math_function(token, context: Context) -> Quantity | Unknown | None:
    name = token.lower_name
    if name in ("calc", "-webkit-calc"):
        return _sum(meaningful_keep_ops(token.arguments), context)
    parts = [meaningful_keep_ops(part) for part in split_commas(token.arguments)]
    values = [_sum(part, context) for part in parts]
    if any(value is None for value in values):
        return None
    if any(value is UNKNOWN for value in values):
        return UNKNOWN
    numbers: list[Quantity] = values  # type: ignore[assignment]
    kinds = {kind for _, kind in numbers}
    if name in ("abs", "sign"):
        if len(numbers) != 1:
            return None
        value, kind = numbers[0]
        return (
            (abs(value), kind)
            if name == "abs"
            else (math.copysign(1.0, value) if value else 0.0, "number")
        )
    if name == "round":
        return numbers[-2] if len(numbers) >= 2 else (numbers[0] if numbers else None)
    if len(kinds) != 1 or not numbers:
        return None
    kind = kinds.pop()
    if name == "min":
        return min(v for v, _ in numbers), kind
    if name == "max":
        return max(v for v, _ in numbers), kind
    if len(numbers) != 3:
        return None
    low, value, high = (v for v, _ in numbers)
    return max(low, min(value, high)), kind


def meaningful_keep_ops(tokens: Sequence[Any]) -> list[Any]:
    """Tokens of a calculation: whitespace dropped (it only separated the operators)."""
    return [t for t in tokens if t.type not in ("whitespace", "comment")]


def _sum(tokens: list[Any], context: Context) -> Quantity | Unknown | None:
    """A calc-sum: products joined by + and -."""
    terms: list[tuple[str, list[Any]]] = [("+", [])]
    for token in tokens:
        if token.type == "literal" and token.value in ("+", "-") and terms[-1][1]:
            terms.append((token.value, []))
        else:
            terms[-1][1].append(token)
    total: Quantity | None = None
    unknown = False
    for sign, term in terms:
        value = _product(term, context)
        if value is None:
            return None
        if value is UNKNOWN:
            unknown = True
            continue
        number, kind = value  # type: ignore[misc]
        number = -number if sign == "-" else number
        if total is None:
            total = (number, kind)
        elif total[1] != kind and not (number == 0 or total[0] == 0):
            return None
        else:
            total = (total[0] + number, kind if total[0] == 0 else total[1])
    if unknown:
        return UNKNOWN
    return total


def _product(tokens: list[Any], context: Context) -> Quantity | Unknown | None:
    if not tokens:
        return None
    value = _operand(tokens[0], context)
    index = 1
    while index < len(tokens):
        operator = tokens[index]
        if (
            operator.type != "literal"
            or operator.value not in ("*", "/")
            or index + 1 >= len(tokens)
        ):
            return None
        other = _operand(tokens[index + 1], context)
        if value is None or other is None:
            return None
        if value is UNKNOWN or other is UNKNOWN:
            value = UNKNOWN
        else:
            (a, a_kind), (b, b_kind) = value, other  # type: ignore[misc]
            if operator.value == "*":
                if a_kind != "number" and b_kind != "number":
                    return None
                value = (a * b, a_kind if b_kind == "number" else b_kind)
            else:
                if b_kind != "number":
                    return None
                value = (a / b if b else math.copysign(math.inf, a or 1.0), a_kind)
        index += 2
    return value


def _operand(token, context: Context) -> Quantity | Unknown | None:
    if token.type == "() block":
        return _sum(meaningful_keep_ops(token.content), context)
    if token.type == "ident" and token.lower_value in _CONSTANTS:
        return _CONSTANTS[token.lower_value], "number"
    return quantity(token, context)


def single(tokens: Sequence[Any]) -> Any | None:
    """The one meaningful token of a value, or None."""
    kept = meaningful(tokens)
    return kept[0] if len(kept) == 1 else None


def length(tokens: Sequence[Any], context: Context) -> float | Unknown | None:
    """A one-token length in pixels (a bare 0 or any number counts, as in quirks mode); None when
    the value is no length (a keyword such as `auto`)."""
    token = single(tokens)
    return None if token is None else length_of(token, context)


def length_of(token, context: Context) -> float | Unknown | None:
    value = quantity(token, context)
    if value is None or value is UNKNOWN:
        return value  # type: ignore[return-value]
    number, kind = value  # type: ignore[misc]
    if kind in ("length", "number"):
        return number
    return None


def number_or_percent(tokens: Sequence[Any]) -> float | Unknown | None:
    """A number, a percentage as a fraction (opacity: 50% is 0.5), or None."""
    token = single(tokens)
    if token is None:
        return None
    return number_of(token)


def number_of(token) -> float | Unknown | None:
    value = quantity(token, Context(percent_of=None))
    if value is None or value is UNKNOWN:
        return value  # type: ignore[return-value]
    number, kind = value  # type: ignore[misc]
    if kind == "number":
        return number
    if kind == "percent":
        return number / 100
    return None


def angle_of(token) -> float | Unknown | None:
    """An angle in degrees (a bare number counts as degrees, as hues take it)."""
    value = quantity(token, Context())
    if value is None or value is UNKNOWN:
        return value  # type: ignore[return-value]
    number, kind = value  # type: ignore[misc]
    return number if kind in ("angle", "number") else None
