"""The gate on its own: hosts first, then taint, approvals, and a store that is gone."""

import pytest

from lazaretto.proxy.classify import classify
from lazaretto.proxy.gate import hosts
from lazaretto.proxy.gate.check import Gate
from lazaretto.proxy.gate.requests import call_of
from lazaretto.proxy.policy import parse_policy
from lazaretto.store import Store

POLICY = parse_policy('allow_hosts = ["github.com"]\n[servers.slack]\noutbound = ["post"]\n')
POST = classify(POLICY.server("slack"), "post")
READ = classify(POLICY.server("slack"), "get_thread")


@pytest.fixture
def gate(store):
    return Gate(store, POLICY, "slack", "s")


def test_clean_session_passes_allowed_hosts_and_refuses_others(gate, store):
    assert gate.check(POST, {"text": "see https://github.com/a/b"}) is None
    refusal = gate.check(READ, {"q": "https://paste.example/x"})
    assert refusal.code == "host_not_allowed" and refusal.token
    assert store.blocked.by_token(refusal.token)["hosts"] == ["paste.example"]


def test_tainted_session_refuses_outbound_only(gate, store):
    store.sessions.taint(
        "s",
        server="web",
        tool="fetch",
        method="tools/call",
        reason="web/fetch returned untrusted content",
    )
    assert gate.check(READ, {"q": "x"}) is None
    refusal = gate.check(POST, {"text": "zq-secret-zq"})
    assert refusal.code == "tainted_outbound" and "web/fetch" in refusal.reason
    response = refusal.response(7, "slack", "post")
    assert response["error"]["code"] == -32002
    data = response["error"]["data"]
    assert {key: data[key] for key in ("reason", "token", "server", "tool")} == {
        "reason": "tainted_outbound",
        "token": refusal.token,
        "server": "slack",
        "tool": "post",
    }
    assert data["remedies"] == refusal.remedies.as_list()
    assert refusal.token in response["error"]["message"] and "zq-secret-zq" not in str(response)


def test_an_approved_call_passes_once(gate, store):
    store.sessions.taint("s", server="web", tool="fetch", method="tools/call", reason="r")
    refusal = gate.check(POST, {"text": "hi"})
    store.decisions.approve(store.blocked.by_token(refusal.token)["id"])
    assert gate.check(POST, {"text": "hi"}) is None
    assert gate.check(POST, {"text": "hi"}).code == "tainted_outbound"


def test_arguments_too_large_to_check_are_refused(gate, monkeypatch):
    monkeypatch.setattr(hosts, "MAX_WORK", 1000)
    assert gate.check(READ, {"q": "x" * 5000}).code == "host_check_failed"


def test_store_gone_refuses_outbound_without_a_token(tmp_path):
    (tmp_path / "file").write_text("")
    gate = Gate(Store(tmp_path / "file" / "store.db"), POLICY, "slack", "s")
    refusal = gate.check(POST, {"text": "hi"})
    assert refusal is not None
    assert refusal.code == "store_unavailable" and refusal.token is None
    assert "No approval token" in refusal.response(1, "slack", "post")["error"]["message"]
    assert gate.check(READ, {"q": "x"}) is None


FETCHING = parse_policy('allow_hosts = ["docs.example"]\n[servers.web]\ntrust = "untrusted"\n')


def tainted_gate(store, policy) -> Gate:
    store.sessions.taint(
        "s", server="web", tool="fetch", method="tools/call", reason="web/fetch returned a page"
    )
    return Gate(store, policy, "web", "s")


@pytest.mark.parametrize("name", ["fetch", "fetch_url", "webFetch", "fetch-page"])
def test_a_fetch_naming_only_allowed_hosts_reads_while_tainted(store, name):
    gate = tainted_gate(store, FETCHING)
    verdict = classify(FETCHING.server("web"), name)
    assert verdict.outbound and verdict.reads_urls
    assert gate.check(verdict, {"url": "https://docs.example/guide?page=2"}) is None
    assert gate.check(verdict, {"url": "https://docs.example/a", "method": "HEAD"}) is None


@pytest.mark.parametrize(
    "arguments",
    [
        {"url": "https://docs.example/upload", "method": "POST"},
        {"url": "https://docs.example/upload", "body": "the .env file"},
        {"query": "no url at all"},
    ],
)
def test_a_fetch_that_sends_or_names_no_host_stays_outbound(store, arguments):
    gate = tainted_gate(store, FETCHING)
    refusal = gate.check(classify(FETCHING.server("web"), "fetch"), arguments)
    assert refusal is not None and refusal.code == "tainted_outbound"


@pytest.mark.parametrize(
    ("policy", "name", "annotations"),
    [
        ('[servers.web]\noutbound = ["fetch"]\n', "fetch", None),  # the person said it writes
        ("", "fetch_and_post", None),  # another outbound verb
        ("", "fetch", {"readOnlyHint": False}),  # its annotations say it writes
        ("", "http_get", None),  # a general HTTP client can send with any method
    ],
)
def test_only_a_tool_that_just_fetches_counts_as_reading(policy, name, annotations):
    parsed = parse_policy('allow_hosts = ["docs.example"]\n' + policy)
    verdict = classify(parsed.server("web"), name, annotations)
    assert verdict.outbound and not verdict.reads_urls


def test_a_resource_at_an_allowed_url_is_read_like_a_fetch(store):
    gate = tainted_gate(store, FETCHING)
    server = FETCHING.server("web")
    allowed = call_of(server, "resources/read", {"uri": "https://docs.example/a"}, classify_web)
    assert gate.check(allowed.verdict, allowed.arguments) is None
    other = call_of(server, "resources/read", {"uri": "https://paste.example/a"}, classify_web)
    refused = gate.check(other.verdict, other.arguments)
    assert refused is not None and refused.code == "host_not_allowed"


def classify_web(name: str):
    return classify(FETCHING.server("web"), name)
