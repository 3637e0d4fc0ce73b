"""Rewrite JSON text to hold a new value while every unchanged part keeps its exact original text.

Client settings are edited by hand and by the clients themselves; re-serializing the whole file
would reflow everything the user wrote. Here only the values that differ are rendered anew, in the
layout (inline or one member per line, indentation, line ends) of the place they go; a member or
item that stays keeps its text and the whitespace before it, so taking out what was put in gives
the text back as it was.
"""

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

_WHITESPACE = " \t\r\n"


@dataclass
class _Member:
    """One `"key": value` of an object: where its key starts and ends, and its value."""

    key: str
    start: int
    key_end: int
    value: "_Node"


@dataclass
class _Node:
    """Where one JSON value sits in the text; objects keep their members, arrays their items."""

    start: int
    end: int
    members: list[_Member] = field(default_factory=list)
    items: list["_Node"] = field(default_factory=list)


@dataclass(frozen=True)
class _Piece:
    """One member or item of a container as it will be written: its text, and its place before
    (None for one that is new)."""

    text: str
    index: int | None


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text

    def skip(self, index: int) -> int:
        while index < len(self.text) and self.text[index] in _WHITESPACE:
            index += 1
        return index

    def value(self, index: int) -> _Node:
        index = self.skip(index)
        char = self.text[index]
        if char == "{":
            return self._object(index)
        if char == "[":
            return self._array(index)
        if char == '"':
            return _Node(index, self._string_end(index))
        end = index
        while end < len(self.text) and self.text[end] not in _WHITESPACE + ",]}":
            end += 1
        return _Node(index, end)

    def _string_end(self, index: int) -> int:
        index += 1
        while self.text[index] != '"':
            index += 2 if self.text[index] == "\\" else 1
        return index + 1

    def _object(self, start: int) -> _Node:
        node = _Node(start, start)
        index = self.skip(start + 1)
        while self.text[index] != "}":
            key_end = self._string_end(index)
            key = json.loads(self.text[index:key_end])
            value = self.value(self.skip(key_end) + 1)  # past the colon
            node.members.append(_Member(key, index, key_end, value))
            index = self.skip(value.end)
            if self.text[index] == ",":
                index = self.skip(index + 1)
        node.end = index + 1
        return node

    def _array(self, start: int) -> _Node:
        node = _Node(start, start)
        index = self.skip(start + 1)
        while self.text[index] != "]":
            item = self.value(index)
            node.items.append(item)
            index = self.skip(item.end)
            if self.text[index] == ",":
                index = self.skip(index + 1)
        node.end = index + 1
        return node


def _same(a: Any, b: Any) -> bool:
    # `1 == True` in Python; compare the JSON each would be written as.
    return json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False)


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
    """The text's own inline separators between items and after keys (`", "` and `": "` if none)."""
    item_sep = key_sep = None
    pending = [root]
    while pending and (item_sep is None or key_sep is None):
        node = pending.pop(0)
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
    root = _Scanner(text).value(0)
    renderer = _Renderer(text, indent or "  ", ascii_only, root)
    return text[: root.start] + renderer.render(root, old, new, 0) + text[root.end :]
