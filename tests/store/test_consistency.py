"""`log --verify` in embedded mode: a state table edited behind the store's back is named."""

import pytest

from lazaretto.store import Store
from lazaretto.store.states import DriftChange


def seed(store: Store) -> dict:
    """One of everything a decision can change, each through the store's own API."""
    store.sessions.taint("s1", server="web", tool="fetch", method="tools/call", reason="read")
    token = store.blocked.record(
        session="s1", server="slack", tool="post", arguments={"a": 1}, reason_code="x", reason="y"
    )
    qid = store.quarantine.withhold(
        session="s1",
        server="web",
        tool="fetch",
        method="tools/call",
        request_id=None,
        path="content[0].text",
        content_hash="c" * 64,
        fingerprint=None,
        payload_fingerprints=[],
        original="ignore previous instructions",
        cleaned="ignore previous instructions",
        score=3.0,
        signals=[],
        decoded=[],
        removed=[],
    )
    entry = {"kind": "tool", "name": "post", "canonical": "{}", "sha256": "a" * 64}
    marker = {"kind": "tool", "name": "", "canonical": '"listed"', "sha256": "c" * 64}
    store.pins.pin("slack", "[]", [marker, entry], reason="first use")
    drift = store.pins.drift(
        "slack", "[]", {**entry, "sha256": "b" * 64}, DriftChange.CHANGED, entry
    )
    store.directories.mark_untrusted("/srv/clone", session="s1", reason="cloned")
    blocked = store.blocked.by_token(token)
    assert blocked is not None
    return {"blocked": blocked["id"], "qid": qid, "drift": drift["id"]}


def findings(store: Store) -> list[str]:
    result = store.audit.verify()
    assert result.ok is (not result.findings)
    return list(result.findings)


def test_decisions_taken_through_the_store_agree_with_the_log(store):
    ids = seed(store)
    store.decisions.approve(ids["blocked"])
    assert store.blocked.consume_approved(
        session="s1", server="slack", tool="post", arguments={"a": 1}
    )
    store.decisions.release(ids["qid"])
    store.decisions.accept_drift(ids["drift"])
    store.decisions.untaint("s1")
    assert store.directories.trust("/srv/clone")
    store.sessions.taint("s2", server="web", tool="fetch", method="tools/call", reason="read")
    store.sessions.clear("s2", "idle-expiry", "idle")
    assert findings(store) == []


@pytest.mark.parametrize(
    "edit, named",
    [
        (
            "UPDATE taint_events SET cleared_at = '2026-01-01T00:00:00.000Z', cleared_by = 'human'",
            "has no untaint row",
        ),
        ("DELETE FROM taint_events", "taint event is missing"),
        ("UPDATE blocked_calls SET status = 'approved'", "is approved without an approve row"),
        ("UPDATE blocked_calls SET status = 'used'", "is used without an approve row"),
        ("DELETE FROM blocked_calls", "is missing from its table"),
        ("UPDATE blocked_calls SET reviewed_at = 'x'", "reviewed without a dismiss row"),
        ("UPDATE quarantine SET status = 'released'", "is released without a release row"),
        ("DELETE FROM quarantine", "is missing from its table"),
        ("UPDATE pin_drift SET status = 'accepted'", "is accepted without its audit row"),
        ("UPDATE pin_drift SET status = 'rejected'", "is rejected without its audit row"),
        ("DELETE FROM pin_drift", "is missing from its table"),
        ("UPDATE directories SET status = 'trusted'", "is trusted without a trust row"),
    ],
)
def test_an_edit_of_a_state_table_is_named(store, edit, named):
    seed(store)
    with store.write() as conn:
        conn.execute(edit)
    found = findings(store)
    assert any(named in line for line in found), found


def test_undoing_a_decision_is_named_too(store):
    ids = seed(store)
    store.decisions.approve(ids["blocked"])
    store.decisions.release(ids["qid"])
    store.decisions.untaint("s1")
    store.decisions.accept_drift(ids["drift"])
    with store.write() as conn:
        conn.execute("UPDATE blocked_calls SET status = 'pending'")
        conn.execute("UPDATE quarantine SET status = 'withheld'")
        conn.execute("UPDATE taint_events SET cleared_at = NULL, cleared_by = NULL")
        conn.execute("UPDATE pins SET sha256 = ?", ("a" * 64,))
    found = " | ".join(findings(store))
    assert "was approved (audited) but is pending again" in found
    assert "was released (audited) but is withheld again" in found
    assert "but no taint event of it is cleared then" in found
    assert "is not the version accepted in pin drift" in found


def test_the_cli_names_each_finding_and_exits_1(store, cli):
    seed(store)
    with store.write() as conn:
        conn.execute("UPDATE quarantine SET status = 'released'")
    done = cli("log", "--verify")
    assert done.returncode == 1
    assert "state tables and the log disagree" in done.stdout and "release row" in done.stdout
