"""Every human-only verb, the store and the hook settings stay out of the agent's reach, however disguised."""

import shlex

import pytest

from lazaretto.proxy.hooks.commands import HUMAN_VERBS, check_command, check_tool_input
from lazaretto.store import resolve_store_path

CWD = "/home/user/project"

# Each form runs `lazaretto VERB` in another disguise; {v} is the verb.
DISGUISES = [
    "lazaretto {v} X",
    "/usr/local/bin/lazaretto {v} X",
    "sh -c 'lazaretto {v} X'",
    'bash -lc "lazaretto {v} X"',
    "zsh -c 'cd /tmp && lazaretto {v} X'",
    "python -m lazaretto.app {v} X",
    "python3 -m lazaretto {v} X",
    "python3.11 -m lazaretto.app.commands.{v}",
    "env LAZARETTO_SESSION=other lazaretto {v} X",
    "env -S 'lazaretto {v} X'",
    "LAZARETTO_STORE=/tmp/s.db lazaretto {v} X",
    "sudo -u root lazaretto {v} X",
    "timeout 5 nohup lazaretto {v} X",
    "uvx lazaretto {v} X",
    "uv run lazaretto {v} X",
    "npx -y lazaretto {v} X",
    "echo X | xargs lazaretto {v}",
    "find . -exec lazaretto {v} {{}} \\;",
    "echo $(lazaretto {v} X)",
    "echo `lazaretto {v} X`",
    "eval 'lazaretto {v} X'",
    "true && lazaretto {v} X",
    "ls; lazaretto {v} X",
    "(lazaretto {v} X)",
    "L=lazaretto; $L {v} X",
    "LAZARETTO.EXE {v} X",
]


@pytest.mark.parametrize("verb", sorted(HUMAN_VERBS))
@pytest.mark.parametrize("form", DISGUISES)
def test_human_verbs_are_refused_in_every_disguise(verb, form):
    reason = check_command(form.format(v=verb), CWD)
    assert reason, form.format(v=verb)


@pytest.mark.parametrize("verb", ["unwrap", "uninstall"])
def test_disarming_verbs_are_refused(verb):
    reason = check_command(f"sh -c 'lazaretto {verb} ~/.claude.json'", CWD)
    assert reason is not None and "take Lazaretto out" in reason


def test_a_script_run_by_a_shell_is_read_too(tmp_path):
    script = tmp_path / "innocent.sh"
    script.write_text("echo hi\nlazaretto approve K7QF-2M9X\n")
    assert check_command(f"bash {script}", str(tmp_path))
    assert check_command("sh innocent.sh", str(tmp_path))


def test_inline_code_using_lazaretto_is_refused():
    assert check_command(
        "python -c 'from lazaretto.store import Store; Store().decisions.untaint(\"s\")'", CWD
    )
    assert check_command(
        "node -e \"require('child_process').execSync('lazaretto approve X')\"", CWD
    )


@pytest.mark.slow
def test_a_line_nested_too_deeply_to_read_is_refused():
    command = "echo hi"
    for _ in range(12):
        command = f"sh -c {shlex.quote(command)}"
    reason = check_command(command, CWD)
    assert reason is not None and "cannot be checked" in reason


@pytest.mark.parametrize(
    "command",
    [
        "sqlite3 {store} 'update taint_events set cleared_at = 1'",
        "sqlite3 -readonly {store} .dump",
        "cat {store}",
        "cp {store} /tmp/copy.db",
        "python3 -c \"import sqlite3; sqlite3.connect('{store}')\"",
        "sh -c 'sqlite3 {store}'",
        "echo x > {store}-wal",
    ],
)
def test_the_store_cannot_be_opened(command):
    store = str(resolve_store_path())
    assert check_command(command.format(store=store), CWD)


def test_the_default_store_folder_and_file_name_are_recognized(monkeypatch, tmp_path):
    monkeypatch.delenv("LAZARETTO_STORE")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    store = resolve_store_path()
    assert check_command(f"ls {store.parent}", CWD)
    assert check_command("sqlite3 lazaretto.db", CWD)


@pytest.mark.parametrize(
    "command",
    [
        "echo '{{\"disableAllHooks\": true}}' > .claude/settings.local.json",
        "cd .claude && echo '{{}}' > settings.local.json",
        "sed -i 's/lazaretto/true/' ~/.claude/settings.json",
        "tee .claude/settings.json < /tmp/evil.json",
        "cp /tmp/evil.json .claude/settings.local.json",
        "mv .claude /tmp/gone",
        "rm -rf ~/.claude",
        "rm .claude/*",
        "python3 -c \"open('.claude/settings.local.json','w').write('{{}}')\"",
        "jq '.disableAllHooks = true' ~/.claude/settings.json",
        "sh -c 'cat x > ~/.codex/hooks.json'",
        "rm ~/.cursor/hooks.json",
        "cp evil.toml ~/.codex/config.toml",
        "echo '{{}}' > .mcp.json",
        "sed -i 's/lazaretto//' ~/.claude.json",
        "echo 'trust = \"trusted\"' >> ~/.config/lazaretto/lazaretto.toml",
    ],
)
def test_hook_and_client_settings_cannot_be_changed(command):
    assert check_command(command.format(), CWD)


@pytest.mark.parametrize(
    "tool_input",
    [
        {"file_path": f"{CWD}/.claude/settings.local.json", "content": "{}"},
        {"file_path": "~/.claude/settings.json", "old_string": "lazaretto", "new_string": ""},
        {"file_path": f"{CWD}/.cursor/hooks.json", "content": "{}"},
        {"file_path": f"{CWD}/notes.md", "content": "set disableAllHooks to true"},
        {"notebook_path": "~/.codex/hooks.json"},
    ],
)
def test_file_tools_cannot_edit_settings(tool_input):
    assert check_tool_input(tool_input, CWD, writing=True)


def test_file_tools_cannot_read_the_store():
    assert check_tool_input({"file_path": str(resolve_store_path())}, CWD, writing=False)
    assert check_tool_input(
        {"path": str(resolve_store_path()), "pattern": "token"}, CWD, writing=False
    )


@pytest.mark.parametrize(
    "command",
    [
        "npm test",
        "lazaretto status",
        "lazaretto scan notes.txt",
        "lazaretto doctor",
        "cat .claude/settings.json",
        "jq . ~/.claude.json",
        "git status && git diff .claude/settings.json",
        "git commit -m 'show the review notes'",
        "echo approve",
        "grep -r trust src/",
    ],
)
def test_ordinary_commands_pass(command):
    assert check_command(command, CWD) is None


def test_reading_settings_with_a_file_tool_passes():
    assert (
        check_tool_input({"file_path": f"{CWD}/.claude/settings.json"}, CWD, writing=False) is None
    )


def test_deny_through_the_hook_process_exits_2_with_the_reason(run_hook, tmp_path):
    code, out, err = run_hook(
        "claude-code",
        "pre-tool-use",
        {
            "session_id": "s",
            "cwd": str(tmp_path),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "bash -c 'python3 -m lazaretto.app untaint'"},
            "tool_use_id": "t",
        },
    )
    assert code == 2
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "lazaretto untaint" in err


def test_codex_and_cursor_refuse_too(run_hook, tmp_path):
    code, out, _ = run_hook(
        "codex",
        "pre-tool-use",
        {
            "session_id": "s",
            "cwd": str(tmp_path),
            "tool_name": "Bash",
            "tool_input": {"command": ["bash", "-lc", "lazaretto trust ."]},
        },
    )
    assert code == 2 and out["hookSpecificOutput"]["permissionDecision"] == "deny"
    code, out, _ = run_hook(
        "cursor",
        "before-shell-execution",
        {
            "conversation_id": "c",
            "command": f"sqlite3 {resolve_store_path()}",
            "cwd": str(tmp_path),
        },
    )
    assert code == 0 and out["permission"] == "deny"
