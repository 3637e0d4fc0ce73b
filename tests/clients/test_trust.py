"""`lazaretto trust DIR`: only a person at a terminal, after the typed challenge, trusts a clone."""

import os


def test_trust_refuses_without_a_terminal(cli, store, tmp_path):
    clone = os.path.realpath(tmp_path / "tool")
    store.directories.mark_untrusted(clone, session="s", reason="cloned by the agent: git clone x")
    done = cli("trust", clone)
    assert done.returncode == 2 and "only a person" in done.stderr
    assert store.directories.untrusted_for(clone)


def test_trust_after_the_challenge(terminal, store, tmp_path):
    clone = os.path.realpath(tmp_path / "tool")
    store.directories.mark_untrusted(clone, session="s", reason="cloned by the agent: git clone x")
    term = terminal("trust", os.path.join(clone, "src"))
    term.expect(r"Type [0-9A-Z]{4} to ")
    assert "lies inside" in term.output and "git clone x" in term.output
    term.answer()
    assert term.finish() == 0
    assert store.directories.untrusted_for(clone) is None
    assert [row["action"] for row in store.audit.rows()][-1] == "trust"


def test_a_wrong_answer_trusts_nothing(terminal, store, tmp_path):
    clone = os.path.realpath(tmp_path / "tool")
    store.directories.mark_untrusted(clone, session="s", reason="cloned")
    term = terminal("trust", clone)
    term.answer(correct=False)
    assert term.finish() == 1
    assert store.directories.untrusted_for(clone)


def test_a_directory_that_is_not_untrusted_needs_nothing(terminal, tmp_path):
    term = terminal("trust", str(tmp_path))
    assert term.finish() == 1
    assert "nothing to do" in term.output
