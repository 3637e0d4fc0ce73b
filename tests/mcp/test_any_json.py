"""Whatever JSON a server sends, judging it never raises: the walk, the judge, the pins, the mediator.

Hypothesis builds arbitrary JSON values, with keys drawn mostly from MCP's own vocabulary so that
the shape-sensitive paths (media parts, resources, tool lists, schemas) meet values of every type
where they expect one (a `type` that is an object, a `tools` that is a string, `data` that is a
number). A value that cannot be judged is withheld with a reason, never passed on unread, and the
agent never reads a Python exception's text.
"""

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.mediators import mediator_for

from lazaretto.proxy.mcp.surfaces import walk_surfaces
from lazaretto.proxy.mediator.correlation import Pending
from lazaretto.proxy.mediator.pin_checks import screen_result
from lazaretto.proxy.pins.guard import PinGuard
from lazaretto.proxy.policy import parse_policy
from lazaretto.proxy.quarantine.cleaner import FieldCleaner
from lazaretto.proxy.quarantine.document import judge_message
from lazaretto.proxy.quarantine.scan import ScanRules, scan_text
from lazaretto.store import Store

MCP_KEYS = [
    "type",
    "text",
    "data",
    "blob",
    "uri",
    "mimeType",
    "content",
    "structuredContent",
    "resource",
    "tools",
    "prompts",
    "resources",
    "resourceTemplates",
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "properties",
    "annotations",
    "readOnlyHint",
    "instructions",
    "messages",
    "role",
    "isError",
    "nextCursor",
    "task",
    "taskId",
    "_meta",
    "arguments",
    "items",
    "enum",
    "default",
]
MCP_STRINGS = ["image", "audio", "text", "resource", "resource_link", "object", "string", "aGk="]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
    | st.sampled_from(MCP_STRINGS)
)
keys = st.sampled_from(MCP_KEYS) | st.text(max_size=8)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=6),
    max_leaves=40,
)
objects = st.dictionaries(keys, json_values, max_size=6)
METHODS = [
    "tools/call",
    "tools/list",
    "prompts/list",
    "resources/templates/list",
    "resources/read",
    "initialize",
]
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POLICY = parse_policy('[servers.web]\ntrust = "untrusted"\n')


@SETTINGS
@given(objects)
def test_the_walk_visits_any_json_without_raising(payload):
    seen = []
    walk_surfaces(payload, lambda path, text: seen.append(path))
    assert len(seen) == len(set(seen))  # every surface has a path of its own


@SETTINGS
@given(objects)
def test_the_judge_reads_any_json_without_raising(payload):
    rules = ScanRules()
    judge_message(payload, lambda text, path, seen: scan_text(text, rules, path, seen), rules)


@SETTINGS
@given(st.sampled_from(METHODS), objects)
# Found once by a random run: a tool whose name is a list, where names are gathered.
@example(method="tools/list", payload={"tools": [{"name": []}]})
def test_the_cleaner_and_the_pins_take_any_json_without_raising(tmp_path_factory, method, payload):
    store = Store(tmp_path_factory.mktemp("store") / "store.db")
    try:
        FieldCleaner(store, POLICY, "web", "s")(method, "fetch", "1", payload, True)
        screen_result(PinGuard(store, "web", ["server"]), Pending(1, method), payload, print)
    finally:
        store.close()


@SETTINGS
@given(st.sampled_from(METHODS), json_values)
def test_the_mediator_answers_any_result_with_the_result_or_a_reason(
    tmp_path_factory, method, result
):
    store = Store(tmp_path_factory.mktemp("store") / "store.db")
    try:
        mediator = mediator_for(store, POLICY, pins=PinGuard(store, "web", ["server"]))
        params = {
            "tools/call": {"name": "fetch", "arguments": {}},
            "resources/read": {"uri": "file:///notes.txt"},
        }.get(method, {})
        request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        assert mediator.from_client(json.dumps(request).encode()).to_server
        line = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}).encode()
        [answer] = mediator.from_server(line).to_client
        text = answer.decode()
        assert "Error:" not in text and "Traceback" not in text, text
        reply = json.loads(answer)
        assert reply["id"] == 1 and ("result" in reply or "error" in reply)
    finally:
        store.close()
