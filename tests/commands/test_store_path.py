"""A `--store` path where there is no store is an error for every verb that reads: exit 2, with
why, and nothing created there (an empty store made on the spot would read as all clear)."""

import pytest

PIPED = [
    ["status"],
    ["status", "--json"],
    ["log"],
    ["log", "--verify"],
    ["pin", "{store}", "list"],
    ["pin", "{store}", "export"],
]
AT_A_TERMINAL = [
    ["approve", "K7QF-2M9X"],
    ["untaint"],
    ["release", "Q-7F3K9M"],
    ["show", "Q-7F3K9M"],
    ["trust", "{tmp}"],
    ["review"],
    ["pin", "{store}", "accept", "1"],
]


def spelled(args: list[str], missing, tmp_path) -> list[str]:
    """The verb's words with `--store MISSING` where the verb takes it."""
    words = [str(tmp_path) if w == "{tmp}" else w for w in args]
    if "{store}" in words:
        at = words.index("{store}")
        return [*words[:at], "--store", str(missing), *words[at + 1 :]]
    return [*words, "--store", str(missing)]


@pytest.mark.parametrize("args", PIPED, ids=" ".join)
def test_a_missing_store_is_an_error_not_an_empty_store(cli, tmp_path, args):
    missing = tmp_path / "typo" / "store.db"
    done = cli(*spelled(args, missing, tmp_path))
    assert done.returncode == 2, done
    assert f"there is no store at {missing}" in done.stderr
    assert "nothing was created" in done.stderr
    assert not missing.parent.exists()


@pytest.mark.parametrize("args", AT_A_TERMINAL, ids=" ".join)
def test_a_person_at_a_terminal_is_told_too(terminal, tmp_path, args):
    missing = tmp_path / "store-typo.db"
    term = terminal(*spelled(args, missing, tmp_path))
    assert term.finish() == 2
    assert "there is no store at" in term.output
    assert not missing.exists()


def test_an_existing_store_named_by_path_is_read(cli, tmp_path, store_path):
    from lazaretto.store import Store

    made = Store(store_path)
    made.sessions.ensure("s")
    made.close()
    assert cli("log", "--verify", "--store", str(store_path)).returncode == 0
