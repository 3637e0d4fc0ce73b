"""@modelcontextprotocol/server-memory (a knowledge graph in a JSON-lines file) behind the proxy.

Trusted, building and reading a graph answers the same through the proxy as directly (each
server keeps its own graph file; no answer names it), and a subscriber to the graph hears of a
change the same. Untrusted, reading the graph taints the
session, and creating an entity is refused until a person approves it; then the same call
creates it, answers as the server does directly, and the entity is in the file.
"""

import json
import time

import pytest
from mcp import ClientSession, types
from support.interop import Interop, Pair, installed, refusal_token, trusted_pair
from support.interop_servers import MEMORY
from support.terminal import READ_TIMEOUT

pytestmark = installed(MEMORY.executable)

PEOPLE = [
    {"name": "Ada", "entityType": "person", "observations": ["writes the build scripts"]},
    {"name": "Widget", "entityType": "project", "observations": ["ships every month"]},
]


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    with trusted_pair(tmp_path_factory.mktemp("memory"), MEMORY, shared=False) as both:
        yield both


def test_trusted_a_graph_is_built_and_read_the_same(pair: Pair):
    # Each step runs on both servers in turn, so both graphs hold the same whatever ran before.
    pair.call("create_entities", {"entities": PEOPLE})
    pair.call(
        "create_relations",
        {"relations": [{"from": "Ada", "to": "Widget", "relationType": "maintains"}]},
    )
    pair.call(
        "add_observations", {"observations": [{"entityName": "Ada", "contents": ["on call"]}]}
    )
    graph = pair.call("read_graph", {})
    assert {entity["name"] for entity in graph["result"]["structuredContent"]["entities"]} >= {
        "Ada",
        "Widget",
    }
    pair.call("search_nodes", {"query": "build"})
    pair.call("open_nodes", {"names": ["Ada", "Nobody"]})
    pair.same(lambda session: session.read_resource("memory://knowledge-graph"))


def test_trusted_deleting_answers_the_same(pair: Pair):
    scratch = {"name": "Scratch", "entityType": "note", "observations": ["to be removed"]}
    pair.call("create_entities", {"entities": [scratch]})
    pair.call(
        "delete_observations",
        {"deletions": [{"entityName": "Scratch", "observations": ["to be removed"]}]},
    )
    pair.call("delete_entities", {"entityNames": ["Scratch"]})
    found = pair.call("open_nodes", {"names": ["Scratch"]})
    assert found["result"]["structuredContent"]["entities"] == []


def test_trusted_a_subscriber_hears_of_a_change_the_same(tmp_path):
    box = Interop(tmp_path, "memory")
    heard: dict[str, list] = {"direct": [], "through": []}

    def listener(side: str):
        async def handle(message) -> None:
            if isinstance(message, types.ServerNotification):
                heard[side].append(message.model_dump(mode="json", exclude_none=True))

        return handle

    with (
        box.direct(
            MEMORY.launch(tmp_path / "direct"), message_handler=listener("direct")
        ) as direct,
        box.proxied(
            MEMORY.launch(tmp_path / "through"), "trusted", message_handler=listener("through")
        ) as through,
    ):
        for side, session in (("direct", direct), ("through", through)):
            session.request(ClientSession.subscribe_resource, "memory://knowledge-graph")
            session.call("create_entities", {"entities": PEOPLE})
            deadline = time.monotonic() + READ_TIMEOUT  # bounds a lost notification
            while not heard[side] and time.monotonic() < deadline:
                time.sleep(0.01)
    updated = {
        "jsonrpc": "2.0",
        "method": "notifications/resources/updated",
        "params": {"uri": "memory://knowledge-graph"},
    }
    assert heard == {"direct": [updated], "through": [updated]}


@pytest.mark.slow
def test_untrusted_a_read_taints_and_an_approved_entity_is_created(tmp_path):
    box = Interop(tmp_path, "memory")
    call = {"entities": PEOPLE[:1]}
    with box.direct(MEMORY.launch(tmp_path / "direct")) as direct:
        expected = direct.call("create_entities", call)
    graph = tmp_path / "data" / "memory.jsonl"
    with box.proxied(MEMORY.launch(tmp_path / "data"), "untrusted") as agent:
        assert agent.call("read_graph", {})["result"]["structuredContent"] == {
            "entities": [],
            "relations": [],
        }
        assert [(event["method"], event["tool"]) for event in box.taint()] == [
            ("tools/call", "read_graph")
        ]
        token = refusal_token(agent.call("create_entities", call))
        assert not graph.exists()
        box.approve(token)
        assert agent.call("create_entities", call) == expected
    assert [json.loads(line) for line in graph.read_text().splitlines()] == [
        {"type": "entity", **PEOPLE[0]}
    ]
