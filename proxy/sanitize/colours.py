"""CSS colours as a browser reads them, CSS Color 4 and 5 included: `color()` spaces, Lab, LCH,
OKLab, OKLCH, HWB, `color-mix()`, relative colours (`rgb(from white r g b)`), `light-dark()`,
system colours and `calc()` in channels. Every colour comes out as sRGB with alpha, clipped to the
screen's gamut, which is what the contrast test needs.

The conversion matrices are those the CSS Color 4 specification publishes; only the forward ones
are written here, the inverses are computed from them.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Callable, Sequence
from typing import Any

from tinycss2 import ast
from tinycss2.color3 import parse_color as parse_basic

from .values import UNKNOWN, Context, Unknown, angle_of, meaningful, quantity, split_commas

Rgba = tuple[float, float, float, float]
Matrix = tuple[tuple[float, float, float], ...]

BLACK: Rgba = (0.0, 0.0, 0.0, 1.0)
WHITE: Rgba = (1.0, 1.0, 1.0, 1.0)

_SRGB_TO_XYZ: Matrix = (
    (0.41239079926595934, 0.357584339383878, 0.1804807884018343),
    (0.21263900587151027, 0.715168678767756, 0.07219231536073371),
    (0.01933081871559182, 0.11919477979462598, 0.9505321522496607),
)
_P3_TO_XYZ: Matrix = (
    (0.4865709486482162, 0.26566769316909306, 0.1982172852343625),
    (0.2289745640697488, 0.6917385218365064, 0.079286914093745),
    (0.0, 0.04511338185890264, 1.043944368900976),
)
_REC2020_TO_XYZ: Matrix = (
    (0.6369580483012914, 0.14461690358620832, 0.1688809751641721),
    (0.2627002120112671, 0.6779980715188708, 0.05930171646986196),
    (0.0, 0.028072693049087428, 1.060985057710791),
)
_A98_TO_XYZ: Matrix = (
    (0.5766690429101305, 0.1855582379065463, 0.1882286462349947),
    (0.29734497525053605, 0.6273635662554661, 0.0752914584939978),
    (0.02703136138641234, 0.07068885253582723, 0.9913375368376388),
)
_PROPHOTO_TO_XYZ_D50: Matrix = (
    (0.7977666449006423, 0.13518129740053308, 0.0313477341283922),
    (0.2880748288194013, 0.711835234241873, 0.00008993693872564),
    (0.0, 0.0, 0.8251046025104602),
)
_D50_TO_D65: Matrix = (
    (0.955473421488075, -0.02309845494876471, 0.06325924320057072),
    (-0.0283697093338637, 1.0099953980813041, 0.021041441191917323),
    (0.012314014864481998, -0.020507649298898964, 1.330365926242124),
)
_OKLAB_TO_LMS: Matrix = (
    (1.0, 0.3963377773761749, 0.2158037573099136),
    (1.0, -0.1055613458156586, -0.0638541728258133),
    (1.0, -0.0894841775298119, -1.2914855480194092),
)
_LMS_TO_XYZ: Matrix = (
    (1.2268798758459243, -0.5578149944602171, 0.2812561489664678),
    (-0.0405757452148008, 1.1122868032803170, -0.0717110580655164),
    (-0.0763729366746601, -0.4214933324022432, 1.5869240198367816),
)
_D50_WHITE = (0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585)
_KAPPA = 24389 / 27
_EPSILON = 216 / 24389


def _times(matrix: Matrix, vector: Sequence[float]) -> tuple[float, float, float]:
    a, b, c = vector
    return (
        matrix[0][0] * a + matrix[0][1] * b + matrix[0][2] * c,
        matrix[1][0] * a + matrix[1][1] * b + matrix[1][2] * c,
        matrix[2][0] * a + matrix[2][1] * b + matrix[2][2] * c,
    )


def _product(a: Matrix, b: Matrix) -> Matrix:
    columns = [_times(a, column) for column in zip(*b, strict=True)]
    return tuple(zip(*columns, strict=True))  # type: ignore[return-value]


def _inverse(m: Matrix) -> Matrix:
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return (
        ((e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det),
        ((f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det),
        ((d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det),
    )


def _srgb_decode(v: float) -> float:
    return math.copysign(((abs(v) + 0.055) / 1.055) ** 2.4, v) if abs(v) > 0.04045 else v / 12.92


def _srgb_encode(v: float) -> float:
    if abs(v) > 0.0031308:
        return math.copysign(1.055 * abs(v) ** (1 / 2.4) - 0.055, v)
    return 12.92 * v


_REC_ALPHA, _REC_BETA = 1.09929682680944, 0.018053968510807


def _rec2020_decode(v: float) -> float:
    if abs(v) < _REC_BETA * 4.5:
        return v / 4.5
    return math.copysign(((abs(v) + _REC_ALPHA - 1) / _REC_ALPHA) ** (1 / 0.45), v)


def _rec2020_encode(v: float) -> float:
    if abs(v) < _REC_BETA:
        return v * 4.5
    return math.copysign(_REC_ALPHA * abs(v) ** 0.45 - (_REC_ALPHA - 1), v)


def _prophoto_decode(v: float) -> float:
    return v / 16 if abs(v) <= 16 / 512 else math.copysign(abs(v) ** 1.8, v)


def _prophoto_encode(v: float) -> float:
    return v * 16 if abs(v) < 1 / 512 else math.copysign(abs(v) ** (1 / 1.8), v)


def _identity(v: float) -> float:
    return v


def _power(exponent: float) -> Callable[[float], float]:
    return lambda v: math.copysign(abs(v) ** exponent, v)


# RGB-like spaces: (transfer to linear, transfer from linear, linear to XYZ-D65).
_D65 = _inverse(_D50_TO_D65)
_RGB_SPACES: dict[str, tuple[Callable[[float], float], Callable[[float], float], Matrix]] = {
    "srgb": (_srgb_decode, _srgb_encode, _SRGB_TO_XYZ),
    "srgb-linear": (_identity, _identity, _SRGB_TO_XYZ),
    "display-p3": (_srgb_decode, _srgb_encode, _P3_TO_XYZ),
    "rec2020": (_rec2020_decode, _rec2020_encode, _REC2020_TO_XYZ),
    "a98-rgb": (_power(563 / 256), _power(256 / 563), _A98_TO_XYZ),
    "prophoto-rgb": (
        _prophoto_decode,
        _prophoto_encode,
        _product(_D50_TO_D65, _PROPHOTO_TO_XYZ_D50),
    ),
}
_FROM_XYZ = {name: _inverse(matrix) for name, (_, _, matrix) in _RGB_SPACES.items()}
_XYZ_TO_LMS = _inverse(_LMS_TO_XYZ)
_LMS_TO_OKLAB = _inverse(_OKLAB_TO_LMS)


def _lab_to_xyz(lab: Sequence[float]) -> tuple[float, float, float]:
    lightness, a, b = lab
    f1 = (lightness + 16) / 116
    f0 = a / 500 + f1
    f2 = f1 - b / 200
    x = f0**3 if f0**3 > _EPSILON else (116 * f0 - 16) / _KAPPA
    y = ((lightness + 16) / 116) ** 3 if lightness > _KAPPA * _EPSILON else lightness / _KAPPA
    z = f2**3 if f2**3 > _EPSILON else (116 * f2 - 16) / _KAPPA
    d50 = (x * _D50_WHITE[0], y * _D50_WHITE[1], z * _D50_WHITE[2])
    return _times(_D50_TO_D65, d50)


def _xyz_to_lab(xyz: Sequence[float]) -> tuple[float, float, float]:
    d50 = _times(_D65, xyz)
    scaled = [value / white for value, white in zip(d50, _D50_WHITE, strict=True)]
    f = [v ** (1 / 3) if v > _EPSILON else (_KAPPA * v + 16) / 116 for v in scaled]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def _oklab_to_xyz(lab: Sequence[float]) -> tuple[float, float, float]:
    lms = _times(_OKLAB_TO_LMS, lab)
    return _times(_LMS_TO_XYZ, [v**3 for v in lms])


def _xyz_to_oklab(xyz: Sequence[float]) -> tuple[float, float, float]:
    lms = _times(_XYZ_TO_LMS, xyz)
    return _times(_LMS_TO_OKLAB, [math.copysign(abs(v) ** (1 / 3), v) for v in lms])


def _polar_to_rect(lch: Sequence[float]) -> tuple[float, float, float]:
    lightness, chroma, hue = lch
    return lightness, chroma * math.cos(math.radians(hue)), chroma * math.sin(math.radians(hue))


def _rect_to_polar(lab: Sequence[float]) -> tuple[float, float, float]:
    lightness, a, b = lab
    return lightness, math.hypot(a, b), math.degrees(math.atan2(b, a)) % 360


def _hsl_to_srgb(hsl: Sequence[float]) -> tuple[float, float, float]:
    hue, saturation, lightness = hsl
    return colorsys.hls_to_rgb((hue % 360) / 360, lightness / 100, saturation / 100)


def _srgb_to_hsl(rgb: Sequence[float]) -> tuple[float, float, float]:
    hue, lightness, saturation = colorsys.rgb_to_hls(*rgb)
    return hue * 360, saturation * 100, lightness * 100


def _hwb_to_srgb(hwb: Sequence[float]) -> tuple[float, float, float]:
    hue, white, black = hwb
    if white + black >= 100:
        gray = white / (white + black)
        return gray, gray, gray
    pure = colorsys.hls_to_rgb((hue % 360) / 360, 0.5, 1.0)
    return tuple(c * (100 - white - black) / 100 + white / 100 for c in pure)  # type: ignore[return-value]


def _srgb_to_hwb(rgb: Sequence[float]) -> tuple[float, float, float]:
    hue = _srgb_to_hsl(rgb)[0]
    return hue, min(rgb) * 100, (1 - max(rgb)) * 100


def to_xyz(space: str, coordinates: Sequence[float]) -> tuple[float, float, float]:
    """A colour's coordinates in `space` as XYZ (D65)."""
    if space in _RGB_SPACES:
        decode, _, matrix = _RGB_SPACES[space]
        return _times(matrix, [decode(c) for c in coordinates])
    if space in ("xyz", "xyz-d65"):
        return tuple(coordinates)  # type: ignore[return-value]
    if space == "xyz-d50":
        return _times(_D50_TO_D65, coordinates)
    if space == "lab":
        return _lab_to_xyz(coordinates)
    if space == "lch":
        return _lab_to_xyz(_polar_to_rect(coordinates))
    if space == "oklab":
        return _oklab_to_xyz(coordinates)
    if space == "oklch":
        return _oklab_to_xyz(_polar_to_rect(coordinates))
    if space == "hsl":
        return to_xyz("srgb", _hsl_to_srgb(coordinates))
    if space == "hwb":
        return to_xyz("srgb", _hwb_to_srgb(coordinates))
    raise ValueError(space)


def from_xyz(space: str, xyz: Sequence[float]) -> tuple[float, float, float]:
    """XYZ (D65) as coordinates in `space`."""
    if space in _RGB_SPACES:
        _, encode, _ = _RGB_SPACES[space]
        return tuple(encode(c) for c in _times(_FROM_XYZ[space], xyz))  # type: ignore[return-value]
    if space in ("xyz", "xyz-d65"):
        return tuple(xyz)  # type: ignore[return-value]
    if space == "xyz-d50":
        return _times(_D65, xyz)
    if space == "lab":
        return _xyz_to_lab(xyz)
    if space == "lch":
        return _rect_to_polar(_xyz_to_lab(xyz))
    if space == "oklab":
        return _xyz_to_oklab(xyz)
    if space == "oklch":
        return _rect_to_polar(_xyz_to_oklab(xyz))
    if space == "hsl":
        return _srgb_to_hsl(_clip(from_xyz("srgb", xyz)))
    if space == "hwb":
        return _srgb_to_hwb(_clip(from_xyz("srgb", xyz)))
    raise ValueError(space)


def _clip(rgb: Sequence[float]) -> tuple[float, float, float]:
    return tuple(min(1.0, max(0.0, c)) for c in rgb)  # type: ignore[return-value]


def _rgba(space: str, coordinates: Sequence[float], alpha: float) -> Rgba:
    red, green, blue = _clip(from_xyz("srgb", to_xyz(space, coordinates)))
    return red, green, blue, min(1.0, max(0.0, alpha))


# How each function's channels read a percentage (what 100% is) and which channel is a hue.
_CHANNELS = {
    "rgb": (("r", 255.0), ("g", 255.0), ("b", 255.0)),
    "hsl": (("h", None), ("s", 100.0), ("l", 100.0)),
    "hwb": (("h", None), ("w", 100.0), ("b", 100.0)),
    "lab": (("l", 100.0), ("a", 125.0), ("b", 125.0)),
    "lch": (("l", 100.0), ("c", 150.0), ("h", None)),
    "oklab": (("l", 1.0), ("a", 0.4), ("b", 0.4)),
    "oklch": (("l", 1.0), ("c", 0.4), ("h", None)),
}
_XYZ_CHANNELS = (("x", 1.0), ("y", 1.0), ("z", 1.0))
_RGB_CHANNELS = (("r", 1.0), ("g", 1.0), ("b", 1.0))
_ALIASES = {"rgba": "rgb", "hsla": "hsl"}
# System colours in the light scheme (CSS Color 4's list, and the deprecated names it maps).
_SYSTEM = {
    "canvas": WHITE,
    "canvastext": BLACK,
    "linktext": (0.0, 0.0, 0.933, 1.0),
    "visitedtext": (0.333, 0.102, 0.545, 1.0),
    "activetext": (1.0, 0.0, 0.0, 1.0),
    "buttonface": (0.937, 0.937, 0.937, 1.0),
    "buttontext": BLACK,
    "buttonborder": (0.463, 0.463, 0.463, 1.0),
    "field": WHITE,
    "fieldtext": BLACK,
    "highlight": (0.702, 0.843, 1.0, 1.0),
    "highlighttext": BLACK,
    "selecteditem": (0.0, 0.459, 1.0, 1.0),
    "selecteditemtext": WHITE,
    "mark": (1.0, 1.0, 0.0, 1.0),
    "marktext": BLACK,
    "graytext": (0.427, 0.427, 0.427, 1.0),
    "accentcolor": (0.0, 0.459, 1.0, 1.0),
    "accentcolortext": WHITE,
    "window": WHITE,
    "windowtext": BLACK,
    "windowframe": (0.463, 0.463, 0.463, 1.0),
    "buttonhighlight": (0.937, 0.937, 0.937, 1.0),
    "buttonshadow": (0.463, 0.463, 0.463, 1.0),
    "threedface": (0.937, 0.937, 0.937, 1.0),
    "infobackground": WHITE,
    "infotext": BLACK,
    "menu": WHITE,
    "menutext": BLACK,
    "scrollbar": WHITE,
    "appworkspace": WHITE,
    "background": WHITE,
}
_DARK_SYSTEM = {
    "canvas": (0.071, 0.071, 0.071, 1.0),
    "canvastext": WHITE,
    "field": (0.231, 0.231, 0.231, 1.0),
    "fieldtext": WHITE,
}

Parsed = Rgba | Unknown | None


def parse(token, current: Rgba, dark: bool = False) -> Parsed:
    """One token as a colour: an sRGB colour, UNKNOWN (a colour function this module cannot
    evaluate), or None (no colour). `current` is what `currentColor` means there."""
    if token.type == "ident":
        name = token.lower_value
        if name == "currentcolor":
            return current
        if dark and name in _DARK_SYSTEM:
            return _DARK_SYSTEM[name]
        if name in _SYSTEM:
            return _SYSTEM[name]
        basic = parse_basic(token)
        return tuple(basic) if basic is not None and not isinstance(basic, str) else None  # type: ignore[return-value]
    if token.type == "hash":
        basic = parse_basic(token)
        return tuple(basic) if basic is not None and not isinstance(basic, str) else None  # type: ignore[return-value]
    if token.type != "function":
        return None
    name = _ALIASES.get(token.lower_name, token.lower_name)
    try:
        if name == "light-dark":
            parts = [meaningful(part) for part in split_commas(token.arguments)]
            if len(parts) != 2 or any(len(part) != 1 for part in parts):
                return None
            return parse(parts[1 if dark else 0][0], current, dark)
        if name == "color-mix":
            return _mix(token.arguments, current, dark)
        if name == "color":
            return _color_function(meaningful(token.arguments), current, dark)
        if name in _CHANNELS:
            return _space_function(name, token.arguments, current, dark)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    if name in ("contrast-color", "device-cmyk", "-webkit-gradient"):
        return UNKNOWN
    return None


def first(tokens: Sequence[Any], current: Rgba, dark: bool = False) -> Parsed:
    """The first colour among the tokens (a `background` shorthand holds more than its colour)."""
    for token in meaningful(tokens):
        colour = parse(token, current, dark)
        if colour is not None:
            return colour
    return None


def _space_function(name: str, arguments, current: Rgba, dark: bool) -> Parsed:
    tokens = meaningful(arguments)
    channels = _CHANNELS[name]
    origin: dict[str, float] | None = None
    if tokens and tokens[0].type == "ident" and tokens[0].lower_value == "from":
        if len(tokens) < 2:
            return None
        base = parse(tokens[1], current, dark)
        if base is None or base is UNKNOWN:
            return base
        origin = _channels_of(name, channels, base)  # type: ignore[arg-type]
        tokens = tokens[2:]
    elif any(t.type == "literal" and t.value == "," for t in tokens):
        # The legacy syntax: three or four comma-separated values.
        parts = [meaningful(part) for part in split_commas(arguments)]
        if len(parts) not in (3, 4) or any(len(part) != 1 for part in parts):
            return None
        tokens = [p[0] for p in parts[:3]]
        if len(parts) == 4:
            tokens += [ast.LiteralToken(0, 0, "/"), parts[3][0]]
    values, alpha = _components(tokens, channels, origin)
    if values is None or values is UNKNOWN or alpha is None or alpha is UNKNOWN:
        return values if values is UNKNOWN or alpha is UNKNOWN else None  # type: ignore[return-value]
    space = "srgb" if name == "rgb" else name
    coordinates = [v / 255 for v in values] if name == "rgb" else values  # type: ignore[union-attr]
    return _rgba(space, coordinates, alpha)  # type: ignore[arg-type]


def _color_function(tokens: list[Any], current: Rgba, dark: bool) -> Parsed:
    origin_colour: Parsed = None
    if tokens and tokens[0].type == "ident" and tokens[0].lower_value == "from":
        if len(tokens) < 3:
            return None
        origin_colour = parse(tokens[1], current, dark)
        if origin_colour is None or origin_colour is UNKNOWN:
            return origin_colour
        tokens = tokens[2:]
    if not tokens or tokens[0].type != "ident":
        return None
    space = tokens[0].lower_value
    if space not in _RGB_SPACES and space not in ("xyz", "xyz-d50", "xyz-d65"):
        return None
    channels = _XYZ_CHANNELS if space.startswith("xyz") else _RGB_CHANNELS
    origin = None
    if origin_colour is not None:
        origin = _channels_of(space, channels, origin_colour)  # type: ignore[arg-type]
    values, alpha = _components(tokens[1:], channels, origin)
    if values is None or values is UNKNOWN or alpha is None or alpha is UNKNOWN:
        return values if values is UNKNOWN or alpha is UNKNOWN else None  # type: ignore[return-value]
    return _rgba(space, values, alpha)  # type: ignore[arg-type]


def _channels_of(space: str, channels, colour: Rgba) -> dict[str, float]:
    """An origin colour's channels in `space`, by their keyword names, for a relative colour."""
    srgb = colour[:3]
    xyz = to_xyz("srgb", srgb)
    coordinates = [c * 255 for c in srgb] if space == "rgb" else list(from_xyz(space, xyz))
    named = {name: value for (name, _), value in zip(channels, coordinates, strict=True)}
    named["alpha"] = colour[3]
    return named


def _components(tokens: list[Any], channels, origin: dict[str, float] | None):
    """Three channel values and an alpha, percentages read per channel, `none` as 0."""
    alpha_tokens: list[Any] = []
    if len(tokens) >= 2 and tokens[-2].type == "literal" and tokens[-2].value == "/":
        alpha_tokens = [tokens[-1]]
        tokens = tokens[:-2]
    if len(tokens) != 3:
        return None, None
    values: list[float] = []
    for token, (_, full) in zip(tokens, channels, strict=True):
        value = _channel(token, full, origin)
        if value is None or value is UNKNOWN:
            return value, 1.0
        values.append(value)  # type: ignore[arg-type]
    alpha: float | Unknown | None = origin["alpha"] if origin else 1.0
    if alpha_tokens:
        alpha = _channel(alpha_tokens[0], 1.0, origin)
    return values, alpha


def _channel(token, full: float | None, origin: dict[str, float] | None) -> float | Unknown | None:
    if origin is not None:
        token = _with_channels(token, origin)
    if token.type == "ident" and token.lower_value == "none":
        return 0.0
    if full is None:
        return angle_of(token)
    if token.type == "percentage":
        return float(token.value) * full / 100
    value = quantity(token, Context(percent_of=None))
    if value is None or value is UNKNOWN:
        return value  # type: ignore[return-value]
    number, kind = value  # type: ignore[misc]
    if kind == "percent":
        return number * full / 100
    return number if kind == "number" else None


def _with_channels(token, origin: dict[str, float]):
    """A channel of a relative colour with the origin's channel keywords as numbers."""
    if token.type == "ident" and token.lower_value in origin:
        return _number(origin[token.lower_value])
    if token.type == "function":
        arguments = [_with_channels(t, origin) for t in token.arguments]
        return ast.FunctionBlock(token.source_line, token.source_column, token.name, arguments)
    if token.type == "() block":
        return ast.ParenthesesBlock(
            token.source_line,
            token.source_column,
            [_with_channels(t, origin) for t in token.content],
        )
    return token


def _number(value: float):
    return ast.NumberToken(0, 0, value, None, repr(value))


def _mix(arguments, current: Rgba, dark: bool) -> Parsed:
    parts = [meaningful(part) for part in split_commas(arguments)]
    if len(parts) != 3 or len(parts[0]) < 2 or parts[0][0].type != "ident":
        return None
    if parts[0][0].lower_value != "in" or parts[0][1].type != "ident":
        return None
    space = parts[0][1].lower_value
    space = "xyz-d65" if space == "xyz" else space
    mixed: list[tuple[Rgba, float | None]] = []
    for part in parts[1:]:
        colour: Parsed = None
        share: float | None = None
        for token in part:
            if token.type == "percentage":
                share = float(token.value) / 100
            else:
                colour = parse(token, current, dark)
        if colour is None or colour is UNKNOWN:
            return colour
        mixed.append((colour, share))  # type: ignore[arg-type]
    (first_colour, p1), (second_colour, p2) = mixed
    if p1 is None and p2 is None:
        p1 = p2 = 0.5
    elif p1 is None:
        p1 = 1 - p2  # type: ignore[operator]
    elif p2 is None:
        p2 = 1 - p1
    total = p1 + p2  # type: ignore[operator]
    if total <= 0:
        return None
    scale = min(total, 1.0)
    weight = p2 / total  # type: ignore[operator]
    try:
        a = from_xyz(space, to_xyz("srgb", first_colour[:3]))
        b = from_xyz(space, to_xyz("srgb", second_colour[:3]))
    except ValueError:
        return None
    hue = {"hsl": 0, "hwb": 0, "lch": 2, "oklch": 2}.get(space)
    alpha_a, alpha_b = first_colour[3], second_colour[3]
    alpha = alpha_a * (1 - weight) + alpha_b * weight
    coordinates = []
    for index, (x, y) in enumerate(zip(a, b, strict=True)):
        if index == hue:
            delta = ((y - x + 180) % 360) - 180
            coordinates.append(x + delta * weight)
        else:
            premultiplied = x * alpha_a * (1 - weight) + y * alpha_b * weight
            coordinates.append(premultiplied / alpha if alpha else 0.0)
    return _rgba(space, coordinates, alpha * scale)


def blend(colour: Rgba, behind: tuple[float, float, float]) -> tuple[float, float, float]:
    """`colour` painted over an opaque `behind`."""
    alpha = max(0.0, min(1.0, colour[3]))
    return (
        colour[0] * alpha + behind[0] * (1 - alpha),
        colour[1] * alpha + behind[1] * (1 - alpha),
        colour[2] * alpha + behind[2] * (1 - alpha),
    )


def contrast(a: Sequence[float], b: Sequence[float]) -> float:
    """The WCAG contrast ratio of two opaque sRGB colours."""

    def luminance(rgb: Sequence[float]) -> float:
        linear = [_srgb_decode(min(1.0, max(0.0, c))) for c in rgb[:3]]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
