"""How `wrap`, `unwrap`, `install` and `uninstall` write a user's file: hook settings come back byte
for byte, a config kept in a dotfiles folder stays a link, its mode stays, and a write that fails
half way leaves the file as it was."""

import json
import os
import resource
import subprocess
import sys

import pytest

from lazaretto.app.clients.files import ChangedMeanwhile, read_text, write_atomic

# Hook settings as people and clients write them.
SETTINGS = {
    # Claude Code on Windows: CRLF, an empty "hooks" of the user's own, escapes.
    "claude-code": (
        ".claude/settings.json",
        '{\r\n  "model": "opus",\r\n  "statusLine": "caf\\u00e9 \\/ build",\r\n'
        '  "hooks": {}\r\n}\r\n',
    ),
    # Cursor: only the version, on one line, no final newline.
    "cursor": (".cursor/hooks.json", '{"version": 1}'),
    # Codex: tabs, one hook of the user's own, no final newline.
    "codex": (
        ".codex/hooks.json",
        '{\n\t"hooks": {\n\t\t"SessionStart": [ { "hooks": [ { "type": "command", '
        '"command": "echo hi" } ] } ]\n\t}\n}',
    ),
}


@pytest.mark.parametrize("client", sorted(SETTINGS))
def test_install_then_uninstall_gives_the_settings_back_byte_for_byte(client, home, lazaretto):
    relative, original = SETTINGS[client]
    path = home / relative
    path.parent.mkdir(parents=True)
    path.write_bytes(original.encode())
    done = lazaretto("install", "--client", client)
    assert done.returncode == 0, done.stderr
    assert "lazaretto" in path.read_text() and path.read_bytes() != original.encode()
    done = lazaretto("uninstall", "--client", client)
    assert done.returncode == 0, done.stderr
    assert path.read_bytes() == original.encode()


def test_uninstall_keeps_what_the_client_wrote_since_install(home, lazaretto):
    path = home / ".claude" / "settings.json"
    path.parent.mkdir()
    original = '{\n  "model": "opus",\n  "hooks": {}\n}\n'
    path.write_text(original)
    lazaretto("install", "--client", "claude-code")
    # Claude Code adds a permission the user allowed, at the top.
    path.write_text(
        path.read_text().replace("{\n", '{\n  "permissions": {"allow": ["Bash(ls)"]},\n', 1)
    )
    assert lazaretto("uninstall", "--client", "claude-code").returncode == 0
    assert path.read_text() == original.replace(
        "{\n", '{\n  "permissions": {"allow": ["Bash(ls)"]},\n', 1
    )


def test_a_config_kept_in_a_dotfiles_folder_stays_a_link(home, lazaretto):
    dotfiles = home / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "claude.json"
    original = '{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}\n'
    target.write_text(original)
    target.chmod(0o640)
    link = home / ".claude.json"
    link.symlink_to(target)
    assert lazaretto("wrap", str(link)).returncode == 0
    assert link.is_symlink() and link.resolve() == target
    assert json.loads(target.read_text())["mcpServers"]["time"]["args"][0] == "proxy"
    assert target.stat().st_mode & 0o777 == 0o640
    assert lazaretto("unwrap", str(link)).returncode == 0
    assert link.is_symlink() and target.read_text() == original

    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    kept = dotfiles / "settings.json"
    kept.write_text('{"model": "opus"}\n')
    settings.symlink_to(kept)
    assert lazaretto("install", "--client", "claude-code").returncode == 0
    assert settings.is_symlink() and "lazaretto" in kept.read_text()
    assert lazaretto("uninstall", "--client", "claude-code").returncode == 0
    assert settings.is_symlink() and kept.read_text() == '{"model": "opus"}\n'


def test_a_write_that_fails_half_way_leaves_the_config_as_it_was(home):
    path = home / ".mcp.json"
    original = '{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}\n'
    path.write_text(original)
    limit = len(original.encode()) + 16  # room for the backup, not for the wrapped text

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-m", "lazaretto.app", "wrap", str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        preexec_fn=small_files,
        timeout=60,
    )
    assert done.returncode == 1 and "File too large" in done.stderr  # the new text did not fit
    assert path.read_text() == original
    backups = list(home.glob(".mcp.json.lazaretto-backup-*"))
    assert len(backups) == 1  # it got as far as the new text, and left nothing else behind
    assert sorted(p.name for p in home.iterdir()) == sorted([".mcp.json", backups[0].name])


def test_a_file_its_client_wrote_meanwhile_is_not_overwritten(tmp_path):
    folder = tmp_path / "project"
    folder.mkdir()
    path = folder / "mcp.json"
    path.write_text('{"a": 1}')
    read = read_text(path)
    path.write_text('{"a": 2}')  # the client, between our read and our write
    with pytest.raises(ChangedMeanwhile):
        write_atomic(path, '{"a": 3}', expected=read)
    assert path.read_text() == '{"a": 2}'
    assert [p.name for p in folder.iterdir()] == ["mcp.json"]
