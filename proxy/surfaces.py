"""Every place in an MCP message where text reaches the model, walked by method.

`walk_surfaces` calls `visit(path, text)` on each text surface and rebuilds the payload only
along the paths whose text the visitor replaced; the input is never mutated. `payload` is the
`result` of a response (named by the request method it answers) or the `params` of a server
request or notification. Paths are JSON-pointer-like: `/content/0/text`, a key as
`/structuredContent/items/3/title@key`, and JSON found inside a text block as
`/content/0/text#/body`.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Visit = Callable[[str, str], "str | None"]

# Deeper than this, a subtree is inspected as one piece of JSON text rather than walked: the
# walk stays bounded, and nothing goes uninspected.
MAX_DEPTH = 48
_IMMEDIATE = "io.modelcontextprotocol/model-immediate-response"
_SCHEMA_TEXT_KEYS = frozenset({"description", "title"})
# A text block that may hold JSON; a match, unlike lstrip(), copies nothing of a large text.
_JSON_START = re.compile(r"\s*[{\[]")


@dataclass(frozen=True)
class SurfaceResult:
    """The rewritten payload (None when nothing changed) and how many parts could not be inspected."""

    payload: dict | None
    uninspected: int


def _pointer(key: Any) -> str:
    return "/" + str(key).replace("~", "~0").replace("/", "~1")


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


def walk_surfaces(method: str, payload: dict, visit: Visit) -> SurfaceResult:
    """Apply `visit` to every text surface of `payload` for `method`; see the module docstring."""
    if not isinstance(payload, dict):
        return SurfaceResult(None, 0)
    edits = _Edits(payload)
    walker = _SURFACES.get(method)
    if walker:
        walker(payload, (), edits, visit)
    return SurfaceResult(edits.apply(), edits.uninspected)


# --- generic pieces -----------------------------------------------------------------------


def _path_text(path: tuple, prefix: str = "") -> str:
    return prefix + "".join(_pointer(step) for step in path)


def _text(
    container: Any, key: Any, base: tuple, edits: _Edits, visit: Visit, json_inside: bool = False
) -> None:
    """Visit the string member `container[key]` of an object (ignored if absent or not a string)."""
    value = container.get(key) if isinstance(container, dict) else None
    if not isinstance(value, str):
        return
    path = base + (key,)
    if json_inside and _JSON_START.match(value):
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        if isinstance(parsed, (dict, list)):
            inner = _Edits(parsed)
            _all_strings(parsed, (), inner, visit, prefix=_path_text(path) + "#")
            edits.uninspected += inner.uninspected
            rebuilt = inner.apply()
            if rebuilt is not None:
                edits.values.append(
                    (path, json.dumps(rebuilt, ensure_ascii=False, separators=(",", ":")))
                )
            return
    replaced = visit(_path_text(path), value)
    if replaced is not None and replaced != value:
        edits.values.append((path, replaced))


def _all_strings(
    root: Any, base: tuple, edits: _Edits, visit: Visit, prefix: str = "", keys: bool = True
) -> None:
    """Visit every string leaf (and, with `keys`, every object key) under `root`, iteratively."""
    # Each node carries the text of its path, built once from its parent's: a large result's
    # leaves would otherwise each spell out their whole path again.
    stack = [(root, base, _path_text(base, prefix), 0)]
    while stack:
        node, path, where, depth = stack.pop()
        if depth > MAX_DEPTH and isinstance(node, (dict, list)):
            _deep(node, path, where, edits, visit)
            continue
        if isinstance(node, dict):
            children = []
            for key, child in node.items():
                step = where + _pointer(key)
                if keys and isinstance(key, str):
                    replaced = visit(step + "@key", key)
                    if replaced is not None and replaced != key:
                        edits.keys.append((path, key, replaced))
                children.append((child, path + (key,), step, depth + 1))
            stack.extend(reversed(children))
        elif isinstance(node, list):
            for index in range(len(node) - 1, -1, -1):
                stack.append((node[index], path + (index,), f"{where}/{index}", depth + 1))
        elif isinstance(node, str):
            replaced = visit(where, node)
            if replaced is not None and replaced != node:
                edits.values.append((path, replaced))


def _deep(node: Any, path: tuple, where: str, edits: _Edits, visit: Visit) -> None:
    """A subtree past MAX_DEPTH (at `path`, spelled `where`): visit it as JSON text; a replacement
    replaces the subtree."""
    try:
        text = json.dumps(node, ensure_ascii=False)
    except (ValueError, RecursionError):
        edits.uninspected += 1
        edits.values.append((path, "[lazaretto: removed a value nested too deeply to inspect]"))
        return
    replaced = visit(where, text)
    if replaced is not None and replaced != text:
        edits.values.append((path, replaced))


def _schema_text(root: Any, base: tuple, edits: _Edits, visit: Visit) -> None:
    """Every `description` and `title` string anywhere inside a JSON Schema."""
    stack = [(root, base, 0)]
    while stack:
        node, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            _deep(node, path, _path_text(path), edits, visit)
            continue
        if isinstance(node, dict):
            for key, child in node.items():
                if key in _SCHEMA_TEXT_KEYS and isinstance(child, str):
                    _text(node, key, path, edits, visit)
                elif isinstance(child, (dict, list)):
                    stack.append((child, path + (key,), depth + 1))
        elif isinstance(node, list):
            stack.extend(
                (child, path + (i,), depth + 1)
                for i, child in enumerate(node)
                if isinstance(child, (dict, list))
            )


def _items(container: Any, key: str) -> list:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, list) else []


# --- content blocks -----------------------------------------------------------------------


def _block(block: Any, path: tuple, edits: _Edits, visit: Visit) -> None:
    """One ContentBlock: text, embedded resource, resource link, or an uninspectable media part."""
    if not isinstance(block, dict):
        return
    kind = block.get("type")
    if kind == "text":
        _text(block, "text", path, edits, visit, json_inside=True)
    elif kind == "resource":
        _resource_contents(block.get("resource"), path + ("resource",), edits, visit)
    elif kind == "resource_link":
        for key in ("name", "title", "description"):
            _text(block, key, path, edits, visit)
    elif kind in ("image", "audio"):
        edits.uninspected += 1
    elif isinstance(block.get("text"), str):
        # An unknown block type that still carries text: the model may read it.
        _text(block, "text", path, edits, visit, json_inside=True)


def _resource_contents(contents: Any, path: tuple, edits: _Edits, visit: Visit) -> None:
    if not isinstance(contents, dict):
        return
    if isinstance(contents.get("text"), str):
        _text(contents, "text", path, edits, visit, json_inside=True)
    elif "blob" in contents:
        edits.uninspected += 1


def _content(holder: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    """`content` as one block or a list of blocks (both occur in prompts and sampling)."""
    content = holder.get("content")
    if isinstance(content, list):
        for index, block in enumerate(content):
            _block(block, path + ("content", index), edits, visit)
    else:
        _block(content, path + ("content",), edits, visit)


# --- one walker per method ----------------------------------------------------------------


def _call_result(result: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    _content(result, path, edits, visit)
    if "structuredContent" in result:
        structured = result["structuredContent"]
        if isinstance(structured, str):
            _text(result, "structuredContent", path, edits, visit)
        else:
            _all_strings(structured, path + ("structuredContent",), edits, visit)
    meta = result.get("_meta")
    if isinstance(meta, dict):
        _text(meta, _IMMEDIATE, path + ("_meta",), edits, visit)


def _resources_read(result: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    for index, contents in enumerate(_items(result, "contents")):
        _resource_contents(contents, path + ("contents", index), edits, visit)


def _prompts_get(result: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    _text(result, "description", path, edits, visit)
    for index, message in enumerate(_items(result, "messages")):
        if isinstance(message, dict):
            _content(message, path + ("messages", index), edits, visit)


def _tools_list(result: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    for index, tool in enumerate(_items(result, "tools")):
        if not isinstance(tool, dict):
            continue
        here = path + ("tools", index)
        for key in ("title", "description"):
            _text(tool, key, here, edits, visit)
        for schema in ("inputSchema", "outputSchema", "annotations"):
            if isinstance(tool.get(schema), dict):
                _schema_text(tool[schema], here + (schema,), edits, visit)


def _listing(items_key: str) -> Callable[[dict, tuple, _Edits, Visit], None]:
    """A walker for a `*/list` result: each entry's title and description, and those of its prompt
    arguments. A client shows them to the model to choose what to read or run; names are left
    alone, as in `tools/list`, because the client uses them to address the entry."""

    def walk(result: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
        for index, entry in enumerate(_items(result, items_key)):
            if not isinstance(entry, dict):
                continue
            here = path + (items_key, index)
            for key in ("title", "description"):
                _text(entry, key, here, edits, visit)
            for arg_index, argument in enumerate(_items(entry, "arguments")):
                if isinstance(argument, dict):
                    for key in ("title", "description"):
                        _text(argument, key, here + ("arguments", arg_index), edits, visit)

    return walk


def _task(result: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    """`tasks/get`: the task's status message, and a finished task's result where it is inlined."""
    _text(result, "statusMessage", path, edits, visit)
    task = result.get("task")
    if isinstance(task, dict):
        _text(task, "statusMessage", path + ("task",), edits, visit)
    _call_result(result, path, edits, visit)
    if isinstance(result.get("result"), dict):
        _call_result(result["result"], path + ("result",), edits, visit)


def _instructions(result: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    _text(result, "instructions", path, edits, visit)


def _sampling(params: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    _text(params, "systemPrompt", path, edits, visit)
    for index, message in enumerate(_items(params, "messages")):
        if isinstance(message, dict):
            _content(message, path + ("messages", index), edits, visit)


def _elicitation(params: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    _text(params, "message", path, edits, visit)
    if isinstance(params.get("requestedSchema"), dict):
        _schema_text(params["requestedSchema"], path + ("requestedSchema",), edits, visit)


def _log_message(params: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    if "data" in params:
        if isinstance(params["data"], str):
            _text(params, "data", path, edits, visit)
        else:
            _all_strings(params["data"], path + ("data",), edits, visit)


def _progress(params: dict, path: tuple, edits: _Edits, visit: Visit) -> None:
    _text(params, "message", path, edits, visit)


_SURFACES: dict[str, Callable[[dict, tuple, _Edits, Visit], None]] = {
    "tools/call": _call_result,
    "tasks/result": _call_result,
    "resources/read": _resources_read,
    "prompts/get": _prompts_get,
    "tools/list": _tools_list,
    "resources/list": _listing("resources"),
    "resources/templates/list": _listing("resourceTemplates"),
    "prompts/list": _listing("prompts"),
    "tasks/get": _task,
    "initialize": _instructions,
    "server/discover": _instructions,
    "sampling/createMessage": _sampling,
    "elicitation/create": _elicitation,
    "notifications/message": _log_message,
    "notifications/progress": _progress,
}
SURFACE_METHODS: frozenset[str] = frozenset(_SURFACES)
