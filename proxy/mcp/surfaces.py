"""Every string of an MCP message, walked the same way whatever its method or key.

`walk_surfaces` calls `visit(path, text)` on every string value and every object key of a payload
(a response's `result` or `error`, a server request's or notification's `params`) and rebuilds it
only along the paths whose text the visitor replaced; the input is never mutated. No key is
skipped because a client is not expected to show it: names, URIs, schema defaults and enums,
`_meta`, unknown block types and their extra keys are all strings a model can be handed.

The base64 `data` of an image or audio part and the `blob` of a resource are read for what they
spell: bytes that decode as UTF-8 are text a model can be handed (whatever `mimeType` the server
claims), visited at the key's path with `#base64` added and, when replaced, encoded again; other
bytes (images, audio) are not text and are counted as uninspected. A string under a `text` key that
holds JSON is walked as JSON too (unless the JSON names a key twice: then a reader might see the
other value, so the whole text is read as text). Paths are JSON-pointer-like: `/content/0/text`,
a key as `/structuredContent/items/3/title@key`, JSON found inside a text as
`/content/0/text#/body`; within a key, `~`, `/`, `@` and `#` are spelled `~0`, `~1`, `~2` and
`~3`, so every surface of a payload has a path of its own.
"""

import base64
import binascii
import json
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from .bounds import affordable
from .jsonrpc import LineError, parse_text

Visit = Callable[[str, str], "str | None"]

# Deeper than this, a subtree is inspected as one piece of JSON text rather than walked: the
# walk stays bounded, and nothing goes uninspected.
MAX_DEPTH = 48
# A text that may hold JSON; a match, unlike lstrip(), copies nothing of a large text.
_JSON_START = re.compile(r"\s*[{\[]")
# Parts whose payload is binary: the key that holds it, given the part's shape.
_MEDIA_TYPES = frozenset({"image", "audio"})
# Added to the path of a base64 payload's key when the text it spells is visited: no key can
# spell `#` (it is escaped), so the path is that text's own.
BASE64_MARK = "#base64"


class SurfaceResult(NamedTuple):
    """The rewritten payload (None when nothing changed) and how many parts could not be inspected."""

    payload: dict | None
    uninspected: int


# A key's `~`, `/`, `@` and `#` are escaped, so that no key can spell the walker's own `@key` or
# `#` and give two surfaces one path (the verdicts of a message are kept by path).
_ESCAPES = str.maketrans({"~": "~0", "/": "~1", "@": "~2", "#": "~3"})


def _pointer(key: Any) -> str:
    return "/" + (key if isinstance(key, str) else str(key)).translate(_ESCAPES)


class _Edits:
    """Replacements collected during a walk, applied afterwards by copying only the changed paths."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.values: list[tuple[tuple, Any]] = []
        self.keys: list[tuple[tuple, str, str]] = []
        self.uninspected = 0

    def apply(self) -> Any:
        if not self.values and not self.keys:
            return None
        copies: dict[tuple, Any] = {(): _shallow(self.root)}

        def container(path: tuple) -> Any:
            """The copy of the container at `path`, copying each not-yet-copied ancestor on the way."""
            missing = []
            ancestor = path
            while ancestor not in copies:
                missing.append(ancestor)
                ancestor = ancestor[:-1]
            for step in reversed(missing):
                parent = copies[step[:-1]]
                copies[step] = parent[step[-1]] = _shallow(parent[step[-1]])
            return copies[path]

        for path, value in self.values:
            container(path[:-1])[path[-1]] = value
        # Keys last and deepest first, so value edits above still find their (old) keys.
        for path, old, new in sorted(self.keys, key=lambda edit: -len(edit[0])):
            target = container(path)
            items = list(target.items())
            target.clear()
            target.update((new if key == old else key, value) for key, value in items)
        return copies[()]


def _shallow(value: Any) -> Any:
    return (
        dict(value)
        if isinstance(value, dict)
        else list(value)
        if isinstance(value, list)
        else value
    )


# What makes an ASCII line not plain: a \u escape, or a key that may hold a base64 payload. Each
# pattern opens with one fixed byte, which `re` skips to quickly; an alternation of two openings,
# and `bytes in` with a short needle, step through the line byte by byte. Most lines hold no
# backslash at all, which a one-byte `in` (memchr) tells faster still.
_ESCAPE_U = re.compile(rb"\\u")
_BASE64_KEY = re.compile(rb'"(?:blob|data)"')


def plain_line(line: bytes) -> bool:
    """Whether a JSON line's strings are the characters it shows: ASCII, no `\\u` escape, and no
    base64 payload that may spell text (see the module docstring), whose being ASCII says nothing
    of the characters that text holds."""
    return (
        line.isascii()
        and (b"\\" not in line or not _ESCAPE_U.search(line))
        and not _BASE64_KEY.search(line)
    )


def walk_surfaces(payload: Any, visit: Visit) -> SurfaceResult:
    """Apply `visit` to every string of `payload`; see the module docstring."""
    if not isinstance(payload, (dict, list)):
        return SurfaceResult(None, 0)
    edits = _Edits(payload)
    _all_strings(payload, edits, visit, "")
    return SurfaceResult(edits.apply(), edits.uninspected)


def surfaces_of(payload: Any) -> list[tuple[str, str]]:
    """Every string of `payload` with its path, in the order `walk_surfaces` visits them."""
    found: list[tuple[str, str]] = []
    if isinstance(payload, (dict, list)):
        add = found.append
        _all_strings(payload, _Edits(payload), lambda path, text: add((path, text)), "")
    return found


def _all_strings(root: Any, edits: _Edits, visit: Visit, prefix: str) -> None:
    """Visit every string leaf and every object key under `root` (spelled `prefix`), iteratively.

    Every string of a large result passes through here, so the loop body is kept flat: a dict's
    keys are visited in order, then its values are walked in order (pushed in reverse); numbers,
    booleans and nulls hold no text and are not pushed at all.
    """
    # Each node carries the text of its path, built once from its parent's: a large result's
    # leaves would otherwise each spell out their whole path again. Its place in the payload is
    # kept as (parent's place, key), spelled out as a tuple only for an edit (see _flat).
    stack: list[tuple[Any, Any, str, int, bool]] = [(root, (), prefix, 0, False)]
    pop, push, values, keys, pieces = stack.pop, stack.append, edits.values, edits.keys, _PIECES
    while stack:
        node, place, where, depth, json_inside = pop()
        if isinstance(node, str):
            if json_inside and _json_text(node, place, where, edits, visit):
                continue
            replaced = visit(where, node)
            if replaced is not None and replaced != node:
                values.append((_flat(place), replaced))
        elif depth > MAX_DEPTH:
            _deep(node, place, where, edits, visit)
        elif isinstance(node, dict):
            # Only a part with `data` or `blob` can hold a base64 payload.
            binary, decoded = (
                _base64_part(node) if "data" in node or "blob" in node else (None, None)
            )
            children = []
            depth += 1
            for key, child in node.items():
                piece = pieces.get(key)
                if piece is None:
                    piece = _piece(key)
                step = where + piece
                replaced = visit(step + "@key", key)
                if replaced is not None and replaced != key:
                    keys.append((_flat(place), key, replaced))
                if key == binary:
                    if decoded is None:
                        edits.uninspected += 1
                    else:
                        _base64_text(decoded, (place, key), step, edits, visit)
                    continue
                if isinstance(child, (str, dict, list)):
                    children.append((child, (place, key), step, depth, key == "text"))
            children.reverse()
            stack.extend(children)
        else:  # a list
            depth += 1
            for index in range(len(node) - 1, -1, -1):
                child = node[index]
                if isinstance(child, (str, dict, list)):
                    push((child, (place, index), f"{where}/{index}", depth, False))


# The path step of each key seen lately ("/text"), as _pointer spells it: the keys of a result
# repeat in every record and every message. Emptied past _PIECES_KEPT keys.
_PIECES: dict[str, str] = {}
_PIECES_KEPT = 4096


def _piece(key: Any) -> str:
    piece = _pointer(key)
    if isinstance(key, str):  # only text keys: True would find the step of 1
        if len(_PIECES) >= _PIECES_KEPT:
            _PIECES.clear()
        _PIECES[key] = piece
    return piece


def _flat(place: Any) -> tuple:
    """The path of keys and indexes a place of `_all_strings` stands for."""
    steps = []
    while place:
        place, step = place
        steps.append(step)
    steps.reverse()
    return tuple(steps)


def _base64_part(node: dict) -> tuple[str | None, str | None]:
    """The key of a media part's or a resource's base64 payload, if it holds base64 indeed, and
    the text it spells (None for bytes that are no UTF-8 text)."""
    kind = node.get("type")
    # `type` is any JSON value a server sends (an output schema's is an object): only a string
    # names a media part.
    if isinstance(kind, str) and kind in _MEDIA_TYPES:
        key = "data"
    elif "uri" in node and "blob" in node:
        key = "blob"
    else:
        return None, None
    value = node.get(key)
    if not isinstance(value, str):
        return None, None
    try:
        raw = binascii.a2b_base64(value, strict_mode=True)
    except (binascii.Error, ValueError):
        return None, None  # not base64: it is text like any other
    try:
        # Images and audio begin with bytes UTF-8 forbids (PNG's 0x89, JPEG's 0xFF, a WAV's rate).
        return key, raw.decode("utf-8")
    except UnicodeDecodeError:
        return key, None


def _base64_text(text: str, place: Any, where: str, edits: _Edits, visit: Visit) -> None:
    """Visit the text a base64 payload spells; a replacement goes back as base64."""
    replaced = visit(where + BASE64_MARK, text)
    if replaced is not None and replaced != text:
        encoded = base64.b64encode(replaced.encode()).decode("ascii")
        edits.values.append((_flat(place), encoded))


def _json_text(text: str, place: Any, where: str, edits: _Edits, visit: Visit) -> bool:
    """Walk a text that holds a JSON object or array as JSON; False if it holds none."""
    # Most texts open with neither a bracket nor a space: they are told apart without the match.
    head = text[:1]
    if head != "{" and head != "[" and not (head.isspace() and _JSON_START.match(text)):
        return False
    if not affordable(text):
        return False  # more values than parsing may cost: one text, read as such
    try:
        parsed, repeated = parse_text(text)
    except LineError:
        return False
    if repeated or not isinstance(parsed, (dict, list)):
        return False
    inner = _Edits(parsed)
    _all_strings(parsed, inner, visit, where + "#")
    edits.uninspected += inner.uninspected
    rebuilt = inner.apply()
    if rebuilt is not None:
        edits.values.append(
            (_flat(place), json.dumps(rebuilt, ensure_ascii=False, separators=(",", ":")))
        )
    return True


def _deep(node: Any, place: Any, where: str, edits: _Edits, visit: Visit) -> None:
    """A subtree past MAX_DEPTH (at `place`, spelled `where`): visit it as JSON text; a
    replacement replaces the subtree."""
    try:
        text = json.dumps(node, ensure_ascii=False)
    except (ValueError, RecursionError):
        edits.uninspected += 1
        edits.values.append(
            (_flat(place), "[lazaretto: removed a value nested too deeply to inspect]")
        )
        return
    replaced = visit(where, text)
    if replaced is not None and replaced != text:
        edits.values.append((_flat(place), replaced))
