"""`lazaretto status`: taint and pending calls, never arguments or full tokens."""

import json

from lazaretto.store import Store

SECRET = "the-argument-nobody-should-see"


def seed(store, block_call) -> str:
    store.sessions.ensure("quiet")
    return block_call(session="agent-1", arguments={"text": SECRET})


def test_json_shape(cli, store, block_call):
    token = seed(store, block_call)
    result = cli("status", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report) == {"mode", "decisions", "sessions", "blocked", "policy"}
    assert report["mode"] == "embedded" and "any process of your user" in report["decisions"]
    sessions = {session["key"]: session for session in report["sessions"]}
    assert set(sessions) == {"quiet", "agent-1"}
    for session in report["sessions"]:
        assert set(session) == {"key", "label", "state", "ended", "tainted", "reasons"}
    assert sessions["quiet"] == {
        "key": "quiet",
        "label": "quiet",  # no client process recorded: its key is its name
        "state": "clean",
        "ended": False,
        "tainted": False,
        "reasons": [],
    }
    assert sessions["agent-1"]["tainted"] is True and sessions["agent-1"]["state"] == "tainted"
    [reason] = sessions["agent-1"]["reasons"]
    assert set(reason) == {"server", "tool", "method", "reason", "at"}
    assert (reason["server"], reason["tool"], reason["method"]) == ("web", "fetch", "tools/call")

    [call] = report["blocked"]
    assert set(call) == {
        "id",
        "token",
        "session",
        "server",
        "tool",
        "status",
        "reason_code",
        "created_at",
        "expires_at",
        "age_seconds",
    }
    assert call["token"] == token[:4] + "-····"
    assert (call["server"], call["tool"], call["status"]) == ("slack", "post_message", "pending")
    assert call["reason_code"] == "tainted" and call["session"] == "agent-1"
    assert isinstance(call["age_seconds"], int) and call["age_seconds"] >= 0
    assert call["expires_at"] > call["created_at"]
    assert SECRET not in result.stdout and token not in result.stdout


def test_human_form_names_taint_and_waiting_calls(cli, store, block_call):
    token = seed(store, block_call)
    result = cli("status")
    assert result.returncode == 0, result.stderr
    assert "tainted" in result.stdout and "web/fetch" in result.stdout
    assert result.stdout.startswith("Decisions: embedded: any process of your user can act as you")
    assert "clean" in result.stdout
    assert token[:4] + "-····" in result.stdout and "post_message" in result.stdout
    assert SECRET not in result.stdout and token not in result.stdout


def test_decided_calls_are_no_longer_waiting(cli, store, block_call):
    token = seed(store, block_call)
    store.decisions.approve(store.blocked.by_token(token)["id"])
    report = json.loads(cli("status", "--json").stdout)
    assert report["blocked"] == []


def test_an_empty_store(cli):
    result = cli("status", "--json")
    report = json.loads(result.stdout)
    assert (report["sessions"], report["blocked"], report["mode"]) == ([], [], "embedded")
    assert "none" in cli("status").stdout


def test_explicit_store_path(cli, tmp_path):
    other = tmp_path / "elsewhere.db"
    s = Store(other)
    s.sessions.ensure("over-there")
    s.close()
    report = json.loads(cli("status", "--json", "--store", str(other)).stdout)
    assert [session["key"] for session in report["sessions"]] == ["over-there"]


def test_a_broken_policy_is_a_line_of_its_own_and_in_the_json(cli, child_env, tmp_path):
    policy = tmp_path / "lazaretto.toml"
    policy.write_text('[servers.slack]\ntrust = "untrusted"\noutbond = ["post_message"]\n')
    env = {**child_env, "LAZARETTO_POLICY": str(policy)}
    shown = cli("status", env=env)
    assert shown.returncode == 0
    assert shown.stdout.splitlines()[1] == (
        f"Policy: BROKEN, see `lazaretto policy check`: {policy}, line 3: unknown key `outbond`"
        " in `servers.slack`: did you mean `outbound`? Rename it, or remove it"
    )
    report = json.loads(cli("status", "--json", env=env).stdout)["policy"]
    assert (report["path"], report["broken"]) == (str(policy), True)
    assert report["problems"][0]["key"] == "servers.slack.outbond"
    assert report["problems"][0]["line"] == 3
    policy.write_text('[servers.slack]\ntrust = "untrusted"\noutbound = ["post_message"]\n')
    assert "Policy:" not in cli("status", env=env).stdout
    assert json.loads(cli("status", "--json", env=env).stdout)["policy"]["broken"] is False
