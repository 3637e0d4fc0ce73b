"""`lazaretto log`: the audit rows, and `--verify` naming the first tampered row."""

import json
import os
import pwd
import sqlite3


def seed(store, block_call) -> None:
    token = block_call(session="agent-1")
    store.decisions.approve(store.blocked.by_token(token)["id"], note="checked it")


def test_rows_in_order_with_the_people_s_notes(cli, store, block_call):
    seed(store, block_call)
    result = cli("log")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == [
        "TIME", "(UTC)", "ACCOUNT", "ACTOR", "ACTION", "SESSION", "SUBJECT", "REASON"
    ]  # fmt: skip
    assert [line.split()[4] for line in lines[1:]] == ["taint", "refuse", "approve"]
    assert "human" in lines[3] and "blocked:1" in lines[3] and "(note: checked it)" in lines[3]
    # Each row names the account of the process that wrote it: here, the test's own.
    assert {line.split()[2] for line in lines[1:]} == {pwd.getpwuid(os.getuid()).pw_name}


def test_limit_and_json(cli, store, block_call):
    seed(store, block_call)
    result = cli("log", "--limit", "2", "--json")
    rows = json.loads(result.stdout)["rows"]
    assert {row["uid"] for row in rows} == {os.getuid()}
    assert [row["action"] for row in rows] == ["refuse", "approve"]
    assert rows[1]["actor"] == "human" and rows[1]["detail"]["note"] == "checked it"
    assert cli("log", "--limit", "0").returncode == 2


def test_verify_an_intact_chain(cli, store, block_call):
    seed(store, block_call)
    result = cli("log", "--verify")
    assert result.returncode == 0
    assert result.stdout.strip() == "ok: 3 rows, chain intact, state tables agree with it"


def test_verify_names_the_tampered_row(cli, store, block_call, store_path):
    seed(store, block_call)
    store.close()
    # Only someone bypassing the store would do this: drop the append-only trigger and edit.
    conn = sqlite3.connect(store_path)
    conn.execute("DROP TRIGGER audit_no_update")
    conn.execute("UPDATE audit SET reason = 'nothing to see here' WHERE id = 2")
    conn.commit()
    conn.close()
    result = cli("log", "--verify")
    assert result.returncode == 1
    assert result.stdout.startswith("tampered: row 2: ")
    assert "does not match its hash" in result.stdout
    verdict = json.loads(cli("log", "--verify", "--json").stdout)
    assert verdict["ok"] is False and verdict["row"] == 2


def test_verify_notices_a_deleted_row(cli, store, block_call, store_path):
    seed(store, block_call)
    store.close()
    conn = sqlite3.connect(store_path)
    conn.execute("DROP TRIGGER audit_no_delete")
    conn.execute("DELETE FROM audit WHERE id = 2")
    conn.commit()
    conn.close()
    result = cli("log", "--verify")
    assert result.returncode == 1
    assert result.stdout.startswith("tampered: row 3: row 2 is missing")


def test_an_empty_log(cli):
    assert cli("log").stdout.strip() == "The audit log is empty."
    assert (
        cli("log", "--verify").stdout.strip()
        == "ok: 0 rows, chain intact, state tables agree with it"
    )
