"""mcp-server-git (PyPI) behind the proxy.

Trusted, reading the repository and committing answer the same through the proxy as directly
(both servers work on one repository; with the identity and dates fixed, a commit has the same
hash whichever server makes it). Untrusted, every read answers the same as directly too; reading
the log taints the session, and `git_commit` is refused until a person approves it; then the same
call answers as the server does directly, and the commit is in the repository.
"""

import subprocess

import pytest
from support.interop import (
    Interop,
    Pair,
    installed,
    refusal_token,
    trusted_pair,
    untrusted_beside,
)
from support.interop_servers import GIT, GIT_IDENTITY
from support.sdk_session import SdkSession

pytestmark = installed(GIT.executable)

READS = {
    "git_status": {},
    "git_diff_unstaged": {},
    "git_diff_staged": {},
    "git_diff": {"target": "HEAD~1"},
    "git_log": {"max_count": 5},
    "git_show": {"revision": "HEAD"},
    "git_branch": {"branch_type": "local"},
}


def git(repo, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, env=GIT_IDENTITY, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    with trusted_pair(tmp_path_factory.mktemp("git"), GIT) as both:
        yield both


@pytest.fixture(scope="module")
def untrusted(pair, tmp_path_factory):
    with untrusted_beside(pair, GIT, tmp_path_factory.mktemp("untrusted")) as session:
        yield session


@pytest.mark.parametrize("tool", READS)
def test_trusted_a_read_answers_the_same(pair: Pair, tool):
    repo = str(pair.data / "repo")
    outcome = pair.call(tool, {"repo_path": repo, **READS[tool]})
    assert outcome["result"]["isError"] is False


@pytest.mark.parametrize("tool", READS)
def test_untrusted_a_read_answers_the_same(pair: Pair, untrusted: SdkSession, tool):
    arguments = {"repo_path": str(pair.data / "repo"), **READS[tool]}
    assert untrusted.call(tool, arguments) == pair.direct.call(tool, arguments)


def test_trusted_a_commit_answers_the_same(pair: Pair):
    repo = pair.data / "repo"

    def commit(session: SdkSession) -> dict:
        outcomes = [
            session.call("git_add", {"repo_path": str(repo), "files": ["README.md"]}),
            session.call("git_commit", {"repo_path": str(repo), "message": "Describe the size"}),
        ]
        assert git(repo, "log", "-1", "--format=%s") == "Describe the size\n"
        # Undo it, so the other server commits onto the same repository, and so do other tests.
        git(repo, "reset", "--soft", "HEAD~1")
        git(repo, "reset", "--quiet", "--", "README.md")
        return {"outcomes": outcomes}

    committed = pair.same(commit)
    assert [outcome["result"]["isError"] for outcome in committed["outcomes"]] == [False] * 2


@pytest.mark.slow
def test_untrusted_a_read_taints_and_an_approved_commit_is_made(tmp_path):
    box = Interop(tmp_path, "git")
    repo = tmp_path / "data" / "repo"
    call = {"repo_path": str(repo), "message": "Double the size"}
    with box.direct(GIT.launch(tmp_path / "direct")) as direct:
        expected = direct.call("git_commit", {**call, "repo_path": str(tmp_path / "direct/repo")})
    with box.proxied(GIT.launch(tmp_path / "data"), "untrusted") as agent:
        log = agent.call("git_log", {"repo_path": str(repo), "max_count": 1})
        assert "Message: Add the widget's size" in log["result"]["content"][0]["text"]
        assert [(event["method"], event["tool"]) for event in box.taint()] == [
            ("tools/call", "git_log")
        ]
        token = refusal_token(agent.call("git_commit", call))
        assert git(repo, "log", "-1", "--format=%s") == "Add the widget's size\n"
        box.approve(token)
        assert agent.call("git_commit", call) == expected
    head = git(repo, "log", "-1", "--format=%H %s").split(" ", 1)
    assert expected["result"]["content"][0]["text"].endswith(head[0])
    assert head[1] == "Double the size\n"
