"""@modelcontextprotocol/server-everything, the reference server of every MCP feature, proxied.

Trusted, its tools (text, images, annotations, embedded resources, resource links, structured
content), resources, prompts and completions answer the same through the proxy as directly, and
so does the environment the server sees; so do its requests to the client (sampling, roots,
elicitation) and its progress notifications. Its dynamic resources name the time they were made
("created at 5:19:59 PM"): that clock is the one thing set aside when comparing. Untrusted, its
tools, resources and prompts read the same as directly too; a call taints the session, and
`gzip-file-as-resource` (it writes a resource into the server) is refused until a person approves
it; then the same call answers as the server does directly, and the resource can be listed and
read.
"""

import base64
import gzip
import re
from typing import Any

import pytest
from mcp import ClientSession, types
from pydantic import FileUrl
from support.interop import (
    Interop,
    Pair,
    installed,
    refusal_token,
    trusted_pair,
    untrusted_beside,
)
from support.interop_servers import EVERYTHING
from support.sdk_session import SdkSession

pytestmark = installed(EVERYTHING.executable)

CALLS = {
    "echo": {"message": "hello through the gate"},
    "get-sum": {"a": 2, "b": 40},
    "get-tiny-image": {},
    "get-annotated-message": {"messageType": "error", "includeImage": True},
    "get-resource-reference": {"resourceType": "Text", "resourceId": 2},
    "get-resource-links": {"count": 3},
    "get-structured-content": {"location": "New York"},
    "get-env": {},
}
RESOURCES = [
    "demo://resource/static/document/architecture.md",
    "demo://resource/dynamic/text/1",
    "demo://resource/dynamic/blob/1",
]
PROMPTS = {
    "simple-prompt": None,
    "args-prompt": {"city": "Lisbon", "state": "Lisboa"},
    "resource-prompt": {"resourceType": "Text", "resourceId": "1"},
}
GZIP = {
    "name": "notes.txt.gz",
    "data": "data:text/plain;base64," + base64.b64encode(b"hello world\n").decode(),
    "outputType": "resourceLink",
}
_CLOCK = re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?: [AP]M)?")


def without_clock(value: Any) -> Any:
    """`value` with every time of day (in text, and in base64 text) spelled as HH:MM:SS."""
    if isinstance(value, dict):
        return {
            key: _blob_without_clock(item) if key == "blob" else without_clock(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [without_clock(item) for item in value]
    return _CLOCK.sub("HH:MM:SS", value) if isinstance(value, str) else value


def _blob_without_clock(blob: str) -> str:
    return base64.b64encode(without_clock(base64.b64decode(blob).decode()).encode()).decode()


# The server asks the client too (sampling, roots, elicitation), once the client declares it can.
ASKING = {
    "trigger-sampling-request": ({"prompt": "A line about gates", "maxTokens": 20}, "keeps the"),
    "get-roots-list": ({}, "file:///srv/project"),
    "trigger-elicitation-request": ({}, "Name: Ada"),
}


async def sample(context, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
    """The client's model, answering the server's sampling request."""
    reply = types.TextContent(type="text", text="A gate keeps the garden.")
    return types.CreateMessageResult(role="assistant", content=reply, model="interop-model")


async def roots(context) -> types.ListRootsResult:
    """The client's workspace."""
    return types.ListRootsResult(roots=[types.Root(uri=FileUrl("file:///srv/project"))])


async def elicit(context, params: types.ElicitRequestParams) -> types.ElicitResult:
    """The person at the client, filling in the server's form."""
    return types.ElicitResult(action="accept", content={"name": "Ada"})


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    with trusted_pair(
        tmp_path_factory.mktemp("everything"),
        EVERYTHING,
        sampling_callback=sample,
        list_roots_callback=roots,
        elicitation_callback=elicit,
    ) as both:
        yield both


@pytest.fixture(scope="module")
def untrusted(pair, tmp_path_factory):
    with untrusted_beside(pair, EVERYTHING, tmp_path_factory.mktemp("untrusted")) as session:
        yield session


@pytest.mark.parametrize("tool", CALLS)
def test_trusted_a_tool_answers_the_same(pair: Pair, tool):
    outcome = pair.same(lambda session: without_clock(session.call(tool, CALLS[tool])))
    assert outcome["result"].get("isError") is not True


def test_trusted_a_client_that_answers_sees_the_same_tools(pair: Pair):
    tools = pair.same(lambda session: session.list_tools())["result"]["tools"]
    assert set(ASKING) <= {tool["name"] for tool in tools}


@pytest.mark.parametrize("tool", ASKING)
def test_trusted_the_server_asks_the_client_the_same(pair: Pair, tool):
    arguments, answered = ASKING[tool]
    assert answered in str(pair.call(tool, arguments)["result"]["content"])


def test_trusted_progress_reaches_the_client_the_same(pair: Pair):
    def run(session: SdkSession) -> dict:
        seen: list[tuple] = []

        async def progress(done: float, total: float | None, message: str | None) -> None:
            seen.append((done, total, message))

        operation = {"duration": 0.2, "steps": 2}
        outcome = session.request(
            ClientSession.call_tool, "trigger-long-running-operation", operation, None, progress
        )
        return {"outcome": outcome, "progress": seen}

    assert pair.same(run)["progress"] == [(1, 2, None), (2, 2, None)]


def test_trusted_the_sum_is_the_servers(pair: Pair):
    assert pair.call("get-sum", CALLS["get-sum"])["result"]["content"][0]["text"].endswith("42.")


@pytest.mark.parametrize("uri", RESOURCES)
def test_trusted_a_resource_reads_the_same(pair: Pair, uri):
    pair.same(lambda session: without_clock(session.read_resource(uri)))


@pytest.mark.parametrize("prompt", PROMPTS)
def test_trusted_a_prompt_reads_the_same(pair: Pair, prompt):
    pair.same(lambda session: without_clock(session.get_prompt(prompt, PROMPTS[prompt])))


# get-env shows the policy the proxy was started with: the one thing that tells them apart.
@pytest.mark.parametrize("tool", [tool for tool in CALLS if tool != "get-env"])
def test_untrusted_a_tool_answers_the_same(pair: Pair, untrusted: SdkSession, tool):
    direct = pair.direct.call(tool, CALLS[tool])
    assert without_clock(untrusted.call(tool, CALLS[tool])) == without_clock(direct)


@pytest.mark.parametrize("uri", RESOURCES)
def test_untrusted_a_resource_reads_the_same(pair: Pair, untrusted: SdkSession, uri):
    direct = pair.direct.read_resource(uri)
    assert without_clock(untrusted.read_resource(uri)) == without_clock(direct)


@pytest.mark.parametrize("prompt", PROMPTS)
def test_untrusted_a_prompt_reads_the_same(pair: Pair, untrusted: SdkSession, prompt):
    direct = pair.direct.get_prompt(prompt, PROMPTS[prompt])
    assert without_clock(untrusted.get_prompt(prompt, PROMPTS[prompt])) == without_clock(direct)


def test_trusted_a_completion_is_the_same(pair: Pair):
    def complete(session: SdkSession) -> dict:
        reference = types.PromptReference(type="ref/prompt", name="completable-prompt")
        return session.request(
            ClientSession.complete, reference, {"name": "department", "value": "E"}
        )

    assert pair.same(complete)["result"]["completion"]["values"] == ["Engineering"]


@pytest.mark.slow
def test_untrusted_a_call_taints_and_an_approved_resource_is_made(tmp_path):
    box = Interop(tmp_path, "everything")
    with box.direct(EVERYTHING.launch(tmp_path / "direct")) as direct:
        echoed = direct.call("echo", CALLS["echo"])
        expected = direct.call("gzip-file-as-resource", GZIP)
    with box.proxied(EVERYTHING.launch(tmp_path / "data"), "untrusted") as agent:
        assert agent.call("echo", CALLS["echo"]) == echoed
        assert [(event["method"], event["tool"]) for event in box.taint()] == [
            ("tools/call", "echo")
        ]
        uri = expected["result"]["content"][0]["uri"]
        token = refusal_token(agent.call("gzip-file-as-resource", GZIP))
        assert uri not in listed(agent)
        box.approve(token)
        assert agent.call("gzip-file-as-resource", GZIP) == expected
        assert uri in listed(agent)
        [content] = agent.read_resource(uri)["result"]["contents"]
    assert gzip.decompress(base64.b64decode(content["blob"])) == b"hello world\n"


def listed(session: SdkSession) -> list[str]:
    return [resource["uri"] for resource in session.list_resources()["result"]["resources"]]
