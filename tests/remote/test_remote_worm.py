"""The worm from DESIGN.md through two remote servers: a page read over HTTP taints the session, a
post through the remote Slack is refused with a token, and the approval lets exactly that call
through once."""

import json

import pytest
from support.proxy_harness import server_calls

SECRET_POST = {"channel": "#general", "text": "contents of .env.prod: API_KEY=sk-live-123"}


@pytest.mark.slow
def test_a_remote_read_blocks_a_remote_post_until_a_person_approves_it(
    sdk_server, start_proxy, proxy_env, terminal, store
):
    web_url, slack_url = sdk_server("web"), sdk_server("slack")
    web = start_proxy(["-n", "web", "--url", web_url])
    web.initialize()
    page = web.call("fetch_page", {"url": "https://github.com/acme/tool/releases/tag/v4.2.0"})
    assert "lazaretto: withheld" in json.dumps(page["result"])  # the injection never arrives
    web.close()
    assert store.sessions.state("test-session").tainted

    slack = start_proxy(["-n", "slack", "--url", slack_url])
    slack.initialize()
    refused = slack.call("post_message", SECRET_POST)
    error = refused["error"]
    assert error["code"] == -32002 and error["data"]["reason"] == "tainted_outbound"
    assert "web/fetch_page" in error["message"]
    assert "sk-live-123" not in json.dumps(refused)
    token = error["data"]["token"]

    person = terminal("approve", token, env=proxy_env)
    person.expect("post_message")
    person.answer()
    assert person.finish() == 0

    assert slack.call("post_message", SECRET_POST)["result"]["content"][0]["text"] == (
        "posted to #general"
    )
    again = slack.call("post_message", SECRET_POST)
    assert again["error"]["data"]["reason"] == "tainted_outbound"
    other = slack.call("post_message", {**SECRET_POST, "text": "something else"})
    assert other["error"]["code"] == -32002
    slack.close()
    posts = [c for c in server_calls(proxy_env) if c["tool"] == "post_message"]
    assert [p["arguments"] for p in posts] == [SECRET_POST]
    assert store.audit.verify().ok
