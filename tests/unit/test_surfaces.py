"""The MCP surface walker: every text surface visited, copies only along changed paths."""

import copy
import json

from lazaretto.proxy.surfaces import MAX_DEPTH, SurfaceResult, walk_surfaces


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
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
            {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///a", "text": "res EVIL"}},
            {"type": "resource", "resource": {"uri": "file:///b", "blob": "AAAA"}},
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
    outcome = walk_surfaces("tools/call", result, visit)
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
    outcome = walk_surfaces("tasks/result", result, lambda path, text: None)
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
        outcome = walk_surfaces(method, payload, visit)
        assert path in seen, (method, seen)
        assert "EVIL" not in json.dumps(outcome.payload), method


def test_unknown_method_is_left_alone():
    seen, visit = shout()
    assert walk_surfaces("ping", {"text": "EVIL"}, visit).payload is None
    assert seen == {}


def test_deep_nesting_is_bounded_and_still_inspected():
    deep = node = {}
    for _ in range(MAX_DEPTH * 3):
        node["a"] = {}
        node = node["a"]
    node["s"] = "EVIL"
    seen, visit = shout()
    outcome = walk_surfaces("tools/call", {"content": [], "structuredContent": deep}, visit)
    assert "EVIL" not in json.dumps(outcome.payload)
    # Keys down to the bound, each with its own path; below it one piece of JSON text.
    assert [path for path in seen if not path.endswith("@key")] == [
        "/structuredContent" + "/a" * (MAX_DEPTH + 1)
    ]
    assert "/structuredContent" + "/a" * MAX_DEPTH + "/a@key" in seen


def test_json_text_that_does_not_parse_is_one_field():
    seen, visit = shout()
    walk_surfaces("tools/call", {"content": [{"type": "text", "text": "{not json EVIL"}]}, visit)
    assert list(seen) == ["/content/0/text"]


def test_resource_and_prompt_listings_walk_titles_and_descriptions():
    resources = {
        "resources": [
            {"uri": "file:///a", "name": "a EVIL", "title": "EVIL t", "description": "d EVIL"}
        ]
    }
    seen, visit = shout()
    new = rewritten(walk_surfaces("resources/list", resources, visit))
    assert set(seen) == {"/resources/0/title", "/resources/0/description"}
    assert new["resources"][0] == {
        "uri": "file:///a",
        "name": "a EVIL",
        "title": "ok t",
        "description": "d ok",
    }

    templates = {
        "resourceTemplates": [{"uriTemplate": "file:///{p}", "name": "t", "description": "EVIL"}]
    }
    seen, visit = shout()
    assert (
        rewritten(walk_surfaces("resources/templates/list", templates, visit))["resourceTemplates"][
            0
        ]["description"]
        == "ok"
    )

    prompts = {
        "prompts": [
            {
                "name": "p",
                "description": "EVIL p",
                "arguments": [{"name": "x", "description": "x EVIL", "required": True}],
            }
        ]
    }
    seen, visit = shout()
    new = rewritten(walk_surfaces("prompts/list", prompts, visit))
    assert set(seen) == {"/prompts/0/description", "/prompts/0/arguments/0/description"}
    assert new["prompts"][0]["arguments"][0] == {
        "name": "x",
        "description": "x ok",
        "required": True,
    }


def test_tasks_get_walks_status_message_and_inlined_result():
    payload = {
        "task": {"taskId": "t1", "status": "completed", "statusMessage": "done EVIL"},
        "result": {
            "content": [{"type": "text", "text": "out EVIL"}],
            "structuredContent": {"k": "EVIL"},
        },
    }
    seen, visit = shout()
    new = rewritten(walk_surfaces("tasks/get", payload, visit))
    assert {"/task/statusMessage", "/result/content/0/text", "/result/structuredContent/k"} <= set(
        seen
    )
    assert new["task"]["statusMessage"] == "done ok"
    assert new["result"]["content"][0]["text"] == "out ok"
    assert new["result"]["structuredContent"] == {"k": "ok"}

    flat = {"taskId": "t2", "status": "working", "statusMessage": "EVIL soon"}
    seen, visit = shout()
    assert rewritten(walk_surfaces("tasks/get", flat, visit))["statusMessage"] == "ok soon"
