"""Rewrite JSON text to hold a new value while every unchanged part keeps its exact original text.

Client settings are edited by hand and by the clients themselves; re-serializing the whole file
would reflow everything the user wrote. Here only the values that differ are rendered anew, in the
layout (inline or one member per line, indentation, line ends) of the place they go; a member or
item that stays keeps its text and the whitespace before it, so taking out what was put in gives
the text back as it was.
"""

import itertools
import json
import re
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from typing import Any

_SPACE = re.compile(r"[ \t\r\n]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_DECODER = json.JSONDecoder()
_SEPARATOR_SAMPLE = 200  # containers looked at for the file's own inline separators


@dataclass
class _Member:
    """One `"key": value` of an object: where its key starts and ends, and its value."""

    key: str
    start: int
    key_end: int
    value: "_Node"


class _Node:
    """Where one JSON value sits in the text; an object's members and an array's items are read
    when first asked for (a large file is mostly left as it is, and never read that far)."""

    def __init__(self, text: str, start: int) -> None:
        self.text = text
        self.start = start
        _, self.end = _DECODER.raw_decode(text, start)  # C speed: only the end is wanted here

    @cached_property
    def members(self) -> list[_Member]:
        found: list[_Member] = []
        if self.text[self.start] != "{":
            return found
        index = _skip(self.text, self.start + 1)
        while self.text[index] != "}":
            key_end = _end(_STRING, self.text, index)
            raw = self.text[index + 1 : key_end - 1]
            key = json.loads(self.text[index:key_end]) if "\\" in raw else raw
            value = _Node(self.text, _skip(self.text, _skip(self.text, key_end) + 1))
            found.append(_Member(key, index, key_end, value))
            index = _after(self.text, value.end)
        return found

    @cached_property
    def items(self) -> list["_Node"]:
        found: list[_Node] = []
        if self.text[self.start] != "[":
            return found
        index = _skip(self.text, self.start + 1)
        while self.text[index] != "]":
            item = _Node(self.text, index)
            found.append(item)
            index = _after(self.text, item.end)
        return found


def _skip(text: str, index: int) -> int:
    return _end(_SPACE, text, index)


def _end(pattern: re.Pattern, text: str, index: int) -> int:
    match = pattern.match(text, index)
    assert match is not None  # the text was read as JSON before it is scanned
    return match.end()


def _after(text: str, end: int) -> int:
    """Where the next member or item starts, or the closing bracket, after a value ending at `end`."""
    index = _skip(text, end)
    return _skip(text, index + 1) if text[index] == "," else index


@dataclass(frozen=True)
class _Piece:
    """One member or item of a container as it will be written: its text, and its place before
    (None for one that is new)."""

    text: str
    index: int | None


def _same(a: Any, b: Any) -> bool:
    # `1 == True` in Python; compare the JSON each would be written as (only when alike at all).
    return a == b and json.dumps(a) == json.dumps(b)


def newline_of(text: str) -> str:
    """The text's line end: CR LF when its first line ends so, else LF."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


class _Renderer:
    def __init__(self, text: str, indent: str, ascii_only: bool, root: _Node) -> None:
        self.text = text
        self.indent = indent
        self.ascii_only = ascii_only
        self.newline = newline_of(text)
        # A compact file ({"a":1,"b":2}) gets compact new values; one with spaces, spaced ones.
        self.item_sep, self.key_sep = _separators(text, root)

    def fresh(self, value: Any, level: int, multiline: bool) -> str:
        """A new value, laid out inline or over lines indented to `level`."""
        if not multiline:
            return json.dumps(
                value, ensure_ascii=self.ascii_only, separators=(self.item_sep, self.key_sep)
            )
        text = json.dumps(
            value, indent=self.indent, ensure_ascii=self.ascii_only, separators=(",", self.key_sep)
        )
        return text.replace("\n", self.newline + self.indent * level)

    def render(self, node: _Node, old: Any, new: Any, level: int) -> str:
        original = self._text(node)
        if _same(old, new):
            return original
        multiline = "\n" in original
        if isinstance(old, dict) and isinstance(new, dict) and original.startswith("{"):
            return self._object(node, old, new, level, multiline)
        if isinstance(old, list) and isinstance(new, list) and original.startswith("["):
            return self._array(node, old, new, level, multiline)
        return self.fresh(new, level, multiline and isinstance(new, (dict, list)))

    def _object(self, node: _Node, old: dict, new: dict, level: int, multiline: bool) -> str:
        places = {member.key: index for index, member in enumerate(node.members)}
        kept = [places[key] for key in new if key in places]
        if kept != sorted(kept):
            return self.fresh(new, level, True)  # reordered: no text to keep in place
        sub_multiline = multiline or not node.members
        pieces = []
        for key, value in new.items():
            if key in places:
                member = node.members[places[key]]
                rendered = self.render(member.value, old[key], value, level + 1)
                pieces.append(
                    _Piece(self.text[member.start : member.value.start] + rendered, places[key])
                )
            else:
                rendered = self.fresh(value, level + 1, sub_multiline)
                key_text = json.dumps(key, ensure_ascii=self.ascii_only)
                pieces.append(_Piece(key_text + self.key_sep + rendered, None))
        spans = [(member.start, member.value.end) for member in node.members]
        return self._joined("{}", node, spans, pieces, level, sub_multiline)

    def _array(self, node: _Node, old: list, new: list, level: int, multiline: bool) -> str:
        extra = len(new) - len(old)
        in_place = extra >= 0 and all(map(_same, old, new))
        if not in_place and old and extra > 0 and all(map(_same, old, new[extra:])):
            # More in front, the rest as it was.
            pieces = [_Piece(self.fresh(b, level + 1, multiline), None) for b in new[:extra]]
            pieces += [_Piece(self._text(item), index) for index, item in enumerate(node.items)]
        elif extra >= 0 and all(
            _same(a, b) or isinstance(a, (dict, list)) for a, b in zip(old, new, strict=False)
        ):
            # Same places, maybe changed inside, maybe more at the end.
            pieces = [
                _Piece(self.render(item, a, b, level + 1), index)
                for index, (item, a, b) in enumerate(zip(node.items, old, new, strict=False))
            ]
            pieces += [_Piece(self.fresh(b, level + 1, multiline), None) for b in new[len(old) :]]
        else:
            picked = _subsequence(old, new)
            if picked is None:
                return self.fresh(new, level, multiline)
            pieces = [_Piece(self._text(node.items[index]), index) for index in picked]
        spans = [(item.start, item.end) for item in node.items]
        return self._joined("[]", node, spans, pieces, level, multiline)

    def _text(self, node: _Node) -> str:
        return self.text[node.start : node.end]

    def _joined(
        self,
        brackets: str,
        node: _Node,
        spans: list[tuple[int, int]],
        pieces: list[_Piece],
        level: int,
        multiline: bool,
    ) -> str:
        """The container's text: what stays keeps the whitespace before it, what is new gets the
        container's first separator (or one in the file's layout), and its ends stay as they were."""
        if not pieces:
            return brackets
        inner = self.newline + self.indent * (level + 1) if multiline else ""
        if spans:
            opening = self.text[node.start + 1 : spans[0][0]]
            closing = self.text[spans[-1][1] : node.end - 1]
        else:
            opening, closing = inner, (self.newline + self.indent * level if multiline else "")
        between = (
            self.text[spans[0][1] : spans[1][0]]
            if len(spans) > 1
            else ("," + inner if inner else self.item_sep)
        )
        parts = [pieces[0].text]
        for previous, piece in itertools.pairwise(pieces):
            index, before = piece.index, previous.index
            if index is not None and before is not None and before < index:
                gap = self.text[spans[index - 1][1] : spans[index][0]]  # its own
            else:
                gap = between
            parts.append(gap + piece.text)
        return brackets[0] + opening + "".join(parts) + closing + brackets[1]


def _separators(text: str, root: _Node) -> tuple[str, str]:
    """The text's own inline separators between items and after keys (`", "` and `": "` if none),
    from the first containers that show them."""
    item_sep = key_sep = None
    pending = deque([root])
    for _ in range(_SEPARATOR_SAMPLE):
        if not pending or (item_sep is not None and key_sep is not None):
            break
        node = pending.popleft()
        if node.members and key_sep is None:
            member = node.members[0]
            between = text[member.key_end : member.value.start]
            if between.strip() == ":" and "\n" not in between:
                key_sep = between
        spans = [(m.start, m.value.end) for m in node.members] or [
            (i.start, i.end) for i in node.items
        ]
        if len(spans) > 1 and item_sep is None:
            between = text[spans[0][1] : spans[1][0]]
            if between.strip() == "," and "\n" not in between:
                item_sep = between
        pending.extend(m.value for m in node.members)
        pending.extend(node.items)
    return item_sep or ", ", key_sep or ": "


def _subsequence(old: list, new: list) -> list[int] | None:
    """Indices of `old` whose items, in order, are exactly `new` (items only removed), else None."""
    picked, index = [], 0
    for value in new:
        while index < len(old) and not _same(old[index], value):
            index += 1
        if index == len(old):
            return None
        picked.append(index)
        index += 1
    return picked


def edit_json(text: str, new: Any, indent: str | None = None, ascii_only: bool = False) -> str:
    """`text` changed to hold `new`, touching only what differs (a blank text gets a fresh document)."""
    if not text.strip():
        return json.dumps(new, indent=indent or "  ", ensure_ascii=ascii_only) + "\n"
    old = json.loads(text)
    root = _Node(text, _skip(text, 0))
    renderer = _Renderer(text, indent or "  ", ascii_only, root)
    return text[: root.start] + renderer.render(root, old, new, 0) + text[root.end :]
