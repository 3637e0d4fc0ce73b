"""`lazaretto untaint`: a person reads each taint event and types the challenge to clear them."""


def taint(store, session: str, *reads: tuple[str, str]) -> None:
    store.sessions.ensure(session)
    for server, tool in reads:
        store.sessions.taint(
            session,
            server=server,
            tool=tool,
            method="tools/call",
            reason=f"untrusted result from {server}/{tool}",
        )


def untaint_rows(store) -> list[dict]:
    return [row for row in store.audit.rows() if row["action"] == "untaint"]


def test_untaint_shows_each_event_and_clears_after_the_challenge(terminal, store):
    taint(store, "agent-1", ("web", "fetch"), ("github", "get_issue"))
    taint(store, "agent-2", ("jira", "get_ticket"))
    term = terminal("untaint", "--session", "agent-1")
    term.expect(r"Type [0-9A-Z]{4} to ")
    assert "untrusted result from web/fetch" in term.output
    assert "untrusted result from github/get_issue" in term.output
    assert "jira" not in term.output
    term.answer()
    assert term.finish() == 0
    assert "Cleared 2 taint event(s) of session agent-1" in term.output
    assert not store.sessions.state("agent-1").tainted
    assert store.sessions.state("agent-2").tainted
    [row] = untaint_rows(store)
    assert row["actor"] == "human" and row["session"] == "agent-1"


def test_session_comes_from_the_environment(terminal, store, child_env):
    taint(store, "agent-1", ("web", "fetch"))
    taint(store, "agent-2", ("web", "fetch"))
    term = terminal("untaint", env={**child_env, "LAZARETTO_SESSION": "agent-2"})
    term.answer()
    assert term.finish() == 0
    assert store.sessions.state("agent-1").tainted
    assert not store.sessions.state("agent-2").tainted


def test_the_only_tainted_session_is_chosen(terminal, store):
    taint(store, "agent-1", ("web", "fetch"))
    store.sessions.ensure("agent-2")
    term = terminal("untaint")
    term.answer()
    assert term.finish() == 0
    assert not store.sessions.state("agent-1").tainted


def test_several_tainted_sessions_need_a_choice(terminal, store):
    taint(store, "agent-1", ("web", "fetch"))
    taint(store, "agent-2", ("jira", "get_ticket"))
    term = terminal("untaint")
    assert term.finish() == 2
    assert "--session" in term.output
    assert "agent-1" in term.output and "agent-2" in term.output
    assert "Type" not in term.output
    assert store.sessions.state("agent-1").tainted and store.sessions.state("agent-2").tainted


def test_wrong_challenge_changes_nothing(terminal, store):
    taint(store, "agent-1", ("web", "fetch"))
    term = terminal("untaint", "--session", "agent-1")
    term.answer(correct=False)
    assert term.finish() == 1
    assert store.sessions.state("agent-1").tainted
    assert untaint_rows(store) == []


def test_refuses_without_a_terminal(cli, store):
    taint(store, "agent-1", ("web", "fetch"))
    result = cli("untaint", "--session", "agent-1")
    assert result.returncode == 2
    assert "terminal" in result.stderr and "Nothing was changed" in result.stderr
    assert store.sessions.state("agent-1").tainted
    assert untaint_rows(store) == []


def test_a_clean_session_has_nothing_to_clear(terminal, store):
    store.sessions.ensure("agent-1")
    term = terminal("untaint", "--session", "agent-1")
    assert term.finish() == 1
    assert "not tainted" in term.output
    assert "Type" not in term.output


def test_a_read_that_arrives_while_the_person_looks_is_not_cleared_blind(terminal, store):
    taint(store, "agent-1", ("web", "fetch"))
    term = terminal("untaint", "--session", "agent-1")
    term.expect(r"Type [0-9A-Z]{4} to ")
    taint(store, "agent-1", ("jira", "get_ticket"))
    term.answer()
    assert term.finish() == 1
    assert "arrived meanwhile" in term.output
    assert len(store.sessions.state("agent-1").reasons) == 2
    assert untaint_rows(store) == []
