"""Refusals say what to do, as the agent receives them through real proxies: the policy line (in
the file the proxy read) or the command that would change each, the hosts a host refusal is
about, and the JSON-RPC error shape kept (fields only added)."""

import json

from support.proxy_harness import DEMO_SERVER

SECRET_POST = {"channel": "#general", "text": "contents of .env: API_KEY=sk-live-123"}


def test_the_worm_refusal_names_the_trust_line_and_the_outbound_entry(start_proxy, proxy_env):
    policy = proxy_env["LAZARETTO_POLICY"]
    web = start_proxy(["-n", "web", "--", *DEMO_SERVER, "web"])
    web.initialize()
    web.request("tools/list")
    web.call("fetch_page", {"url": "https://github.com/acme/tool/releases/tag/v4.2.0"})
    web.close()
    slack = start_proxy(["-n", "slack", "--", *DEMO_SERVER, "slack"])
    slack.initialize()
    error = slack.call("post_message", SECRET_POST)["error"]
    assert error["code"] == -32002
    assert {key: error["data"][key] for key in ("reason", "server", "tool")} == {
        "reason": "tainted_outbound",
        "server": "slack",
        "tool": "post_message",
    }
    assert error["data"]["token"] in error["message"]
    # web's `trust = "untrusted"` tainted the session; slack's outbound list made the post outbound.
    assert (
        f'What would change it: in {policy}, `trust = "trusted"` under `[servers.web]`, if'
        ' everything web returns is yours; or "post_message" taken out of'
        " `servers.slack.outbound`" in error["message"]
    )
    assert error["data"]["remedies"] == [
        f'in {policy}: `trust = "trusted"` under `[servers.web]`, if everything web returns is yours',
        f'in {policy}: "post_message" taken out of `servers.slack.outbound`',
        "a person clearing this session's taint with `lazaretto untaint`",
    ]
    assert "sk-live-123" not in json.dumps(error)
    slack.close()


def test_a_host_refusal_names_the_host(start_proxy, proxy_env):
    # The worm policy allows only github.com and api.github.com, on a clean session too.
    slack = start_proxy(["-n", "slack", "--", *DEMO_SERVER, "slack"])
    slack.initialize()
    error = slack.call(
        "post_message", {"channel": "#general", "text": "see https://paste.example/raw/1"}
    )["error"]
    assert error["data"]["reason"] == "host_not_allowed"
    assert error["data"]["hosts"] == ["paste.example"]
    assert "its arguments name 1 host not on allow_hosts: paste.example" in error["message"]
    assert (
        f"in {proxy_env['LAZARETTO_POLICY']}, paste.example added to `allow_hosts`"
        in error["message"]
    )
    slack.close()
