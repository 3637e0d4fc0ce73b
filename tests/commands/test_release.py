"""`lazaretto release`: what the prompt says releasing does is what the proxy will do."""

import pytest


@pytest.mark.parametrize("label", [False, True])
def test_the_prompt_mentions_labels_only_when_the_policy_turns_them_on(
    terminal, store, withhold, child_env, tmp_path, label
):
    qid = withhold()
    policy = tmp_path / "policy.toml"
    policy.write_text(f"label = {str(label).lower()}\n")
    term = terminal("release", qid, env={**child_env, "LAZARETTO_POLICY": str(policy)})
    term.expect(r"Type [0-9A-Z]{4} to ")
    said = " ".join(term.output.split())
    assert "the next time tickets/get_issue returns the same content" in said
    assert "still taints the session" in said
    assert "labelled" not in said
    assert ("provenance tags" in said) is label
    term.answer()
    assert term.finish() == 0
    assert store.quarantine.get(qid)["status"] == "released"


def test_help_names_both_choices_and_which_is_the_default(cli):
    done = cli("release", "--help")
    assert done.returncode == 0
    said = " ".join(done.stdout.split())
    assert (
        "--visible release the text a reader of the rendered content sees: hidden content "
        "removed, its payload not given to the agent (the default)"
    ) in said
    assert "--original release the field as the server sent it, hidden payload included" in said
    assert said.count("(the default)") == 1


def test_the_two_choices_cannot_be_given_together(cli, withhold):
    done = cli("release", withhold(), "--visible", "--original")
    assert done.returncode == 2 and "not allowed with argument" in done.stderr
