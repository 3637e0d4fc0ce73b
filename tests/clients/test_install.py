"""`lazaretto install` / `uninstall` / `doctor` in a temporary HOME: only Lazaretto's entries come and go."""

import json

import pytest

from lazaretto.app.clients.hook_settings import EVENTS, install, installed, ours

CLAUDE_SETTINGS = """{
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test)"], "deny": ["Bash(git push *)"]},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit.sh"}]}
        ],
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
    },
    "env": {"FOO": "bar"}
}
"""
CURSOR_HOOKS = """{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{ "command": "./hooks/format.sh" }],
    "beforeShellExecution": [{ "command": "./hooks/audit.sh" }]
  }
}
"""
CODEX_HOOKS = (
    '{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}\n'
)

USER_FILES = {
    "claude-code": (".claude/settings.json", CLAUDE_SETTINGS),
    "cursor": (".cursor/hooks.json", CURSOR_HOOKS),
    "codex": (".codex/hooks.json", CODEX_HOOKS),
}


def put(home, client):
    relative, text = USER_FILES[client]
    path = home / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path, text


@pytest.mark.parametrize("client", sorted(USER_FILES))
def test_install_then_uninstall_gives_back_every_byte(client, home, lazaretto):
    path, original = put(home, client)
    done = lazaretto("install", "--client", client)
    assert done.returncode == 0, done.stderr
    after = json.loads(path.read_text())
    assert set(installed(client, path)) == {event.key for event in EVENTS[client]}
    # The user's own hooks are still there, and first.
    before = json.loads(original)
    for key, groups in before["hooks"].items():
        assert after["hooks"][key][: len(groups)] == groups
    assert {k: v for k, v in after.items() if k != "hooks"} == {
        k: v for k, v in before.items() if k != "hooks"
    }
    assert lazaretto("uninstall", "--client", client).returncode == 0
    assert path.read_text() == original


@pytest.mark.parametrize("client", sorted(USER_FILES))
def test_install_is_idempotent(client, home, lazaretto):
    path, _ = put(home, client)
    lazaretto("install", "--client", client)
    once = path.read_text()
    again = lazaretto("install", "--client", client)
    assert "already installed" in again.stdout
    assert path.read_text() == once


def test_install_into_a_new_file_and_out_again(home, lazaretto):
    assert lazaretto("install", "--client", "claude-code").returncode == 0
    path = home / ".claude" / "settings.json"
    hooks = json.loads(path.read_text())["hooks"]
    pre = hooks["PreToolUse"][0]
    assert pre["matcher"] == "*"
    assert ours(pre["hooks"][0]["command"]) == ("claude-code", "pre-tool-use")
    assert hooks["PostToolUse"][0]["matcher"].startswith("^(mcp__.*|WebFetch")
    done = lazaretto("uninstall", "--client", "claude-code")
    # Install made the file from nothing; with our hooks gone, nothing of it is left.
    assert done.returncode == 0 and "removed" in done.stdout
    assert not path.exists()


def test_project_level_install(home, lazaretto, tmp_path):
    done = lazaretto("install", "--client", "cursor", "--project")
    assert done.returncode == 0, done.stderr
    project_hooks = tmp_path / "project" / ".cursor" / "hooks.json"
    data = json.loads(project_hooks.read_text())
    assert data["version"] == 1
    assert set(data["hooks"]) == {
        "postToolUse",
        "beforeShellExecution",
        "beforeMCPExecution",
        "preToolUse",
    }
    assert not (home / ".cursor").exists()


def test_all_installs_only_clients_that_are_present(home, lazaretto):
    (home / ".codex").mkdir()
    done = lazaretto("install")
    assert done.returncode == 0
    assert (home / ".codex" / "hooks.json").exists()
    assert not (home / ".claude").exists() and not (home / ".cursor").exists()
    assert "/hooks" in done.stdout  # Codex asks the user to trust new hooks


def test_a_changed_executable_replaces_our_entry_in_place(home):
    path, _ = put(home, "claude-code")
    path.write_text(install("claude-code", path, "/old/bin/lazaretto").new)
    updated = install("claude-code", path, "/new/bin/lazaretto").new
    assert "/old/bin/lazaretto" not in updated
    assert updated.count("hook claude-code pre-tool-use") == 1


def test_settings_that_are_not_json_are_left_alone(home, lazaretto):
    path = home / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text("{oops")
    done = lazaretto("install", "--client", "claude-code")
    assert done.returncode == 1 and "not valid JSON" in done.stderr
    assert path.read_text() == "{oops"


def test_doctor_reports_wrapped_unwrapped_remote_and_hooks(home, lazaretto, tmp_path):
    (home / ".claude").mkdir()
    config = tmp_path / "project" / ".mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "web": {"command": "npx", "args": ["fetch"]},
                    "remote": {"type": "sse", "url": "https://x.example/sse"},
                    "live": {"type": "ws", "url": "wss://x.example/ws"},
                }
            }
        )
    )
    report = lazaretto("doctor")
    assert report.returncode == 1
    assert "web: NOT WRAPPED" in report.stdout
    assert "remote: NOT WRAPPED, remote server https://x.example/sse" in report.stdout
    assert "live: NOT COVERED, WebSocket server" in report.stdout
    assert "MISSING: PreToolUse, PostToolUse" in report.stdout
    assert "cursor: not installed for this user" in report.stdout
    lazaretto("wrap", str(config))
    lazaretto("install", "--client", "claude-code")
    report = lazaretto("doctor")
    assert "web: wrapped" in report.stdout and "MISSING" not in report.stdout
    assert "remote: wrapped" in report.stdout
    assert "trust them in /hooks" in report.stdout
    assert report.returncode == 1  # the WebSocket server is still not covered


def test_doctor_lists_clones_not_yet_trusted(home, lazaretto, store):
    store.directories.mark_untrusted("/work/tool", session="s", reason="cloned by the agent")
    assert "/work/tool" in lazaretto("doctor").stdout


def test_doctor_flags_a_hook_command_that_cannot_run(home, lazaretto):
    path = home / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(install("claude-code", path, "/nowhere/lazaretto").new)
    report = lazaretto("doctor")
    assert "CANNOT RUN" in report.stdout and report.returncode == 1


def test_settings_that_are_a_directory_are_a_clear_error(home, lazaretto):
    (home / ".claude" / "settings.json").mkdir(parents=True)
    done = lazaretto("install", "--client", "claude-code")
    assert done.returncode == 1
    assert "is a directory, not a settings file" in done.stderr and "Traceback" not in done.stderr


def test_all_finds_claude_code_by_its_claude_json_alone(home, lazaretto):
    (home / ".claude.json").write_text('{"mcpServers": {}}\n')
    done = lazaretto("install")
    assert done.returncode == 0, done.stderr
    assert set(installed("claude-code", home / ".claude" / "settings.json")) == {
        event.key for event in EVENTS["claude-code"]
    }


def test_doctor_run_from_home_lists_each_file_once(home, lazaretto, monkeypatch):
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").write_text(
        json.dumps({"mcpServers": {"web": {"command": "npx", "args": ["fetch"]}}})
    )
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text('[mcp_servers.docs]\ncommand = "docs-server"\n')
    monkeypatch.chdir(home)
    report = lazaretto("doctor")
    assert report.stdout.count("web: NOT WRAPPED") == 1
    assert report.stdout.count("docs: NOT WRAPPED") == 1
    assert report.stdout.count(f"cursor: {home / '.cursor' / 'mcp.json'}") == 1
    # Two servers unwrapped, and the hooks of Cursor and Codex missing: four gaps, none twice.
    assert "4 gap(s) found." in report.stdout


def test_uninstall_keeps_a_file_that_was_there_before_install(home, lazaretto):
    path = home / ".cursor" / "hooks.json"
    path.parent.mkdir()
    path.write_text("{}\n")
    lazaretto("install", "--client", "cursor")
    lazaretto("uninstall", "--client", "cursor")
    assert path.read_text() == "{}\n"
