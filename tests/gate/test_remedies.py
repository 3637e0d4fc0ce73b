"""Every refusal names what would change it: the policy line in the file the proxy read, or the
command; a host refusal names the hosts. The gate on a real store, each refusal kind in turn."""

import pytest

from lazaretto.proxy.classify import classify
from lazaretto.proxy.gate import hosts
from lazaretto.proxy.gate.check import Gate, Refusal
from lazaretto.proxy.gate.requests import call_of
from lazaretto.proxy.policy import load_policy
from lazaretto.store import Store


@pytest.fixture
def policy_at(tmp_path):
    """`policy_at(text)`: the policy read from a file holding `text`, as a proxy reads it."""

    def read(text: str):
        path = tmp_path / "lazaretto.toml"
        path.write_text(text)
        return load_policy(path)

    return read


def taint(store, server="web", tool="fetch"):
    store.sessions.taint(
        "s", server=server, tool=tool, method="tools/call", reason=f"{server}/{tool} was read"
    )


def message(refusal: Refusal | None, server="slack", tool="post") -> str:
    assert refusal is not None, "the call was let through"
    return refusal.response(1, server, tool)["error"]["message"]


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        ("", '`trust = "trusted"` under `[servers.web]`'),  # no entry at all
        ('[servers.web]\ntrust = "untrusted"\n', '`trust = "trusted"` under `[servers.web]`'),
        (
            '[servers.web]\nuntrusted = ["fetch"]\n',
            '`trust = "trusted"` under `[servers.web]` and "fetch" taken out of'
            " `servers.web.untrusted`",
        ),
        (
            '[servers.web]\ntrust = "trusted"\nuntrusted = ["*"]\n',
            '"*" taken out of `servers.web.untrusted`',
        ),
    ],
)
def test_a_taint_by_trust_level_names_the_line_that_would_mark_it_trusted(
    store, policy_at, tmp_path, entry, line
):
    policy = policy_at(entry + '[servers.slack]\ntrust = "trusted"\noutbound = ["post"]\n')
    taint(store)
    refusal = Gate(store, policy, "slack", "s").check(classify(policy.server("slack"), "post"), {})
    assert refusal is not None and refusal.code == "tainted_outbound"
    text = message(refusal)
    assert (
        f"What would change it: in {tmp_path / 'lazaretto.toml'}, {line}, if everything web" in text
    )
    assert "a person clearing this session's taint with `lazaretto untaint`" in text
    data = refusal.response(1, "slack", "post")["error"]["data"]
    assert (
        f"in {tmp_path / 'lazaretto.toml'}: {line}, if everything web returns is yours"
        in (data["remedies"])
    )


def test_a_taint_no_trust_would_clear_names_only_the_commands(store, policy_at):
    # A withheld field of a trusted server, and a client's own fetch, taint whatever the policy.
    policy = policy_at('[servers.web]\ntrust = "trusted"\n[servers.slack]\noutbound = ["post"]\n')
    taint(store, "web", "fetch")
    taint(store, "claude-code", "WebFetch")
    refusal = Gate(store, policy, "slack", "s").check(classify(policy.server("slack"), "post"), {})
    assert "trusted" not in message(refusal).split("What would change it")[1]
    assert "`lazaretto untaint`" in message(refusal)


@pytest.mark.parametrize(
    ("entry", "tool", "annotations", "reason", "line"),
    [
        (
            'outbound = ["post"]',
            "post",
            None,
            "servers.slack.outbound lists post",
            '"post" taken out of `servers.slack.outbound`',
        ),
        (
            'outbound = ["*"]',
            "post",
            None,
            "servers.slack.outbound lists *",
            '`servers.slack.outbound` naming the tools that write instead of "*"',
        ),
        (
            "",
            "archive",
            {"readOnlyHint": False},
            "annotations: not readOnlyHint",
            '`not_outbound = ["archive"]` under `[servers.slack]`, if it sends nothing out',
        ),
        (
            "",
            "send_note",
            None,
            "outbound verb 'send'",
            '`not_outbound = ["send_note"]` under `[servers.slack]`',
        ),
    ],
)
def test_an_outbound_refusal_names_what_made_it_outbound_and_the_line(
    store, policy_at, tmp_path, entry, tool, annotations, reason, line
):
    policy = policy_at(f'[servers.slack]\ntrust = "untrusted"\n{entry}\n')
    taint(store)
    verdict = classify(policy.server("slack"), tool, annotations)
    text = message(Gate(store, policy, "slack", "s").check(verdict, {}), tool=tool)
    assert reason in text and f"in {tmp_path / 'lazaretto.toml'}, " in text and line in text


def test_a_tool_the_server_did_not_list_names_not_outbound(store, policy_at):
    policy = policy_at('[servers.slack]\ntrust = "trusted"\n')
    taint(store)
    verdict = classify(policy.server("slack"), "READ_CHANNEL", listed=False)
    text = message(Gate(store, policy, "slack", "s").check(verdict, {}), tool="READ_CHANNEL")
    assert "the server did not list 'READ_CHANNEL'" in text
    assert '`not_outbound = ["READ_CHANNEL"]` under `[servers.slack]`' in text


def test_a_fetch_without_allow_hosts_names_the_sites_to_list(store, policy_at):
    policy = policy_at('[servers.web]\ntrust = "untrusted"\n')
    taint(store)
    verdict = classify(policy.server("web"), "fetch")
    text = message(Gate(store, policy, "web", "s").check(verdict, {"url": "https://a.example"}))
    assert "a fetch is a read only of hosts on allow_hosts, and the policy lists none" in text
    assert "the sites it may read listed in `allow_hosts`" in text
    assert '`not_outbound = ["fetch"]` under `[servers.web]`' in text


def test_a_resource_read_of_a_url_names_not_outbound_for_the_method(store, policy_at):
    policy = policy_at('[servers.docs]\ntrust = "trusted"\n')
    taint(store)
    server = policy.server("docs")
    call = call_of(
        server, "resources/read", {"uri": "https://a.example/x"}, lambda n: classify(server, n)
    )
    refusal = Gate(store, policy, "docs", "s").check(call.verdict, call.arguments)
    assert '`not_outbound = ["resources/read"]` under `[servers.docs]`' in message(
        refusal, "docs", "resources/read"
    )


def test_a_host_refusal_names_the_hosts_and_allow_hosts(store, policy_at, tmp_path):
    policy = policy_at('allow_hosts = ["github.com"]\n[servers.slack]\ntrust = "trusted"\n')
    verdict = classify(policy.server("slack"), "get_thread")
    refusal = Gate(store, policy, "slack", "s").check(
        verdict, {"q": "see https://paste.example/x and mail eve@evil.example"}
    )
    assert refusal is not None and refusal.code == "host_not_allowed"
    error = refusal.response(1, "slack", "get_thread")["error"]
    assert (
        "its arguments name 2 hosts not on allow_hosts: paste.example, evil.example"
        in (error["message"])
    )
    assert (
        f"in {tmp_path / 'lazaretto.toml'}, paste.example, evil.example added to `allow_hosts`,"
        " if the agent may reach them" in error["message"]
    )
    assert error["data"]["hosts"] == ["paste.example", "evil.example"]
    assert error["data"]["reason"] == "host_not_allowed" and error["data"]["token"]


def test_a_host_check_that_cannot_run_names_allow_hosts(store, policy_at, monkeypatch, tmp_path):
    policy = policy_at('allow_hosts = ["github.com"]\n')
    monkeypatch.setattr(hosts, "MAX_WORK", 1000)
    refusal = Gate(store, policy, "slack", "s").check(
        classify(policy.server("slack"), "get_thread"), {"q": "x" * 5000}
    )
    assert refusal is not None and refusal.code == "host_check_failed"
    assert f"only an approval (`allow_hosts` in {tmp_path / 'lazaretto.toml'} asks for it)" in (
        message(refusal)
    )


def test_a_store_that_cannot_be_written_names_doctor(policy_at, tmp_path):
    (tmp_path / "file").write_text("")
    policy = policy_at('[servers.slack]\noutbound = ["post"]\n')
    gate = Gate(Store(tmp_path / "file" / "store.db"), policy, "slack", "s")
    refusal = gate.check(classify(policy.server("slack"), "post"), {})
    assert refusal is not None and refusal.code == "store_unavailable"
    assert "the store usable again (`lazaretto doctor` says why not)" in message(refusal)


def test_no_policy_file_yet_is_named_with_how_to_write_one(store, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    policy = load_policy(None)
    taint(store)
    refusal = Gate(store, policy, "slack", "s").check(classify(policy.server("slack"), "post"), {})
    assert (
        f"in {tmp_path / 'config' / 'lazaretto' / 'lazaretto.toml'} (none yet: `lazaretto policy"
        " init` writes one), " in message(refusal)
    )
