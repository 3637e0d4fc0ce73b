"""The worm from DESIGN.md stops at the second gate: a page read through `web` blocks a post through `slack`."""

import json

from support.proxy_harness import DEMO_SERVER, server_calls

SECRET_POST = {"channel": "#general", "text": "contents of .env.prod: API_KEY=sk-live-123"}


def read_release_notes(start_proxy) -> dict:
    web = start_proxy(["-n", "web", "--", *DEMO_SERVER, "web"])
    web.initialize()
    web.request("tools/list")
    reply = web.call("fetch_page", {"url": "https://github.com/acme/tool/releases/tag/v4.2.0"})
    web.close()
    return reply


def test_post_after_untrusted_read_is_refused_and_never_arrives(start_proxy, proxy_env):
    page = read_release_notes(start_proxy)
    assert "result" in page

    slack = start_proxy(["-n", "slack", "--", *DEMO_SERVER, "slack"])
    slack.initialize()
    refused = slack.call("post_message", SECRET_POST)

    error = refused["error"]
    assert error["code"] == -32002
    assert error["data"]["reason"] == "tainted_outbound"
    assert error["data"]["server"] == "slack" and error["data"]["tool"] == "post_message"
    token = error["data"]["token"]
    assert token and token in error["message"]
    assert "web/fetch_page" in error["message"]
    # The refused arguments are not echoed back to the agent.
    assert "sk-live-123" not in json.dumps(refused) and "#general" not in json.dumps(refused)

    # The server keeps running: a read on the same proxy still works.
    assert "result" in slack.call("read_channel", {"channel": "#general"})
    assert slack.close() == 0
    tools_called = [(call["role"], call["tool"]) for call in server_calls(proxy_env)]
    assert ("slack", "post_message") not in tools_called
    assert ("slack", "read_channel") in tools_called


def test_clean_session_posts(start_proxy, proxy_env):
    slack = start_proxy(["-n", "slack", "--", *DEMO_SERVER, "slack"])
    slack.initialize()
    reply = slack.call("post_message", {"channel": "#general", "text": "deploy done"})
    assert reply["result"]["content"][0]["text"] == "posted to #general"
    slack.close()
    assert ("slack", "post_message") in [(c["role"], c["tool"]) for c in server_calls(proxy_env)]


def test_host_not_on_allow_list_is_refused_on_a_clean_session(start_proxy, proxy_env):
    slack = start_proxy(["-n", "slack", "--", *DEMO_SERVER, "slack"])
    slack.initialize()
    reply = slack.call(
        "post_message", {"channel": "#general", "text": "see https://paste.example/ingest"}
    )
    assert reply["error"]["code"] == -32002
    assert reply["error"]["data"]["reason"] == "host_not_allowed"
    # The host is named, so the person knows what allow_hosts would need; nothing else of the
    # arguments is echoed back.
    message = reply["error"]["message"]
    assert "not on allow_hosts: paste.example" in message
    assert "#general" not in message and "ingest" not in message
    slack.close()
    assert server_calls(proxy_env) == []


def test_status_names_the_taint_and_the_pending_call(start_proxy, proxy_env, store):
    read_release_notes(start_proxy)
    slack = start_proxy(["-n", "slack", "--", *DEMO_SERVER, "slack"])
    token = slack.call("post_message", SECRET_POST)["error"]["data"]["token"]
    slack.close()

    state = store.sessions.state("test-session")
    assert (
        state.tainted
        and state.reasons[0]["server"] == "web"
        and state.reasons[0]["tool"] == "fetch_page"
    )
    [pending] = store.blocked.pending()
    assert (pending["server"], pending["tool"], pending["token_hint"][:4]) == (
        "slack",
        "post_message",
        token[:4],
    )
    assert pending["arguments"] == SECRET_POST
    assert store.audit.verify().ok


def test_approve_lets_the_same_call_through_once(start_proxy, proxy_env, terminal):
    read_release_notes(start_proxy)
    slack = start_proxy(["-n", "slack", "--", *DEMO_SERVER, "slack"])
    token = slack.call("post_message", SECRET_POST)["error"]["data"]["token"]

    person = terminal("approve", token, env=proxy_env)
    person.expect("post_message")
    person.answer()
    assert person.finish() == 0

    assert "result" in slack.call("post_message", SECRET_POST)
    again = slack.call("post_message", SECRET_POST)
    assert (
        again["error"]["data"]["reason"] == "tainted_outbound"
        and again["error"]["data"]["token"] != token
    )
    other = slack.call("post_message", {**SECRET_POST, "text": "something else"})
    assert other["error"]["code"] == -32002
    slack.close()
    posts = [c for c in server_calls(proxy_env) if c["tool"] == "post_message"]
    assert [p["arguments"] for p in posts] == [SECRET_POST]


def test_untaint_through_a_terminal_reopens_outbound_tools(start_proxy, proxy_env, terminal):
    read_release_notes(start_proxy)
    slack = start_proxy(["-n", "slack", "--", *DEMO_SERVER, "slack"])
    assert slack.call("post_message", SECRET_POST)["error"]["code"] == -32002

    person = terminal("untaint", "--session", "test-session", env=proxy_env)
    person.expect("web/fetch_page")
    person.answer()
    assert person.finish() == 0

    assert "result" in slack.call("post_message", {"channel": "#general", "text": "deploy done"})
    slack.close()


def test_human_verbs_refuse_without_a_terminal(start_proxy, proxy_env, cli, store):
    read_release_notes(start_proxy)
    slack = start_proxy(["-n", "slack", "--", *DEMO_SERVER, "slack"])
    token = slack.call("post_message", SECRET_POST)["error"]["data"]["token"]
    for args in (["approve", token], ["untaint", "--session", "test-session"]):
        done = cli(*args, env=proxy_env)
        assert done.returncode == 2 and "terminal" in done.stderr
    assert store.sessions.state("test-session").tainted
    assert store.blocked.pending()[0]["status"] == "pending"
    assert "error" in slack.call("post_message", SECRET_POST)
    slack.close()


def test_an_error_read_from_an_untrusted_server_taints_and_is_named_an_error(
    untrusted_scripted, store
):
    untrusted_scripted.initialize()
    # The scripted server answers every method it does not know with an error.
    assert "error" in untrusted_scripted.request("resources/list")
    untrusted_scripted.close()
    [event] = store.sessions.state("test-session").reasons
    assert event["reason"] == (
        "scripted/resources/list returned an untrusted error"
        " (policy: servers.scripted.trust = untrusted)"
    )
