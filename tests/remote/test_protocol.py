"""Streamable HTTP as the specification has it, seen from the server's side of the wire."""

import base64
import json
import threading

import pytest
from support.scripted_http import (
    INIT_RESULT,
    Reply,
    json_reply,
    mcp_script,
    result,
    sse_reply,
    text_result,
)
from support.terminal import READ_TIMEOUT
from support.waiting import wait_for

REGION_TOOL = {
    "name": "query",
    "description": "Run a query in a region.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "options": {
                "type": "object",
                "properties": {"shard": {"type": "integer", "x-mcp-header": "Shard"}},
            },
            "sql": {"type": "string"},
        },
    },
}


def tools_and_echo(seen, message):
    if message["method"] == "tools/list":
        return json_reply(result(message["id"], {"tools": [REGION_TOOL]}))
    return json_reply(text_result(message["id"], "ok"))


@pytest.fixture
def modern_env(proxy_env, tmp_path) -> dict:
    """A policy without allow_hosts: main's host check reads the 2026-07-28 `_meta` key
    `io.modelcontextprotocol/protocolVersion` as a host (reported; not this transport's to fix)."""
    policy = tmp_path / "no-hosts.toml"
    policy.write_text('[servers.lab]\ntrust = "trusted"\n')
    return {**proxy_env, "LAZARETTO_POLICY": str(policy)}


def test_headers_are_built_from_the_body_that_is_sent(start_proxy, scripted, modern_env):
    server = scripted(mcp_script(tools_and_echo))
    env = {**modern_env, "TEAM_NAME": "blue"}
    proxy = start_proxy(
        ["-n", "lab", "--url", server.url, "--header", "X-Team: ${env:TEAM_NAME}"], env=env
    )
    proxy.initialize()
    proxy.request("tools/list")
    proxy.call("query", {"region": "us-west1", "options": {"shard": 7}, "sql": "select 1"})
    proxy.call("query", {"region": " Zürich ", "sql": "x"})
    read_reply = proxy.request(
        "resources/read",
        {
            "uri": "file:///tmp/a b",
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
        },
    )
    proxy.close()
    assert "result" in read_reply, read_reply
    initialize, initialized, listing, first, second, read = server.posts()
    assert "mcp-protocol-version" not in initialize.headers  # nothing is agreed before it
    assert initialize.headers["accept"] == "application/json, text/event-stream"
    assert initialized.headers["mcp-session-id"] == "s1"
    assert initialized.headers["mcp-protocol-version"] == INIT_RESULT["protocolVersion"]
    assert listing.headers["mcp-method"] == "tools/list" and "mcp-name" not in listing.headers
    assert (first.headers["mcp-method"], first.headers["mcp-name"]) == ("tools/call", "query")
    assert first.headers["mcp-param-region"] == "us-west1"
    assert first.headers["mcp-param-shard"] == "7"
    assert second.headers["mcp-param-region"] == (
        "=?base64?" + base64.b64encode(" Zürich ".encode()).decode() + "?="
    )
    assert "mcp-param-shard" not in second.headers  # absent from the arguments: no header
    assert read.headers["mcp-protocol-version"] == "2026-07-28"  # the request's own version
    assert read.headers["mcp-name"] == "file:///tmp/a b"
    for seen in server.seen:
        assert seen.headers["x-team"] == "blue"
    # The body went as the client wrote it.
    assert first.message["params"]["arguments"]["region"] == "us-west1"


def test_an_expired_session_is_renewed_with_the_clients_own_initialize(start_proxy, scripted):
    sessions = iter(["s1", "s2"])
    current: dict[str, str | None] = {"id": None}

    def respond(seen):
        if seen.method != "POST":
            return Reply(405) if seen.method == "GET" else Reply(204)
        message = seen.message
        if message.get("method") == "initialize":
            current["id"] = next(sessions)
            return json_reply(
                result(message["id"], {**INIT_RESULT, "instructions": "second"})
                if current["id"] == "s2"
                else result(message["id"], INIT_RESULT),
                headers={"Mcp-Session-Id": current["id"]},
            )
        if seen.headers.get("mcp-session-id") == "s1" and message.get("method") == "tools/call":
            return Reply(404, {"Content-Length": "0"})  # the server forgot session s1
        if "id" not in message:
            return Reply(202)
        return json_reply(text_result(message["id"], f"in {seen.headers['mcp-session-id']}"))

    server = scripted(respond)
    proxy = start_proxy(["-n", "lab", "--url", server.url])
    proxy.initialize()
    assert proxy.call("echo")["result"]["content"][0]["text"] == "in s2"
    assert proxy.call("echo")["result"]["content"][0]["text"] == "in s2"
    proxy.close()
    methods = [(p.message.get("method"), p.message.get("id")) for p in server.posts()]
    assert methods[:6] == [
        ("initialize", 1),
        ("notifications/initialized", None),
        ("tools/call", 2),
        ("initialize", "lazaretto-session-1"),
        ("notifications/initialized", None),
        ("tools/call", 2),
    ]
    # The renewed session's own answer never reached the client.
    assert all("second" not in json.dumps(n) for n in proxy.notifications)
    assert [s.headers.get("mcp-session-id") for s in server.seen if s.method == "DELETE"] == ["s2"]


def test_the_server_s_requests_and_notices_on_the_get_stream_are_judged(start_proxy, scripted):
    hidden = "Build\u200b passed\U000e0041\U000e0042"
    elicit = {
        "jsonrpc": "2.0",
        "id": "srv-1",
        "method": "elicitation/create",
        "params": {"message": hidden, "requestedSchema": {"type": "object", "properties": {}}},
    }
    notice = {
        "jsonrpc": "2.0",
        "method": "notifications/message",
        "params": {"level": "info", "data": hidden},
    }
    served = {"get": 0}

    def respond(seen):
        if seen.method == "GET":
            served["get"] += 1
            if served["get"] > 1:
                return Reply(405)
            return sse_reply(
                f"id: g1\ndata: {json.dumps(notice)}", f"id: g2\ndata: {json.dumps(elicit)}", hold=2
            )
        return mcp_script(lambda s, m: json_reply(text_result(m["id"], "ok")))(seen)

    server = scripted(respond)
    proxy = start_proxy(["-n", "lab", "--url", server.url])
    proxy.initialize()
    first, second = proxy.recv(), proxy.recv()
    assert first["method"] == "notifications/message" and second["method"] == "elicitation/create"
    for message in (first, second):
        text = json.dumps(message, ensure_ascii=False)
        assert "\u200b" not in text and "\U000e0041" not in text  # stripped before the client
    proxy.send({"jsonrpc": "2.0", "id": "srv-1", "result": {"action": "decline"}})
    wait_for(
        lambda: any(p.message.get("id") == "srv-1" for p in server.posts()), "the answer's POST"
    )
    answer = next(p for p in server.posts() if p.message.get("id") == "srv-1")
    assert answer.message["result"] == {"action": "decline"}
    assert answer.headers["mcp-session-id"] == "s1"
    proxy.close()


@pytest.mark.parametrize("early", [False, True], ids=["as it streams", "before it streams"])
def test_a_modern_cancellation_closes_the_stream_instead_of_posting(
    start_proxy, scripted, modern_env, early
):
    pinged = threading.Event()

    def respond(seen, message):
        if message["method"] == "ping":
            pinged.set()
            return json_reply(result(message["id"], {}))
        if early:
            # The proxy reads the client's lines one at a time: once the ping sent after the
            # cancellation is here, the cancellation was handled, before this answer began.
            pinged.wait(READ_TIMEOUT)
        return Reply(200, {"Content-Type": "text/event-stream"}, [b": working\n\n"], hold=30)

    server = scripted(mcp_script(respond, session=None))
    proxy = start_proxy(["-n", "lab", "--url", server.url], env=modern_env)
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    proxy.send(
        {
            "jsonrpc": "2.0",
            "id": 9,
            "method": "tools/call",
            "params": {"name": "slow", "arguments": {}, "_meta": meta},
        }
    )
    wait_for(server.posts, "the call's POST")
    proxy.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}})
    if early:
        proxy.send({"jsonrpc": "2.0", "id": 10, "method": "ping"})
    replies = {reply["id"]: reply for reply in [proxy.recv() for _ in range(1 + early)]}
    assert replies[9]["error"]["data"]["reason"] == "cancelled"
    proxy.close()
    assert "notifications/cancelled" not in [p.message.get("method") for p in server.posts()]
