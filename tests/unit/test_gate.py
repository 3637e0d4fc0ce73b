"""The gate on its own: hosts first, then taint, approvals, and a store that is gone."""

import pytest

from lazaretto.proxy import hosts
from lazaretto.proxy.classify import classify
from lazaretto.proxy.gate import Gate
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
    assert response["error"]["data"] == {
        "reason": "tainted_outbound",
        "token": refusal.token,
        "server": "slack",
        "tool": "post",
    }
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
