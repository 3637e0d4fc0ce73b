"""The MCP surface walker: every string of a message visited, copies only along changed paths."""

import base64
import copy
import json

from hypothesis import given
from hypothesis import strategies as st

from lazaretto.proxy.mcp.surfaces import MAX_DEPTH, SurfaceResult, plain_line, walk_surfaces

# The first bytes of a PNG file: base64 of bytes that no UTF-8 reader takes for text.
PNG_HEAD = base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()


def rewritten(outcome: SurfaceResult) -> dict:
    """The walked payload where a test expects a change (None: nothing was rewritten)."""
    assert outcome.payload is not None, "nothing was rewritten"
    return outcome.payload


def shout(marker="EVIL"):
    """A visitor that records every path and replaces text containing `marker`."""
    seen = {}

    def visit(path, text):
        seen[path] = text
        return text.replace(marker, "ok") if marker in text else None

    return seen, visit


def test_call_result_surfaces_and_paths():
    result = {
        "content": [
            {"type": "text", "text": "plain EVIL"},
            {"type": "text", "text": json.dumps({"body": "EVIL body", "n": 3, "tags": ["a"]})},
            {"type": "image", "data": PNG_HEAD, "mimeType": "image/png"},
            {"type": "audio", "data": PNG_HEAD, "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///a", "text": "res EVIL"}},
            {"type": "resource", "resource": {"uri": "file:///b", "blob": PNG_HEAD}},
            {
                "type": "resource_link",
                "uri": "file:///c",
                "name": "n",
                "title": "t",
                "description": "d EVIL",
            },
        ],
        "structuredContent": {"items": [{"title": "EVIL title", "EVIL key": 1}]},
        "_meta": {"io.modelcontextprotocol/model-immediate-response": "soon EVIL"},
    }
    before = copy.deepcopy(result)
    seen, visit = shout()
    outcome = walk_surfaces(result, visit)
    assert result == before  # never mutated
    assert outcome.uninspected == 3
    assert {
        "/content/0/text",
        "/content/1/text#/body",
        "/content/1/text#/tags/0",
        "/content/4/resource/text",
        "/content/6/name",
        "/content/6/title",
        "/content/6/description",
        "/structuredContent/items/0/title",
        "/structuredContent/items/0/EVIL key@key",
        "/_meta/io.modelcontextprotocol~1model-immediate-response",
    } <= set(seen)
    new = rewritten(outcome)
    assert new["content"][0]["text"] == "plain ok"
    assert json.loads(new["content"][1]["text"]) == {"body": "ok body", "n": 3, "tags": ["a"]}
    assert new["content"][1]["text"] == '{"body":"ok body","n":3,"tags":["a"]}'  # compact
    assert new["structuredContent"] == {"items": [{"title": "ok title", "ok key": 1}]}
    assert new["_meta"]["io.modelcontextprotocol/model-immediate-response"] == "soon ok"
    # Unchanged parts are shared, not copied.
    assert new["content"][2] is result["content"][2]


def test_nothing_changed_returns_none():
    result = {"content": [{"type": "text", "text": "fine"}], "structuredContent": {"a": "b"}}
    outcome = walk_surfaces(result, lambda path, text: None)
    assert outcome.payload is None and outcome.uninspected == 0


def test_non_call_surfaces():
    cases = {
        "resources/read": (
            {"contents": [{"uri": "u", "text": "EVIL"}, {"uri": "v", "blob": "AA"}]},
            "/contents/0/text",
        ),
        "prompts/get": (
            {
                "description": "EVIL",
                "messages": [{"role": "user", "content": {"type": "text", "text": "EVIL"}}],
            },
            "/messages/0/content/text",
        ),
        "tools/list": (
            {
                "tools": [
                    {
                        "name": "t",
                        "title": "EVIL",
                        "description": "EVIL",
                        "inputSchema": {
                            "type": "object",
                            "properties": {"q": {"type": "string", "description": "EVIL q"}},
                        },
                    }
                ]
            },
            "/tools/0/inputSchema/properties/q/description",
        ),
        "initialize": ({"protocolVersion": "2025-11-25", "instructions": "EVIL"}, "/instructions"),
        "server/discover": ({"supportedVersions": [], "instructions": "EVIL"}, "/instructions"),
        "sampling/createMessage": (
            {
                "systemPrompt": "EVIL",
                "messages": [{"role": "user", "content": {"type": "text", "text": "EVIL"}}],
            },
            "/systemPrompt",
        ),
        "elicitation/create": (
            {"message": "EVIL", "requestedSchema": {"properties": {"a": {"title": "EVIL"}}}},
            "/requestedSchema/properties/a/title",
        ),
        "notifications/message": ({"level": "info", "data": {"msg": ["EVIL"]}}, "/data/msg/0"),
        "notifications/progress": (
            {"progressToken": 1, "progress": 1, "message": "EVIL"},
            "/message",
        ),
    }
    for method, (payload, path) in cases.items():
        seen, visit = shout()
        outcome = walk_surfaces(payload, visit)
        assert path in seen, (method, seen)
        assert "EVIL" not in json.dumps(outcome.payload), method


def every_string(value, path=""):
    """The paths of every string value and key under `value`, as the walker spells them."""
    found = set()
    if isinstance(value, dict):
        for key, child in value.items():
            escaped = key.replace("~", "~0").replace("/", "~1").replace("@", "~2")
            step = f"{path}/{escaped.replace('#', '~3')}"
            found.add(step + "@key")
            found |= every_string(child, step)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found |= every_string(child, f"{path}/{index}")
    elif isinstance(value, str):
        found.add(path)
    return found


def test_every_string_of_any_payload_is_visited_whatever_its_key_or_method():
    # Strings no surface table named: names, URIs, enum values, defaults, examples, property
    # names, _meta, unknown block types and the extra keys of known ones, error data.
    payloads = [
        {
            "tools": [
                {
                    "name": "post EVIL",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "EVIL prop": {"enum": ["a EVIL"], "default": "d EVIL"},
                            "q": {"examples": ["EVIL example"], "const": "EVIL"},
                        },
                    },
                    "_meta": {"vendor/x": "EVIL meta"},
                }
            ]
        },
        {"resources": [{"uri": "file:///EVIL", "name": "EVIL name", "mimeType": "text/EVIL"}]},
        {"completion": {"values": ["EVIL value"], "total": 1}},
        {"level": "info", "logger": "EVIL logger", "data": "x"},
        {"modelPreferences": {"hints": [{"name": "EVIL model"}]}, "messages": []},
        {
            "content": [
                {"type": "mystery", "body": "EVIL body", "extra": {"deep": "EVIL"}},
                {"type": "text", "text": "fine", "annotations": {"note": "EVIL"}},
                {"type": "resource_link", "uri": "https://x/EVIL", "name": "n", "size": 3},
            ]
        },
        {"error": {"code": -32000, "message": "EVIL message", "data": {"why": ["EVIL"]}}},
        {"x/custom": [["EVIL", {"EVIL": "EVIL"}]]},
    ]
    for payload in payloads:
        seen, visit = shout()
        outcome = walk_surfaces(payload, visit)
        assert set(seen) == every_string(payload), payload
        assert "EVIL" not in json.dumps(outcome.payload), payload


def test_binary_parts_are_skipped_only_when_they_are_base64():
    payload = {
        "content": [
            {"type": "image", "data": PNG_HEAD, "mimeType": "image/png"},
            {"type": "image", "data": "EVIL is not base64!", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "file:///b", "blob": "EVIL text, no blob"}},
            {"type": "text", "data": "EVIL: only media parts carry data"},
        ]
    }
    seen, visit = shout()
    outcome = walk_surfaces(payload, visit)
    assert outcome.uninspected == 1
    assert "/content/0/data" not in seen and "/content/0/data#base64" not in seen
    assert {"/content/1/data", "/content/2/resource/blob", "/content/3/data"} <= set(seen)
    assert "EVIL" not in json.dumps(outcome.payload)


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def test_base64_that_spells_text_is_read_as_text_whatever_the_part_claims():
    # A model handed the base64 can read it: bytes that decode as UTF-8 are text, NULs and all.
    payload = {
        "content": [
            {"type": "image", "data": b64("EVIL in an image"), "mimeType": "image/png"},
            {"type": "audio", "data": b64("EVIL\x00 in audio"), "mimeType": "audio/wav"},
            {
                "type": "resource",
                "resource": {
                    "uri": "file:///b",
                    "mimeType": "application/pdf",
                    "blob": b64("EVIL ü"),
                },
            },
            {"type": "resource", "resource": {"uri": "file:///c", "blob": b64("fine")}},
            {"type": "image", "data": PNG_HEAD, "mimeType": "image/png"},
        ]
    }
    seen, visit = shout()
    outcome = walk_surfaces(payload, visit)
    assert outcome.uninspected == 1  # the PNG alone
    assert seen["/content/0/data#base64"] == "EVIL in an image"
    assert seen["/content/1/data#base64"] == "EVIL\x00 in audio"
    assert seen["/content/2/resource/blob#base64"] == "EVIL ü"
    new = rewritten(outcome)
    parts = new["content"]
    assert base64.b64decode(parts[0]["data"], validate=True) == b"ok in an image"
    assert base64.b64decode(parts[1]["data"], validate=True) == b"ok\x00 in audio"
    assert base64.b64decode(parts[2]["resource"]["blob"], validate=True) == "ok ü".encode()
    # What the visitor leaves alone is the very string that came.
    assert parts[3] is payload["content"][3] and parts[4] is payload["content"][4]


def test_json_inside_a_text_that_repeats_a_key_is_read_as_text():
    # A reader that keeps the first of two keys would see what parsing (last wins) hid.
    text = '{"note": "EVIL hidden in the first key", "note": "harmless"}'
    seen, visit = shout()
    outcome = walk_surfaces({"content": [{"type": "text", "text": text}]}, visit)
    assert seen == {
        "/content@key": "content",
        "/content/0/type@key": "type",
        "/content/0/type": "text",
        "/content/0/text@key": "text",
        "/content/0/text": text,
    }
    assert "EVIL" not in rewritten(outcome)["content"][0]["text"]


def test_deep_nesting_is_bounded_and_still_inspected():
    deep = node = {}
    for _ in range(MAX_DEPTH * 3):
        node["a"] = {}
        node = node["a"]
    node["s"] = "EVIL"
    seen, visit = shout()
    outcome = walk_surfaces({"content": [], "structuredContent": deep}, visit)
    assert "EVIL" not in json.dumps(outcome.payload)
    # Keys down to the bound, each with its own path; below it one piece of JSON text.
    assert [path for path in seen if not path.endswith("@key")] == [
        "/structuredContent" + "/a" * MAX_DEPTH
    ]
    assert "/structuredContent" + "/a" * (MAX_DEPTH - 1) + "/a@key" in seen


def test_json_text_that_does_not_parse_is_one_field():
    seen, visit = shout()
    walk_surfaces({"content": [{"type": "text", "text": "{not json EVIL"}]}, visit)
    assert [path for path in seen if not path.endswith("@key")] == [
        "/content/0/type",
        "/content/0/text",
    ]


def test_tasks_get_walks_status_message_and_inlined_result():
    payload = {
        "task": {"taskId": "t1", "status": "completed", "statusMessage": "done EVIL"},
        "result": {
            "content": [{"type": "text", "text": "out EVIL"}],
            "structuredContent": {"k": "EVIL"},
        },
    }
    seen, visit = shout()
    new = rewritten(walk_surfaces(payload, visit))
    assert {"/task/statusMessage", "/result/content/0/text", "/result/structuredContent/k"} <= set(
        seen
    )
    assert new["task"]["statusMessage"] == "done ok"
    assert new["result"]["content"][0]["text"] == "out ok"
    assert new["result"]["structuredContent"] == {"k": "ok"}

    flat = {"taskId": "t2", "status": "working", "statusMessage": "EVIL soon"}
    seen, visit = shout()
    assert rewritten(walk_surfaces(flat, visit))["statusMessage"] == "ok soon"


def test_no_key_can_spell_the_path_of_another_surface():
    # A key may hold the walker's own markers: `@key` after a key's path, `#` before the paths
    # of JSON inside a text, `/` and `~` of a pointer. Each surface still has a path of its own.
    payloads = [
        {"x": "a", "x@key": "b"},
        {"text": json.dumps({"body": "a"}), "text#": {"body": "b"}},
        {"a/b": "a", "a": {"b": "b"}},
        {"a~1b": "a", "a/b": "b"},
        {"k": {"@key": "a"}, "k@key": "b"},
    ]
    for payload in payloads:
        visited: list[str] = []
        walk_surfaces(payload, lambda path, text, seen=visited: seen.append(path))
        assert len(visited) == len(set(visited)), visited


# Pieces that make a line not plain, near misses of them, and ordinary JSON text.
LINE_PIECES = st.sampled_from(
    ["\\u", "\\", "u", '"blob"', '"data"', '"dat"', "blob", '"', "é", '{"a":1}', " x "]
)


@given(st.lists(LINE_PIECES, max_size=12).map("".join))
def test_a_plain_line_is_ascii_without_escapes_or_base64_keys(text):
    line = text.encode()
    assert plain_line(line) == (
        line.isascii() and b"\\u" not in line and b'"blob"' not in line and b'"data"' not in line
    )
