"""Rewrite JSON text to hold a new value while every unchanged part keeps its exact original text.

Client settings are edited by hand and by the clients themselves; re-serializing the whole file
would reflow everything the user wrote. Here only the values that differ are rendered anew, in the
layout (inline or one member per line, indentation) of the place they go.
"""

import json
from dataclasses import dataclass, field
from typing import Any

_WHITESPACE = " \t\r\n"


@dataclass
class _Node:
    """Where one JSON value sits in the text; objects keep their members, arrays their items."""

    start: int
    end: int
    members: list[tuple[str, int, "_Node"]] = field(default_factory=list)  # (key, key start, value)
    items: list["_Node"] = field(default_factory=list)


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
            node.members.append((key, index, value))
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


class _Renderer:
    def __init__(self, text: str, indent: str, ascii_only: bool, root: _Node) -> None:
        self.text = text
        self.indent = indent
        self.ascii_only = ascii_only
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
        return text.replace("\n", "\n" + self.indent * level)

    def render(self, node: _Node, old: Any, new: Any, level: int) -> str:
        original = self.text[node.start : node.end]
        if _same(old, new):
            return original
        multiline = "\n" in original
        if isinstance(old, dict) and isinstance(new, dict) and original.startswith("{"):
            return self._object(node, old, new, level, multiline)
        if isinstance(old, list) and isinstance(new, list) and original.startswith("["):
            return self._array(node, old, new, level, multiline)
        return self.fresh(new, level, multiline and isinstance(new, (dict, list)))

    def _layout(
        self, node: _Node, spans: list[tuple[int, int]], level: int, multiline: bool
    ) -> tuple[str, str, str]:
        """(after the opening bracket, between entries, before the closing one), as the text has them."""
        if spans:
            opening = self.text[node.start + 1 : spans[0][0]]
            closing = self.text[spans[-1][1] : node.end - 1]
            between = self.text[spans[0][1] : spans[1][0]] if len(spans) > 1 else None
        else:
            opening = closing = between = None
        inner = "\n" + self.indent * (level + 1) if multiline else ""
        opening = opening if opening is not None else inner
        closing = (
            closing if closing is not None else ("\n" + self.indent * level if multiline else "")
        )
        between = between if between is not None else "," + (inner or " ")
        return opening, between, closing

    def _object(self, node: _Node, old: dict, new: dict, level: int, multiline: bool) -> str:
        kept = [member for member in node.members if member[0] in new]
        order = list(new)
        if [key for key, _, _ in kept] != order[: len(kept)]:
            return self.fresh(new, level, True)  # reordered: no text to keep in place
        parts = [
            self.text[key_start : value.start] + self.render(value, old[key], new[key], level + 1)
            for key, key_start, value in kept
        ]
        sub_multiline = multiline or not node.members
        for key in order[len(kept) :]:
            value_text = self.fresh(new[key], level + 1, sub_multiline)
            parts.append(json.dumps(key, ensure_ascii=self.ascii_only) + self.key_sep + value_text)
        if not parts:
            return "{}"
        spans = [(key_start, value.end) for _, key_start, value in node.members]
        opening, between, closing = self._layout(node, spans, level, multiline or not node.members)
        return "{" + opening + between.join(parts) + closing + "}"

    def _array(self, node: _Node, old: list, new: list, level: int, multiline: bool) -> str:
        if len(new) >= len(old) and all(
            _same(a, b) or isinstance(a, (dict, list)) for a, b in zip(old, new, strict=False)
        ):
            # Same places, maybe changed inside, maybe more at the end.
            parts = [
                self.render(item, a, b, level + 1)
                for item, a, b in zip(node.items, old, new, strict=False)
            ]
            parts += [self.fresh(value, level + 1, multiline) for value in new[len(old) :]]
        else:
            picked = _subsequence(old, new)
            if picked is None:
                return self.fresh(new, level, multiline)
            parts = [self.text[node.items[i].start : node.items[i].end] for i in picked]
        if not parts:
            return "[]"
        spans = [(item.start, item.end) for item in node.items]
        opening, between, closing = self._layout(node, spans, level, multiline)
        return "[" + opening + between.join(parts) + closing + "]"


def _separators(text: str, root: _Node) -> tuple[str, str]:
    """The text's own inline separators between items and after keys (`", "` and `": "` if none)."""
    item_sep = key_sep = None
    pending = [root]
    while pending and (item_sep is None or key_sep is None):
        node = pending.pop(0)
        if node.members and key_sep is None:
            key, key_start, value = node.members[0]
            key_end = key_start + len(json.dumps(key))  # as written, when the key has no escapes
            between = text[key_end : value.start]
            if between.strip() == ":" and "\n" not in between:
                key_sep = between
        spans = [(m[1], m[2].end) for m in node.members] or [(i.start, i.end) for i in node.items]
        if len(spans) > 1 and item_sep is None:
            between = text[spans[0][1] : spans[1][0]]
            if between.strip() == "," and "\n" not in between:
                item_sep = between
        pending.extend(m[2] for m in node.members)
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
