"""Characters a person cannot see: zero-width, tag, variation selector, bidi, control and ANSI escapes."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import islice

from .model import DECODED_CHARS, Collector
from .shape import Shape, beyond_ascii

# Zero-width and other invisible format characters (every Cf character that is not bidi or tag),
# plus the fillers and combining marks that render as nothing.
_ZERO_WIDTH = (
    "\u00ad\u034f\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200d\u2060-\u2065\u206a-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
)
_PLAIN_ZERO_WIDTH = _ZERO_WIDTH.replace("\u200b-\u200d", "\u200b")  # all but ZWNJ and ZWJ
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_SELECTORS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
_TAGS = "\U000e0000-\U000e007f"
# The supplementary private-use planes: no font shows them, a byte channel can use them.
_PRIVATE_USE = "\U000f0000-\U000ffffd\U00100000-\U0010fffd"
# ESC and the 8-bit CSI are absent: they belong to the escape-sequence pattern.
_CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9a\x9c-\x9f"

# Characters with an emoji or text presentation (an approximation of Extended_Pictographic): the
# only ones a presentation selector may follow and a ZWJ may join. Keycap bases (#, *, digits) take a
# selector only as part of a keycap, before U+20E3.
_EMOJI = (
    "\u00a9\u00ae\u203c\u2049\u2122\u2139\u2194-\u21aa\u231a-\u23ff\u24c2\u25a0-\u27bf"
    "\u2934\u2935\u2b00-\u2bff\u3030\u303d\u3297\u3299\U0001f000-\U0001faff\U0001fc00-\U0001fffd"
)
# Arabic, Syriac, N'Ko, Indic, Myanmar, Khmer, Mongolian: there a joiner changes the letter shapes,
# so it is visible content, not a hiding place.
_JOINING = (  # the format characters inside these blocks are left out: they are stripped, not letters
    "\u0606-\u061b\u061d-\u06dc\u06de-\u070e\u0710-\u077f\u07c0-\u088f\u0892-\u08e1\u08e3-\u08ff\u0900-\u0dff"
    "\u1000-\u109f\u1780-\u17ff\u1800-\u18af\ufb50-\ufdff\ufe70-\ufefc"
)
_KEPT_JOINER = (
    f"(?<=[{_EMOJI}\ufe0f])\u200d(?=[{_EMOJI}])|(?<=[{_JOINING}])[\u200c\u200d](?=[{_JOINING}])"
)
_KEPT_SELECTOR = f"(?<=[{_EMOJI}])[\ufe0e\ufe0f]|(?<=[#*0-9])\ufe0f\u20e3"
# The recommended (RGI) subdivision flags, the only ones emoji fonts draw: black flag, then
# gbeng, gbsct or gbwls spelled in tags, then CANCEL TAG. Any other tag run after a black flag,
# however flag-shaped, is text no one sees, and is decoded and stripped like the rest.
_FLAG = (
    "\U000e0067\U000e0062(?:\U000e0065\U000e006e\U000e0067|\U000e0073\U000e0063\U000e0074"
    "|\U000e0077\U000e006c\U000e0073)\U000e007f"
)

# CSI, the string commands (OSC, DCS, SOS, PM, APC) up to BEL or ST, and the short escapes. Each
# repetition is over a class that excludes what follows it, so nothing backtracks.
_ESCAPE = (
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|[ -/]*[0-~]?)"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
)

# What each family removes, in the order the families are applied. The keep rules are lookarounds,
# so a whole family is one pass inside the regex engine; a run matches from its first character only
# (the lookbehinds refuse a start inside a run), so every run is one match.
_REMOVE = {
    "ansi-escapes": _ESCAPE,
    "control-characters": f"[{_CONTROLS}]+",
    "zero-width": f"(?:[{_PLAIN_ZERO_WIDTH}]|(?!{_KEPT_JOINER})[\u200c\u200d])+",
    "bidi-controls": f"[{_BIDI}]+",
    # One presentation selector after an emoji-capable character is ordinary emoji text; a longer
    # run is a byte channel, so even its first selector goes and is decoded with the rest.
    "variation-selectors": (
        f"[{_SELECTORS}]{{2,}}|(?!{_KEPT_SELECTOR})[\ufe0e\ufe0f]|[\ufe00-\ufe0d\U000e0100-\U000e01ef]"
    ),
    "tag-characters": (
        f"(?<![\U0001f3f4{_TAGS}])[{_TAGS}]+|(?<=\U0001f3f4)(?!{_FLAG}(?![{_TAGS}]))[{_TAGS}]+"
    ),
    "private-use": f"[{_PRIVATE_USE}]+",
}
# Trusted text keeps control characters and escapes (terminal output legitimately colours itself);
# the invisible families go under every trust level.
_ALWAYS = ("zero-width", "bidi-controls", "variation-selectors", "tag-characters")
# A plain class search is several times cheaper than a pattern with lookarounds, so each family's
# pattern runs only on text that holds one of its characters.
_MEMBERS = {
    "ansi-escapes": "\x1b\x9b",
    "control-characters": _CONTROLS,
    "zero-width": _ZERO_WIDTH,
    "bidi-controls": _BIDI,
    "variation-selectors": _SELECTORS,
    "tag-characters": _TAGS,
    "private-use": _PRIVATE_USE,
}


@cache
def _present() -> dict[str, re.Pattern[str]]:
    return {kind: re.compile(f"[{chars}]") for kind, chars in _MEMBERS.items()}


# Where a family's keep rule cannot apply (no character it keeps one beside), every member goes:
# a plain class is removed by the regex engine's tight loop, where the look-arounds of the full
# pattern cost a test at every character of a flood.
@cache
def _every_member() -> dict[str, re.Pattern[str]]:
    return {
        kind: re.compile(f"[{chars}]+")
        for kind, chars in _MEMBERS.items()
        if kind != "ansi-escapes"
    }


@cache
def _keeps_beside() -> dict[str, re.Pattern[str]]:
    return {
        "zero-width": re.compile(f"[{_EMOJI}\ufe0f{_JOINING}]"),
        "variation-selectors": re.compile(f"[{_EMOJI}#*0-9]"),
        "tag-characters": re.compile("\U0001f3f4"),
    }


_GROUP = {kind: kind.replace("-", "_") for kind in _REMOVE}
_KIND = {group: kind for kind, group in _GROUP.items()}


@cache
def _candidate() -> re.Pattern[str]:
    return re.compile(f"[\x1b\x9b{_ZERO_WIDTH}{_BIDI}{_SELECTORS}{_TAGS}{_CONTROLS}{_PRIVATE_USE}]")


# Pure-ASCII text can only hold controls and escapes, which a byte translation finds at C speed.
_ASCII_CONTROLS = Shape(
    {"".join(map(chr, [*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])): "c"}
)


@cache
def _spell() -> re.Pattern[str]:
    return re.compile(f"[\x00-\x1f\x7f-\x9f{_ZERO_WIDTH}{_BIDI}{_SELECTORS}{_TAGS}{_PRIVATE_USE}]")


_NAMES = {
    "\u00ad": "SHY",
    "\u200b": "ZWSP",
    "\u200c": "ZWNJ",
    "\u200d": "ZWJ",
    "\u2060": "WJ",
    "\ufeff": "BOM",
    "\u034f": "CGJ",
    "\u180e": "MVS",
    "\u061c": "ALM",
    "\u200e": "LRM",
    "\u200f": "RLM",
    "\u202a": "LRE",
    "\u202b": "RLE",
    "\u202c": "PDF",
    "\u202d": "LRO",
    "\u202e": "RLO",
    "\u2066": "LRI",
    "\u2067": "RLI",
    "\u2068": "FSI",
    "\u2069": "PDI",
    "\x00": "NUL",
    "\x07": "BEL",
    "\x08": "BS",
    "\x0b": "VT",
    "\x0c": "FF",
    "\x1b": "ESC",
    "\x7f": "DEL",
}


def name(ch: str) -> str:
    """A short readable name for one invisible character: ZWSP, RLO, VS17, U+E0041."""
    if ch in _NAMES:
        return _NAMES[ch]
    selector = selector_byte(ch)
    if selector is not None:
        return f"VS{selector + 1}"
    return f"U+{ord(ch):04X}"


def selector_byte(ch: str) -> int | None:
    """The byte a variation selector encodes (VS1-16 are 0-15, VS17-256 are 16-255), else None."""
    code = ord(ch)
    if 0xFE00 <= code <= 0xFE0F:
        return code - 0xFE00
    if 0xE0100 <= code <= 0xE01EF:
        return code - 0xE0100 + 16
    return None


# Tag characters to the ASCII they spell (LANGUAGE TAG, CANCEL TAG and the rest spell nothing);
# variation selectors to the bytes they encode, as Latin-1 characters. Tables, so a long run is
# decoded by one C-level translate.
_TAG_LETTERS = {
    code: (chr(code - 0xE0000) if 0x20 <= code - 0xE0000 <= 0x7E else None)
    for code in range(0xE0000, 0xE0080)
}


class _SelectorBytes(dict):
    """Variation selector -> the byte it encodes (as a Latin-1 character); anything else -> nothing."""

    def __missing__(self, code: int) -> None:
        return None


_SELECTOR_BYTES = _SelectorBytes(
    {**{0xFE00 + i: chr(i) for i in range(16)}, **{0xE0100 + i: chr(i + 16) for i in range(240)}}
)
# Runs of one kind decoded for the reviewer: the rest are counted.
DECODED_RUNS = 64


def decode_tags(run: str) -> str:
    """The ASCII a run of tag characters spells (LANGUAGE TAG and CANCEL TAG spell nothing)."""
    return run.translate(_TAG_LETTERS)


def decode_selectors(run: str) -> str:
    """The bytes a run of variation selectors smuggles, read as UTF-8 with replacement (any other
    character spells nothing, as in `decode_tags`)."""
    return run.translate(_SELECTOR_BYTES).encode("latin-1").decode("utf-8", "replace")


def decode_private_use(run: str) -> str:
    """The bytes a run of supplementary private-use characters may carry (the low byte of each),
    read as UTF-8 with replacement."""
    return bytes(ord(ch) & 0xFF for ch in run).decode("utf-8", "replace")


def escape_text(seq: str) -> str:
    """An escape sequence with its control and invisible characters spelled out, so printing it is inert."""
    return _spell().sub(lambda m: f"⟨{name(m.group())}⟩", seq)


# The families' full patterns are compiled on first use: most texts hold none of their characters
# (the `_present` classes and `_worth_scanning` say so first), and a proxy answers its first
# messages without them.
@cache
def _pattern(kind: str) -> re.Pattern[str]:
    return re.compile(_REMOVE[kind])


@cache
def _scan(untrusted: bool) -> re.Pattern[str]:
    """Every family's pattern (only those stripped at every trust level, for trusted text) as one
    alternation of named groups."""
    kinds = _REMOVE if untrusted else _ALWAYS
    return re.compile("|".join(f"(?P<{_GROUP[kind]}>{_REMOVE[kind]})" for kind in kinds))


def hidden_spans(text: str, untrusted: bool = True) -> Iterator[tuple[str, int, int]]:
    """Yield (kind, start, end) for every stretch of one kind that the rules strip, in order."""
    if not _worth_scanning(text, untrusted):
        return
    for match in _scan(untrusted).finditer(text):
        group = match.lastgroup
        assert group is not None  # every alternative of the scan is a named group
        yield _KIND[group], match.start(), match.end()


def strip(text: str, untrusted: bool, found: Collector) -> str:
    """Remove every hidden stretch, family by family, recording per kind what was there, readable.

    The removal is one C-level substitution per family, whatever the number of runs; only the
    first DECODED_RUNS runs (each cut at DECODED_CHARS) are decoded for the reviewer.
    """
    if not _worth_scanning(text, untrusted):
        return text
    for kind in _REMOVE if untrusted else _ALWAYS:
        if not _present()[kind].search(text):
            continue
        pattern = _pattern(kind)
        beside = _keeps_beside().get(kind)
        if kind in _every_member() and (beside is None or not beside.search(text)):
            pattern = _every_member()[kind]
        cleaned, runs = _remove(pattern, text)
        if not runs:
            continue
        sample = [m.group()[:DECODED_CHARS] for m in islice(pattern.finditer(text), DECODED_RUNS)]
        more = f"\n[... {runs - len(sample)} more runs]" if runs > len(sample) else ""
        if kind == "ansi-escapes":
            found.add(kind, runs, "\n".join(map(escape_text, sample)) + more)
        elif kind == "tag-characters":
            found.add(kind, len(text) - len(cleaned), "\n".join(map(decode_tags, sample)) + more)
        elif kind == "variation-selectors":
            decoded = "\n".join(readable(decode_selectors(run)) for run in sample)
            found.add(kind, len(text) - len(cleaned), decoded + more)
        elif kind == "private-use":
            decoded = "\n".join(readable(decode_private_use(run)) for run in sample)
            found.add(kind, len(text) - len(cleaned), decoded + more)
        else:
            # Exact counts per character, each a C-level count over the text and its cleaned copy.
            counts = {
                ch: text.count(ch) - cleaned.count(ch) for ch in dict.fromkeys("".join(sample))
            }
            summary = ", ".join(
                f"{name(ch)}×{n}" if n > 1 else name(ch) for ch, n in Counter(counts).most_common()
            )
            left = len(text) - len(cleaned) - sum(counts.values())
            found.add(
                kind, len(text) - len(cleaned), summary + (f", {left} others" if left else "")
            )
        text = cleaned
    return text


# A removal is made a stretch of about this many characters at a time, each ending after an
# ASCII letter, space or line break: no family removes one or keeps a character beside one, so
# the cut changes nothing, and re.subn's list of kept pieces stays bounded for a flood of runs.
REMOVAL_PIECE = 1 << 16


@cache
def _safe_cut() -> re.Pattern[str]:
    return re.compile("[A-Za-z \n]")


def _remove(pattern: re.Pattern, text: str) -> tuple[str, int]:
    """`pattern.subn("", text)`, a bounded stretch at a time."""
    if len(text) <= REMOVAL_PIECE:
        return pattern.subn("", text)
    pieces, runs, start = [], 0, 0
    while start < len(text):
        cut = _safe_cut().search(text, min(len(text), start + REMOVAL_PIECE))
        end = cut.end() if cut else len(text)
        piece, count = (
            pattern.subn("", text[start:end])
            if end - start <= 2 * REMOVAL_PIECE
            else _remove_streaming(pattern, text[start:end])
        )
        pieces.append(piece)
        runs += count
        start = end
    return "".join(pieces), runs


def _remove_streaming(pattern: re.Pattern, text: str) -> tuple[str, int]:
    """`pattern.subn("", text)` for a long stretch with nowhere safe to cut (a flood of emoji and
    hidden characters): the kept pieces are joined every few thousand, so they never pile up."""
    kept: list[str] = []
    batch: list[str] = []
    last = runs = 0
    for match in pattern.finditer(text):
        batch.append(text[last : match.start()])
        last = match.end()
        runs += 1
        if len(batch) >= 4096:
            kept.append("".join(batch))
            batch.clear()
    batch.append(text[last:])
    kept.append("".join(batch))
    return "".join(kept), runs


def readable(text: str) -> str:
    """Text with every hidden character spelled out as ⟨NAME⟩, for showing decoded payloads safely."""
    pieces: list[str] = []
    last = 0
    for _kind, start, end in hidden_spans(text):
        pieces.append(text[last:start])
        pieces.append(
            escape_text(text[start:end]) if text[start] in "\x1b\x9b" else spelled(text[start:end])
        )
        last = end
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


def spelled(run: str) -> str:
    """Each character of a run of hidden characters as ⟨NAME⟩."""
    return "".join(f"⟨{name(ch)}⟩" for ch in run)


def _worth_scanning(text: str, untrusted: bool) -> bool:
    """Whether `text` holds a character of `_candidate()` (in ASCII text, only when untrusted)."""
    if text.isascii():
        return untrusted and _ASCII_CONTROLS.holds(text, "c")
    # The class's ASCII members are the controls `_ASCII_CONTROLS` finds; its others are looked
    # for among the text's few characters outside ASCII, not at every character.
    return _ASCII_CONTROLS.holds(text, "c") or _candidate().search(beyond_ascii(text)) is not None
