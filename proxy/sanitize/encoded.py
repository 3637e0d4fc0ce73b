"""Long encoded runs (base64, base32, hex) that carry a payload a reader cannot see at a glance."""

from __future__ import annotations

import base64
import binascii
import re
import urllib.parse
from collections.abc import Callable
from functools import cache

from ..matcher import engine
from .invisible import readable
from .model import Collector
from .shape import Shape

LONG_RUN = 200
SHORT_RUN = 24


# One class covers all three alphabets (and base64url); the run is classified afterwards. The
# lookbehind lets a match start only where a run starts, so each run is scanned once, whatever its length.
@cache
def _run() -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{{{SHORT_RUN},}}=*")


# The alphabet as one symbol, and the padding that may close a run.
_ALPHABET = Shape(
    {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-": "b", "=": "="}
)


@cache
def _hex() -> re.Pattern[str]:
    return re.compile(r"[0-9a-fA-F]+")


@cache
def _base32() -> re.Pattern[str]:
    return re.compile(r"[A-Z2-7]+=*")


_TEXT_SHARE = 0.9
_BINARY_PREVIEW = 48
# An encoding inside an encoding is unwrapped this many layers deep (each layer is shorter than
# the one around it, so the unwrapping costs less than the run's own decoding again).
_LAYERS = 4


def strip_encoded(
    text: str,
    looks_like_instructions: Callable[[str], bool] | None,
    found: Collector,
    runs: bool | None = None,
) -> str:
    """Remove long encoded runs, and shorter ones that decode to instructions, recording the decoding.

    `runs` is whether a run may stand in the text, where the caller's scan told (None: asked here).
    """

    def replace(run: str) -> str:
        kind, decoded = _decode(run)
        decoded = _innermost(decoded)
        if len(run) >= LONG_RUN:
            if not is_text(decoded) and not _random_looking(run, kind):
                return run
        elif (
            looks_like_instructions is None
            or not is_text(decoded)
            or not looks_like_instructions(decoded.decode("utf-8", "replace"))
        ):
            return run
        found.add(kind, 1, _describe(decoded))
        return ""

    if not (_may_hold_run(text) if runs is None else runs):
        return text  # most fields: no run long enough, proved without the regex
    pieces, pos = [], 0
    for start, end in _run_spans(text):
        run = text[start:end]
        kept = replace(run)
        if kept is not run:
            pieces += [text[pos:start], kept]
            pos = end
    return "".join([*pieces, text[pos:]]) if pieces else text


# The longest text whose runs are found in a shaped copy; a longer one is searched by `_run()`
# (no copy of it is made).
_SHAPED_MOST = 1 << 16
_SHORT_RUN_SHAPED = b"b" * SHORT_RUN


@cache
def _run_rest() -> re.Pattern[bytes]:
    return re.compile(rb"b*=*")


def _run_spans(text: str) -> list[tuple[int, int]]:
    """The spans of `_run()`'s matches in `text`, left to right.

    `_run()` tries every character, and a text that has one run is mostly prose; in the text
    shaped to one symbol per character (`_ALPHABET`), each run starts where SHORT_RUN symbols
    of the alphabet stand in a row, which a substring search skips to. The first such place from
    where the last run ended is a run's start: the symbol before it is none of the alphabet (or
    that place would be the first), or the last run ended in padding.
    """
    if len(text) > _SHAPED_MOST:
        return [match.span() for match in _run().finditer(text)]
    shaped = _ALPHABET.of_characters(text)
    spans = []
    pos = 0
    while (start := shaped.find(_SHORT_RUN_SHAPED, pos)) >= 0:
        rest = _run_rest().match(shaped, start + SHORT_RUN)
        assert rest is not None  # it matches the empty string too
        spans.append((start, rest.end()))
        pos = rest.end()
    return spans


def _may_hold_run(text: str) -> bool:
    """Whether SHORT_RUN characters of the alphabet stand in a row somewhere in `text`."""
    scan = _run_scan()
    if scan.name == "plain":
        return _ALPHABET.has_run(text, "b", SHORT_RUN)
    return bool(scan.candidates(text))


@cache
def _run_scan() -> engine.Engine:
    # One class repeated is what a compiled scan matches fastest: several times the shaped text's
    # translation and search, which stay the plain path's test.
    return engine.compiled([rf"[A-Za-z0-9+/_-]{{{SHORT_RUN}}}"])


def _decode(run: str) -> tuple[str, bytes]:
    """The most specific encoding the run is spelled in, and its bytes.

    A stray trailing character (odd hex, a base64 length of 4n+1) is dropped rather than letting the
    run through undecoded: a model reads past such a slip.
    """
    body = run.rstrip("=")
    if _hex().fullmatch(run):
        return "encoded-hex", bytes.fromhex(run[: len(run) // 2 * 2])
    if _base32().fullmatch(run):
        try:
            return "encoded-base32", base64.b32decode(body + "=" * (-len(body) % 8))
        except binascii.Error:
            pass  # a length base32 cannot have: read it as base64 instead
    body = body.replace("-", "+").replace("_", "/")
    body = body[: len(body) - 1] if len(body) % 4 == 1 else body
    return "encoded-base64", base64.b64decode(body + "=" * (-len(body) % 4), validate=True)


def _innermost(data: bytes) -> bytes:
    """The payload under every layer of encoding: base64, base32 or hex that decodes to another
    run, percent-encoding, HTML character references."""
    for _ in range(_LAYERS):
        if not is_text(data):
            break
        text = data.decode("utf-8", "replace").strip()
        if _run().fullmatch(text):
            try:
                data = _decode(text)[1]
            except (binascii.Error, ValueError):
                break
            continue
        # Imported here: its table of entities is loaded for the few texts that get this far.
        import html

        unescaped = html.unescape(urllib.parse.unquote(text))
        if unescaped == text:
            break
        data = unescaped.encode()
    return data


def _random_looking(run: str, kind: str) -> bool:
    """Long paths and identifiers share the base64 alphabet (and decode to noise); an encoded blob
    mixes cases and digits and uses few separators (each of '/', '+', '-', '_' is 1 in 64)."""
    if kind != "encoded-base64":
        return True
    if not (
        any(c.isdigit() for c in run)
        and any(c.islower() for c in run)
        and any(c.isupper() for c in run)
    ):
        return False
    separators = sum(run.count(c) for c in "/+-_")
    return separators <= len(run) * 0.08


def is_text(data: bytes) -> bool:
    text = data.decode("utf-8", "replace")
    # U+FFFD counts against: it stands for bytes that were not UTF-8 at all.
    printable = sum(1 for c in text if (c.isprintable() and c != "\ufffd") or c in "\n\t\r")
    return bool(text) and printable >= len(text) * _TEXT_SHARE


def _describe(data: bytes) -> str:
    if is_text(data):
        return readable(data.decode("utf-8", "replace"))
    return f"({len(data)} bytes of binary) {data[:_BINARY_PREVIEW].hex()}"
