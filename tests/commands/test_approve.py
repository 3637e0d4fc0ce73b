"""`lazaretto approve`: one exact call, once, only for a person who typed the challenge."""

import subprocess
from datetime import timedelta

ARGS = {
    "channel": "#general",
    "text": "ship it",
    "attachments": [{"url": "https://hooks.slack.example/x"}],
}


def approval_rows(store) -> list[dict]:
    return [row for row in store.audit.rows() if row["action"] == "approve"]


def test_approve_lets_exactly_that_call_through_once(terminal, store, block_call):
    token = block_call(arguments=ARGS)
    term = terminal("approve", token)
    term.expect(r"Type [0-9A-Z]{4} to ")
    shown = term.output
    for fact in (
        "slack",
        "post_message",
        "agent-1",
        "outbound tools are refused",
        "[tainted]",
        "post_message sends a message",
        "read an untrusted page from web/fetch",
        "hooks.slack.example",
        "token expires in ",
        '"url": "https://hooks.slack.example/x"',
        '"text": "ship it"',
    ):
        assert fact in shown
    term.answer()
    assert term.finish() == 0
    assert "Approved" in term.output

    other = {**ARGS, "text": "ship it now"}
    call = {"session": "agent-1", "server": "slack", "tool": "post_message"}
    assert store.blocked.consume_approved(**call, arguments=other) is None
    assert (
        store.blocked.consume_approved(**{**call, "tool": "delete_message"}, arguments=ARGS) is None
    )
    used = store.blocked.consume_approved(**call, arguments=ARGS)
    assert used is not None and used["tool"] == "post_message"
    assert store.blocked.consume_approved(**call, arguments=ARGS) is None

    [row] = approval_rows(store)
    assert row["actor"] == "human" and row["session"] == "agent-1"
    assert store.audit.verify().ok


def test_a_used_token_cannot_be_approved_again(terminal, store, block_call):
    token = block_call(arguments=ARGS)
    first = terminal("approve", token)
    first.answer()
    assert first.finish() == 0
    again = terminal("approve", token)
    assert again.finish() == 1
    assert "approved, not waiting for approval" in again.output
    assert len(approval_rows(store)) == 1


def test_wrong_challenge_changes_nothing(terminal, store, block_call):
    token = block_call(arguments=ARGS)
    rows_before = len(store.audit.rows())
    term = terminal("approve", token)
    term.answer(correct=False)
    assert term.finish() == 1
    assert "Nothing was changed" in term.output
    assert store.blocked.by_token(token)["status"] == "pending"
    call = {"session": "agent-1", "server": "slack", "tool": "post_message"}
    assert store.blocked.consume_approved(**call, arguments=ARGS) is None
    assert len(store.audit.rows()) == rows_before


def test_empty_answer_changes_nothing(terminal, store, block_call):
    token = block_call()
    term = terminal("approve", token)
    term.expect(r"Type [0-9A-Z]{4} to ")
    term.type("")
    assert term.finish() == 1
    assert store.blocked.by_token(token)["status"] == "pending"


def test_refuses_without_a_terminal(cli, store, block_call):
    token = block_call()
    rows_before = len(store.audit.rows())
    result = cli("approve", token)
    assert result.returncode == 2
    assert "terminal" in result.stderr and "Nothing was changed" in result.stderr
    assert "Type" not in result.stdout
    assert store.blocked.by_token(token)["status"] == "pending"
    assert len(store.audit.rows()) == rows_before


def test_refuses_when_only_one_side_is_a_terminal(terminal, store, block_call):
    token = block_call()
    for sides in ({"stdout": subprocess.DEVNULL}, {"stdin": subprocess.DEVNULL}):
        term = terminal("approve", token, **sides)
        assert term.finish() == 2
        assert "only a person at an interactive terminal" in term.output
    assert store.blocked.by_token(token)["status"] == "pending"


def test_unknown_expired_and_malformed_tokens(terminal, block_call):
    expired = block_call(ttl_minutes=-1)
    unknown = terminal("approve", "ZZZZ-ZZZZ")
    assert unknown.finish() == 1
    assert "no blocked call has the token ZZZZ-ZZZZ" in unknown.output
    old = terminal("approve", expired)
    assert old.finish() == 1
    assert "expired" in old.output
    bad = terminal("approve", "not-a-token!")
    assert bad.finish() == 2
    assert "not an approval token" in bad.output


def test_hidden_characters_in_arguments_are_shown_as_escapes(terminal, block_call):
    token = block_call(arguments={"text": "hello\u202egnp.exe\u200b", "note": "a\x1b[2Jb"})
    term = terminal("approve", token)
    term.answer(correct=False)
    assert term.finish() == 1
    shown = term.output
    assert "\\u202e" in shown and "\\u200b" in shown and "\\u001b" in shown
    assert "\u202e" not in shown and "\x1b[2J" not in shown


def test_frequent_clearances_require_a_note(terminal, store, block_call):
    for n in range(3):
        earlier = block_call(session=f"other-{n}")
        store.decisions.approve(store.blocked.by_token(earlier)["id"])
    assert store.decisions.clearances(within=timedelta(hours=1)) == 3
    token = block_call(arguments=ARGS)

    silent = terminal("approve", token)
    silent.expect("4th clearance in the last hour")
    silent.expect(r"Note \(required\): ")
    silent.type("   ")
    assert silent.finish() == 1
    assert store.blocked.by_token(token)["status"] == "pending"

    term = terminal("approve", token)
    term.expect("4th clearance in the last hour")
    term.expect(r"Note \(required\): ")
    term.type("checked the message with the team lead")
    term.answer()
    assert term.finish() == 0
    assert approval_rows(store)[-1]["detail"]["note"] == "checked the message with the team lead"
