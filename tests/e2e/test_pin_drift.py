"""Pinned surfaces through real proxies: a rug pull is hidden and refused until a person accepts it."""

import json
import sys
from pathlib import Path

import pytest

RUGPULL = [
    sys.executable,
    str(Path(__file__).resolve().parent.parent / "fixtures" / "rugpull_server.py"),
]
EVERYTHING = (
    Path(__file__).resolve().parent.parent / "node_modules" / ".bin" / "mcp-server-everything"
)
TRUSTED = '[servers.rug]\ntrust = "trusted"\n[servers.renamed]\ntrust = "trusted"\n'


@pytest.fixture
def rug(start_proxy, proxy_env, tmp_path):
    """Start a proxy around the rug-pull server in a given mode (a trusted server: only pins matter)."""
    policy = tmp_path / "rug.toml"
    policy.write_text(TRUSTED)

    def start(mode: str, name: str = "rug", policy_text: str | None = None):
        if policy_text is not None:
            policy.write_text(policy_text)
        env = {**proxy_env, "RUGPULL_MODE": mode, "LAZARETTO_POLICY": str(policy)}
        proxy = start_proxy(["-n", name, "--", *RUGPULL], env=env)
        proxy.initialize()
        return proxy

    return start


def names(proxy) -> list[str]:
    return [tool["name"] for tool in proxy.request("tools/list")["result"]["tools"]]


def call_three_times(proxy) -> None:
    for _ in range(3):
        assert "result" in proxy.call("a", {"x": 1})
    # The server announced its change; the proxy re-lists on its own and the client sees only the notice.
    if not proxy.notifications:
        proxy.notifications.append(proxy.recv())
    assert [n["method"] for n in proxy.notifications] == ["notifications/tools/list_changed"]


def test_a_changed_description_is_hidden_and_refused_until_accepted(
    rug, store, terminal, proxy_env
):
    proxy = rug("describe")
    assert names(proxy) == ["a", "b"]
    call_three_times(proxy)
    refused = proxy.call("b", {"x": 2})
    assert refused["error"]["code"] == -32003
    data = refused["error"]["data"]
    assert data["reason"] == "pin_drift" and data["tool"] == "b"
    assert f"lazaretto pin accept {data['drift']}" in refused["error"]["message"]
    assert names(proxy) == ["a"]
    assert "result" in proxy.call("a", {"x": 1})

    person = terminal("pin", "accept", str(data["drift"]), env=proxy_env)
    person.expect("paste.example")
    person.answer()
    assert person.finish() == 0
    assert "result" in proxy.call("b", {"x": 2})
    assert names(proxy) == ["a", "b"]
    assert [row["action"] for row in store.audit.rows()][-1] == "accept-drift"
    proxy.close()


def test_accepting_through_the_store_api_restores_the_tool(rug, store):
    proxy = rug("describe")
    names(proxy)
    call_three_times(proxy)
    drift = proxy.call("b")["error"]["data"]["drift"]
    store.decisions.accept_drift(drift)
    assert names(proxy) == ["a", "b"]
    proxy.close()


def test_a_new_tool_is_hidden(rug):
    proxy = rug("add")
    names(proxy)
    call_three_times(proxy)
    assert names(proxy) == ["a", "b"]
    assert proxy.call("c")["error"]["code"] == -32003
    assert "result" in proxy.call("b", {"x": 1})
    proxy.close()


def test_a_poisoned_first_description_is_withheld_on_first_sight(rug):
    proxy = rug("poison", policy_text='[servers.rug]\ntrust = "untrusted"\n')
    tools = proxy.request("tools/list")["result"]["tools"]
    description = tools[1]["description"]
    assert description.startswith("[lazaretto: withheld field Q-") and "id_rsa" not in json.dumps(
        tools
    )
    proxy.close()


def test_a_renamed_entry_gets_no_fresh_first_use(rug, store):
    first = rug("describe")
    names(first)
    first.close()
    renamed = rug("add", name="renamed")
    names(renamed)
    call_three_times(renamed)
    assert renamed.call("c")["error"]["data"]["reason"] == "pin_drift"
    assert store.pins.pending()[0]["server"] == "renamed"
    renamed.close()


def test_export_check_and_enforce_a_lock_file(rug, store, cli, proxy_env, tmp_path):
    proxy = rug("none")
    names(proxy)
    proxy.close()
    lock = tmp_path / "pins.lock.json"
    assert cli("pin", "export", "-o", str(lock), env=proxy_env).returncode == 0
    document = json.loads(lock.read_text())
    assert set(document["servers"]["rug"]["entries"]) >= {"tool:a", "tool:b"}

    clean = cli(
        "pin", "check", str(lock), "--", *RUGPULL, env={**proxy_env, "RUGPULL_MODE": "none"}
    )
    assert clean.returncode == 0, clean.stdout + clean.stderr
    drifted = cli(
        "pin", "check", str(lock), "--", *RUGPULL, env={**proxy_env, "RUGPULL_MODE": "poison"}
    )
    assert drifted.returncode == 1 and "changed  tool:b" in drifted.stdout

    enforced = rug("poison", policy_text=f'[servers.rug]\ntrust = "trusted"\nlock = "{lock}"\n')
    assert names(enforced) == ["a"]
    assert enforced.call("b")["error"]["code"] == -32003
    enforced.close()


@pytest.mark.npm
@pytest.mark.skipif(
    not EVERYTHING.exists(), reason="run tests/install-npm-servers (done by .ci/run)"
)
def test_server_everything_pins_cleanly_and_stays_stable_across_restarts(
    start_proxy, proxy_env, store, tmp_path
):
    policy = tmp_path / "e.toml"
    policy.write_text('[servers.everything]\ntrust = "trusted"\n')
    env = {**proxy_env, "LAZARETTO_POLICY": str(policy)}
    seen = []
    for _ in range(2):
        proxy = start_proxy(["-n", "everything", "--", str(EVERYTHING), "stdio"], env=env)
        proxy.initialize()
        seen.append([t["name"] for t in proxy.request("tools/list")["result"]["tools"]])
        proxy.request("prompts/list")
        proxy.request("resources/templates/list")
        proxy.close()
    assert seen[0] == seen[1] and len(seen[0]) > 5
    assert store.pins.pending() == []
    assert (
        store.query("SELECT count(*) AS n FROM pins WHERE kind = 'tool'")[0]["n"]
        == len(seen[0]) + 1
    )


def test_pin_decisions_refuse_without_a_terminal(cli, proxy_env):
    done = cli("pin", "accept", "1", env=proxy_env)
    assert done.returncode == 2 and "terminal" in done.stderr


@pytest.fixture
def lock_file(rug, cli, proxy_env, tmp_path):
    """The rug server's surface pinned and exported to a lock file."""
    proxy = rug("none")
    names(proxy)
    proxy.close()
    lock = tmp_path / "pins.lock.json"
    assert cli("pin", "export", "-o", str(lock), env=proxy_env).returncode == 0
    return lock


@pytest.mark.parametrize(
    "options", [["-n", "rug"], ["--name=rug"], ["-n", "rug", "--timeout", "60"]]
)
def test_pin_check_reads_its_usage_line_as_printed(lock_file, cli, proxy_env, options):
    done = cli(
        "pin", "check", str(lock_file), *options, "--", *RUGPULL,
        env={**proxy_env, "RUGPULL_MODE": "none"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "rug: matches the lock file" in done.stdout


def test_pin_check_says_what_is_wrong_with_its_arguments(lock_file, cli, proxy_env):
    done = cli("pin", "check", str(lock_file), "-x", "--", *RUGPULL, env=proxy_env)
    assert done.returncode == 2
    assert (
        "unexpected '-x' before --" in done.stderr and "Usage: lazaretto pin check" in done.stderr
    )


def test_pin_check_gives_up_on_a_server_that_never_answers(lock_file, cli, proxy_env):
    silent = [sys.executable, "-c", "import time; time.sleep(600)"]
    done = cli(
        "pin", "check", str(lock_file), "-n", "rug", "--timeout", "1", "--", *silent, env=proxy_env
    )
    assert done.returncode == 2
    assert "did not answer initialize within 1 seconds" in done.stderr


@pytest.mark.parametrize(
    ("version", "said"),
    [
        (2, "written by a newer Lazaretto; this one reads version 1"),
        ("1", "which this Lazaretto does not know"),
        (None, "not a Lazaretto lock file"),
    ],
)
def test_a_lock_file_of_another_version_is_refused(
    lock_file, cli, proxy_env, tmp_path, version, said
):
    document = json.loads(lock_file.read_text())
    if version is None:
        del document["lazaretto_lock"]
    else:
        document["lazaretto_lock"] = version
    lock_file.write_text(json.dumps(document))
    checked = cli("pin", "check", str(lock_file), "--", *RUGPULL, env=proxy_env)
    assert checked.returncode == 2 and said in checked.stderr
    policy = tmp_path / "locked.toml"
    policy.write_text(f'[servers.rug]\ntrust = "trusted"\nlock = "{lock_file}"\n')
    proxy = cli(
        "proxy", "-n", "rug", "--", *RUGPULL, env={**proxy_env, "LAZARETTO_POLICY": str(policy)}
    )
    assert proxy.returncode == 2 and said in proxy.stderr


def pin_first_use(rug) -> None:
    """A first session lists the rug server's tools a and b: they are pinned."""
    first = rug("none")
    assert names(first) == ["a", "b"]
    first.close()


def test_a_call_sent_right_behind_the_list_that_reveals_drift_is_refused(rug):
    pin_first_use(rug)
    proxy = rug("changed")
    # A client need not wait for the list before it calls: both lines go out in one write.
    proxy.send_raw(
        json.dumps({"jsonrpc": "2.0", "id": 101, "method": "tools/list"}).encode()
        + b"\n"
        + json.dumps(
            {"jsonrpc": "2.0", "id": 102, "method": "tools/call", "params": {"name": "b"}}
        ).encode()
        + b"\n"
    )
    answers = {reply["id"]: reply for reply in (proxy.recv(), proxy.recv())}
    assert [tool["name"] for tool in answers[101]["result"]["tools"]] == ["a"]
    assert answers[102]["error"]["data"]["reason"] == "pin_drift", answers[102]
    proxy.close()


def test_a_proxy_that_has_not_listed_yet_refuses_a_tool_another_saw_drift(rug):
    pin_first_use(rug)
    first = rug("changed")
    assert names(first) == ["a"]  # this proxy's list revealed the drift
    # Another proxy of the same server (a second session) is called before it lists anything.
    second = rug("changed")
    refused = second.call("b", {"x": 2})
    assert refused["error"]["data"]["reason"] == "pin_drift", refused
    assert "result" in second.call("a", {"x": 1})
    first.close()
    second.close()


def test_a_drift_the_newest_list_undoes_refuses_nothing(rug):
    pin_first_use(rug)
    drifted = rug("changed")
    assert names(drifted) == ["a"]
    drifted.close()
    reverted = rug("none")
    assert names(reverted) == ["a", "b"]  # the server serves what was pinned again
    assert "result" in reverted.call("b", {"x": 2})
    reverted.close()


def test_instructions_that_appear_after_the_first_use_are_drift(start_proxy, proxy_env, tmp_path):
    policy = tmp_path / "rug.toml"
    policy.write_text(TRUSTED)
    env = {**proxy_env, "RUGPULL_MODE": "none", "LAZARETTO_POLICY": str(policy)}
    first = start_proxy(["-n", "rug", "--", *RUGPULL], env=env)
    assert "instructions" not in first.initialize()["result"]  # pinned as having none
    first.close()
    env["RUGPULL_INSTRUCTIONS"] = "Always call b before a."
    second = start_proxy(["-n", "rug", "--", *RUGPULL], env=env)
    shown = second.initialize()["result"]["instructions"]
    assert "changed since they were pinned" in shown, shown
    second.close()
