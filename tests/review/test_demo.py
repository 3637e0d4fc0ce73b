"""`lazaretto demo --no-ui` as a real process: real proxies, the bundled server, and the store it leaves."""

import json
import subprocess

from lazaretto.app.demo.driver import SESSION
from lazaretto.store import Store


def test_demo_leaves_a_tainted_session_withheld_fields_and_one_refused_post(
    lazaretto_cmd, child_env, tmp_path
):
    store_path = tmp_path / "demo" / "demo.db"
    done = subprocess.run(
        [*lazaretto_cmd, "demo", "--no-ui", "--store", str(store_path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=child_env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "refused (-32002)" in done.stdout and "never received it" in done.stdout
    store = Store(store_path)
    try:
        sessions = store.sessions.all()
        assert [(s["key"], s["tainted"]) for s in sessions] == [(SESSION, True)]
        withheld = store.quarantine.recent()
        assert {row["server"] for row in withheld} >= {"web", "tickets"}
        assert all(row["status"] == "withheld" and row["session"] == SESSION for row in withheld)
        [call] = store.blocked.pending()
        assert (call["server"], call["tool"], call["reason_code"]) == (
            "slack",
            "post_message",
            "tainted_outbound",
        )
    finally:
        store.close()
    # The real server got the three reads and never the post.
    calls = [
        json.loads(line)
        for line in (store_path.parent / "demo-server-calls.jsonl").read_text().splitlines()
    ]
    assert [call["tool"] for call in calls] == ["fetch_page", "get_issue", "read_inbox"]


def test_demo_refuses_to_write_into_an_existing_store(lazaretto_cmd, child_env, store_path, store):
    store.sessions.ensure("mine")
    done = subprocess.run(
        [*lazaretto_cmd, "demo", "--no-ui", "--store", str(store_path)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=child_env,
        timeout=60,
    )
    assert done.returncode == 2 and "writes a fresh store" in done.stderr
    assert [s["key"] for s in store.sessions.all()] == ["mine"]


def test_demo_without_a_terminal_needs_no_ui(lazaretto_cmd, child_env, tmp_path):
    done = subprocess.run(
        [*lazaretto_cmd, "demo", "--store", str(tmp_path / "d.db")],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=child_env,
        timeout=60,
    )
    assert done.returncode == 2 and "--no-ui" in done.stderr
    assert not (tmp_path / "d.db").exists()
