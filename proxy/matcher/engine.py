"""Which signal patterns can match a text, answered by one compiled multi-pattern scan.

Python's `re` runs one pattern at a time; the table has a hundred. Hyperscan scans a text for
all of them at once, at memory speed, but it knows no look-arounds, possessive repeats or
Unicode word classes, and compiling the whole table takes seconds. So it is only asked which
patterns *may* match (a superset): each pattern is rewritten into a looser form it accepts, and
every pattern it names is then run by `re` itself. Verdicts therefore never depend on the
engine: without Hyperscan (no wheel for the platform) the plain path tries every pattern, and
the tests run both and compare.

The looser form reads a shaped copy of the text: every non-ASCII character becomes one `?`, so
offsets stay those of the text and a byte-level database needs no Unicode tables. Where the
pattern takes a word, digit or space character, the rewrite also takes `?`; look-arounds and
`\\b` are dropped; long bounded repeats become unbounded. A pattern that needs a word's edges
writes them as characters (`[^A-Za-z0-9_]`) and asks for a `framed` engine, which reads the text
between two line breaks, so that a word at either end of the text has such a character beside it
too. The compiled database is kept in the
user's cache folder (`cache_folder`), named by everything it was built from, so only the first process of
a user pays for the compilation.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import threading
from collections.abc import Callable, Sequence
from functools import cache
from itertools import chain
from pathlib import Path
from typing import Any

from . import cache_folder

try:
    import hyperscan
except ImportError:  # no wheel for this platform: the plain path serves
    hyperscan = None


def hyperscan_in_use() -> Any:
    """The Hyperscan module every compiled scan is built with; None on the plain path (no wheel
    for this platform, or LAZARETTO_PLAIN_ENGINE set)."""
    return None if os.environ.get("LAZARETTO_PLAIN_ENGINE") else hyperscan


# A repeat bounded this high or higher is left unbounded: the compiler's time grows with bounds.
_RELAX_FROM = 20
# What a shorthand class becomes in the shaped text: the character class plus the stand-in `?`.
_SHORTHAND = {"w": r"\w?", "d": r"\d?", "s": r"\s\x0b\x1c-\x1f?"}
_BOUNDS = re.compile(r"\{(\d*)(,?)(\d*)\}")
_LOOKAROUNDS = ("(?=", "(?!", "(?<=", "(?<!")
# A text longer than this is scanned as a stream of pieces of STREAM_PIECE characters: its
# shaped copy would otherwise be one more copy of a large message in memory.
STREAM_FROM = 1 << 20
STREAM_PIECE = 1 << 16
# Characters each side of a boundary between two pieces that are read again as one block (at most
# a piece): Hyperscan 5.4.12's stream mode has missed a short match split across two pieces in a
# database of many patterns (it found the same match in one piece, and in a database of its own).
STREAM_SEAM = 1 << 12
# What a framed engine reads before and after the text: a character of no word.
_FRAME = b"\n"


def shape(text: str) -> bytes:
    """The text as the database reads it: ASCII kept, every other character one `?`."""
    return text.encode("ascii", "replace")


def loosen(regex: str) -> str:
    """A Hyperscan pattern over `shape(text)` matching wherever `regex` matches `text` (and more)."""
    out: list[str] = []
    dropped: list[bool] = []  # per open group: whether it is a look-around being left out
    skipping = 0
    i, size = 0, len(regex)

    def emit(piece: str) -> None:
        if not skipping:
            out.append(piece)

    while i < size:
        ch = regex[i]
        if ch == "\\":
            escape = regex[i + 1]
            i += 2
            if escape in "bBAZ":
                continue  # zero-width: a looser pattern may ignore it
            if escape in _SHORTHAND:
                emit(f"[{_SHORTHAND[escape]}]")
            elif escape == "x":
                emit(regex[i - 2 : i + 2])
                i += 2
            elif escape in "uUN" or escape.isdigit():
                raise ValueError(f"unsupported escape \\{escape} in {regex!r}")
            else:
                emit("\\" + escape)
        elif ch == "[":
            end = _class_end(regex, i)
            emit(_loosen_class(regex[i + 1 : end]))
            i = end + 1
        elif ch == "(":
            lookaround = regex.startswith(_LOOKAROUNDS, i)
            dropped.append(lookaround)
            if lookaround:
                skipping += 1
                i += 4 if regex[i + 2] == "<" else 3
            elif regex.startswith("(?>", i):
                emit("(?:")
                i += 3
            elif regex.startswith("(?P<", i):
                emit("(")
                i = regex.index(">", i) + 1
            elif regex.startswith("(?", i) and not regex.startswith("(?:", i):
                raise ValueError(f"unsupported group in {regex!r}")
            else:
                emit(regex[i : i + 3] if regex.startswith("(?:", i) else "(")
                i += 3 if regex.startswith("(?:", i) else 1
        elif ch == ")":
            if dropped.pop():
                skipping -= 1
            else:
                emit(")")
            i += 1
        elif ch == "{" and (bounds := _BOUNDS.match(regex, i)):
            low, comma, high = bounds.groups()
            relaxed = comma and high and int(high) >= _RELAX_FROM
            emit(f"{{{low or 0},}}" if relaxed else bounds.group())
            i = _after_quantifier(regex, bounds.end())
        elif ch in "*+?":
            emit(ch)
            i = _after_quantifier(regex, i + 1)
        elif ch in "^$":
            i += 1  # zero-width, like the look-arounds
        elif not ch.isascii():
            emit(r"\?")
            i += 1
        else:
            emit(ch)
            i += 1
    if dropped:
        raise ValueError(f"unbalanced group in {regex!r}")
    return "".join(out)


def _class_end(regex: str, start: int) -> int:
    """The index of the `]` that closes the class opened at `start`."""
    i = start + 1
    if regex.startswith("^", i):
        i += 1
    if regex.startswith("]", i):
        i += 1
    while regex[i] != "]":
        i += 2 if regex[i] == "\\" else 1
    return i


def _loosen_class(body: str) -> str:
    if body.startswith("^"):
        # A negated class takes `?` unless it names `?` itself or a non-ASCII character (either
        # could be what the stand-in replaced): those are dropped from what it refuses.
        rest = "".join(ch for ch in body[1:] if ch.isascii() and ch != "?")
        shorthands = re.findall(r"\\[wds]", rest)
        if shorthands:
            # Refusing fewer characters only widens it: the ASCII shorthands alone, which never
            # refuse the stand-in `?` ("[^\w|]" becomes "[^\w]").
            return f"[^{''.join(shorthands)}]"
        return f"[^{rest}]" if rest else r"[\s\S]"
    widened = re.sub(r"\\([wds])", lambda m: _SHORTHAND[m[1]], body)
    return "[" + "".join(ch if ch.isascii() else "?" for ch in widened) + "]"


def _after_quantifier(regex: str, i: int) -> int:
    """Skip a possessive `+` (the looser form backtracks freely); a lazy `?` is kept as is."""
    return i + 1 if regex.startswith("+", i) else i


class Engine:
    """Answers which patterns of a table may match a text."""

    name = "plain"

    def __init__(self, count: int) -> None:
        self._all = tuple(range(count))

    def candidates(self, text: str) -> Sequence[int]:
        """Indexes of the patterns that may match `text` (every one, on the plain path)."""
        return self._all


class HyperscanEngine(Engine):
    """The same answer from one Hyperscan scan of the shaped text.

    A long text is shaped and scanned a piece at a time, as one stream: a stream finds what a
    block scan of the whole finds (matches across pieces included), without a shaped copy of the
    whole text beside it. The characters around each seam between two pieces are read again as a
    block (see `STREAM_SEAM`).
    """

    name = "hyperscan"

    def __init__(
        self,
        database,
        streaming: Callable[[], Any] | None = None,
        shaper: Callable[[str], bytes] | None = None,
        framed: bool = False,
    ) -> None:
        self._database = database
        self._streaming = streaming  # builds the stream-mode database, on the first long text
        self.shaper = shaper  # None: the module's `shape`
        self.framed = framed  # the text is read between two `_FRAME`s (see `loosen`)
        self._frame = _FRAME if framed else b""
        # A stream scans with its database's own scratch space: one long text at a time.
        self._streaming_lock = threading.Lock()

    def candidates(self, text: str) -> Sequence[int]:
        found: list[int] = []
        shaped = self.shaper or shape

        # SINGLEMATCH: each pattern is reported once; the handler only collects.
        def collect(index: int, *_) -> None:
            found.append(index)

        if len(text) > STREAM_FROM and self._streaming is not None:
            with (
                self._streaming_lock,
                self._streaming().stream(match_event_handler=collect) as stream,
            ):
                pieces = (
                    shaped(text[start : start + STREAM_PIECE])
                    for start in range(0, len(text), STREAM_PIECE)
                )
                if self._frame:
                    pieces = chain((self._frame,), pieces, (self._frame,))
                for piece in pieces:
                    stream.scan(piece)
            # Each seam read as a block too, as a short text is read: a block around it names a
            # match that crosses it (and may name more, near its own edges: candidates only).
            reach = min(STREAM_SEAM, STREAM_PIECE)
            for seam in range(STREAM_PIECE, len(text), STREAM_PIECE):
                around = shaped(text[seam - reach : seam + reach])
                scan_block(self._database, self._frame + around + self._frame, collect)
            return sorted(set(found))
        if self._frame:
            scan_block(self._database, self._frame + shaped(text) + self._frame, collect)
        else:
            scan_block(self._database, shaped(text), collect)
        found.sort()
        return found


class Gated(Engine):
    """An engine asked only where a cheaper one (its `gate`, whose patterns match wherever its own
    do) first names something: a text the gate passes over names nothing."""

    def __init__(self, gate: Engine, scan: Engine) -> None:
        self.gate, self.scan = gate, scan
        self.name = scan.name

    def candidates(self, text: str) -> Sequence[int]:
        return self.scan.candidates(text) if self.gate.candidates(text) else ()


class _Scratches(threading.local):
    """Each thread's Hyperscan scratch space, per database (by id, with the database kept alive)."""

    def __init__(self) -> None:
        self.by_database: dict[int, tuple[Any, Any]] = {}


_SCRATCHES = _Scratches()


def scan_block(database, data: bytes, handler: Callable[..., Any]) -> None:
    """A block-mode scan in this thread's own scratch space.

    Hyperscan refuses a scan whose scratch another scan is using, and it releases the GIL while it
    scans: the station answers its clients and the remote proxy reads its streams in several
    threads, so a database's one scratch would fail their scans (and fail closed, withholding
    what is harmless).
    """
    held = _SCRATCHES.by_database.get(id(database))
    if held is None or held[0] is not database:
        assert hyperscan is not None  # a database exists only where hyperscan does
        held = _SCRATCHES.by_database[id(database)] = (database, hyperscan.Scratch(database))
    database.scan(data, match_event_handler=handler, scratch=held[1])


def plain(sources: Sequence[str]) -> Engine:
    """The engine that names every pattern: what the compiled one must agree with."""
    return Engine(len(sources))


def compiled(
    sources: Sequence[str], shaper: Callable[[str], bytes] | None = None, framed: bool = False
) -> Engine:
    """The fastest engine this platform has for these pattern sources, which read the text as
    `shaper` turns it into bytes (`shape` by default), between two line breaks if `framed`."""
    return _compiled(tuple(sources), shaper, framed)


@cache
def _compiled(
    sources: tuple[str, ...],
    shaper: Callable[[str], bytes] | None = None,
    framed: bool = False,
) -> Engine:
    hs = hyperscan_in_use()
    if hs is None:
        return plain(sources)
    streaming = cache(lambda: _database(hs, sources, hs.HS_MODE_STREAM))
    return HyperscanEngine(_database(hs, sources, hs.HS_MODE_BLOCK), streaming, shaper, framed)


def _database(hs, sources: tuple[str, ...], mode: int):
    """The compiled database of the loosened patterns in `mode`, from the cache when built before.

    The cache is keyed by the sources as written and by this module's code, which loosens them:
    a process that finds the database rewrites no pattern (a tenth of a second for the signal
    table). Where the module's source cannot be read, the loosened forms are the key.
    """
    flags = hs.HS_FLAG_SINGLEMATCH | hs.HS_FLAG_PREFILTER

    def build():
        loose = [loosen(source) for source in sources]
        database = hs.Database(mode=mode)
        database.compile(
            expressions=[pattern.encode() for pattern in loose],
            ids=list(range(len(loose))),
            elements=len(loose),
            flags=[flags] * len(loose),
        )
        return database

    rewriting = _rewriting()
    if rewriting is None:
        key = [loosen(source).encode() for source in sources]
    else:
        key = [rewriting, *(source.encode("utf-8", "surrogatepass") for source in sources)]
    return cached_database(hs, "signals", mode, [b"%d" % flags, *key], build)


@cache
def _rewriting() -> bytes | None:
    """The digest of this module's source (how a pattern is loosened), None where unreadable."""
    try:
        return hashlib.sha256(Path(__file__).read_bytes()).digest()
    except OSError:
        return None


def cached_database(hs, kind: str, mode: int, inputs: list[bytes], build: Callable[[], Any]):
    """The database `build` makes from `inputs` in `mode`, read from the cache folder when this
    Hyperscan on this platform built it before (and kept there when not)."""
    name = cache_folder.file_name(
        kind,
        [
            getattr(hs, "__version__", "?").encode(),
            sys.platform.encode(),
            os.uname().machine.encode(),
            b"%d" % mode,
            *inputs,
        ],
        ".hsdb",
    )
    database = _load(hs, name, mode)
    if database is None:
        database = build()
        cache_folder.write(name, hs.dumpb(database))
    return database


def _load(hs, name: str, mode: int):
    data = cache_folder.read(name)
    if data is None:
        return None
    try:
        database = hs.loadb(data, mode)
        if mode == hs.HS_MODE_STREAM:
            # A loaded database comes without scratch space; a stream scans with its database's
            # own (a block scan, with its thread's, see `scan_block`).
            database.scratch = hs.Scratch(database)
        return database
    except (TypeError, hs.error):
        return None  # from another build of Hyperscan: compiled afresh
