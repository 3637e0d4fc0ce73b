"""`lazaretto wrap` / `unwrap` on each client's config shape: exact round trips, idempotence, dry runs."""

import json
import os
from pathlib import Path

import pytest

from lazaretto.app.clients.wrapping import original_of, transform

CLAUDE_JSON = """{
  "numStartups": 41,
  "theme": "dark",
  "mcpServers": {
    "web": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@acme/fetch-server"],
      "env": {"FETCH_UA": "bot"}
    },
    "linear": {"type": "http", "url": "https://mcp.linear.example/mcp"}
  },
  "projects": {
    "/home/me/app": {
      "allowedTools": [],
      "mcpServers": {
        "db": {"command": "uvx", "env": {}}
      },
      "history": [{"display": "fix the build \\u00e9", "pastedContents": {}}]
    }
  }
}
"""
DESKTOP_JSON = """{
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": [
                "-y",
                "@modelcontextprotocol/server-filesystem",
                "/Users/username/Desktop"
            ]
        }
    },
    "globalShortcut": "Ctrl+Space"
}"""
CURSOR_JSON = (
    '{"mcpServers":{"oci":{"type":"stdio","command":"uvx","args":["oracle.oci-api-mcp-server"],'
    '"env":{"OCI_CONFIG_PROFILE":"me"}},"remote":{"url":"https://x.example/mcp",'
    '"headers":{"Authorization":"Bearer ${env:TOKEN}"}}}}\n'
)
CODEX_TOML = """# Codex settings
model = "gpt-5-codex"

[mcp_servers]
tool = { command = "uvx", args = [ "tool-mcp" ] }

[mcp_servers.docs]
command = "npx"   # the docs server
args = ["-y", "docs-mcp"]
startup_timeout_sec = 20

[mcp_servers.docs.env]
API_KEY = "value"

# a server without args
[mcp_servers.bare]
command = "bare-server"
env_vars = ["API_KEY2"]

[mcp_servers.remote]
url = "https://mcp.example/mcp"
bearer_token_env_var = "TOKEN"

[mcp_servers.files]
command = "npx"
args = [   # one per line, as people keep long lists
    "-y",                                      # install without asking
    "@modelcontextprotocol/server-filesystem",
    # "/home/me/private",
    "/home/me/src",
] # the folders it may read

[mcp_servers.empty]
command = "empty-server"
args = []
"""
CURSOR_EMPTY_ARGS_JSON = """{
  "mcpServers": {
    "local": {
      "command": "local-server",
      "args": []
    },
    "bare": {
      "command": "bare-server"
    }
  }
}
"""

CONFIGS = {
    ".claude.json": CLAUDE_JSON,
    "claude_desktop_config.json": DESKTOP_JSON,
    "mcp.json": CURSOR_JSON,
    "cursor-empty-args.json": CURSOR_EMPTY_ARGS_JSON,
    "config.toml": CODEX_TOML,
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_wrap_then_unwrap_gives_back_every_byte(name, home, lazaretto):
    path = home / name
    path.write_text(CONFIGS[name])
    wrapped = lazaretto("wrap", str(path))
    assert wrapped.returncode == 0, wrapped.stderr
    assert "wrapped  https://" in wrapped.stdout or name in (
        "claude_desktop_config.json",
        "cursor-empty-args.json",
    )
    assert path.read_text() != CONFIGS[name]
    assert next(iter(home.glob(f"{name}.lazaretto-backup-*"))).read_text() == CONFIGS[name]
    unwrapped = lazaretto("unwrap", str(path))
    assert unwrapped.returncode == 0, unwrapped.stderr
    assert path.read_text() == CONFIGS[name]


def test_wrapped_json_entries_run_the_proxy_and_keep_everything_else(home, lazaretto):
    path = home / ".claude.json"
    path.write_text(CLAUDE_JSON)
    lazaretto("wrap", str(path))
    data = json.loads(path.read_text())
    web = data["mcpServers"]["web"]
    assert os.path.basename(web["command"]) == "lazaretto"
    assert web["args"] == ["proxy", "-n", "web", "--", "npx", "-y", "@acme/fetch-server"]
    assert web["type"] == "stdio" and web["env"] == {"FETCH_UA": "bot"}
    linear = data["mcpServers"]["linear"]
    assert linear["type"] == "stdio" and os.path.basename(linear["command"]) == "lazaretto"
    assert linear["args"] == [
        "proxy",
        "-n",
        "linear",
        "--url",
        "https://mcp.linear.example/mcp",
        "--transport",
        "http",
    ]
    assert "url" not in linear
    db = data["projects"]["/home/me/app"]["mcpServers"]["db"]
    assert db["args"] == ["proxy", "-n", "db", "--", "uvx"]
    # Everything outside the server entries is the same text as before.
    text = path.read_text()
    assert text.startswith('{\n  "numStartups": 41,\n  "theme": "dark",\n')
    assert '"history": [{"display": "fix the build \\u00e9", "pastedContents": {}}]' in text


def test_wrapped_toml_keeps_comments_and_other_keys(home, lazaretto):
    path = home / "config.toml"
    path.write_text(CODEX_TOML)
    lazaretto("wrap", str(path))
    text = path.read_text()
    assert (
        "# Codex settings" in text
        and "# the docs server" in text
        and "# a server without args" in text
    )
    assert 'args = ["proxy", "-n", "docs", "--", "npx", "-y", "docs-mcp"]' in text
    assert 'args = ["proxy", "-n", "bare", "--", "bare-server"]' in text
    assert (
        'args = ["proxy", "-n", "remote", "--url", "https://mcp.example/mcp", '
        '"--bearer-token-env", "TOKEN"]' in text
    )
    assert "bearer_token_env_var" not in text


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_wrapping_twice_changes_nothing(name, home, lazaretto):
    path = home / name
    path.write_text(CONFIGS[name])
    lazaretto("wrap", str(path))
    once = path.read_text()
    again = lazaretto("wrap", str(path))
    assert "nothing to change" in again.stdout and "already wrapped" in again.stdout
    assert path.read_text() == once
    assert len(list(home.glob(f"{name}.lazaretto-backup-*"))) == 1


def test_dry_run_shows_the_diff_and_writes_nothing(home, lazaretto):
    path = home / "mcp.json"
    path.write_text(CURSOR_JSON)
    done = lazaretto("wrap", "--dry-run", str(path))
    assert done.returncode == 0
    assert "---" in done.stdout and '"proxy","-n","oci"' in done.stdout and "dry run" in done.stdout
    assert path.read_text() == CURSOR_JSON
    assert not list(home.glob("mcp.json.lazaretto-backup-*"))


def test_remote_entries_are_wrapped_and_websocket_ones_listed_as_not_covered(home):
    path = home / "mcp.json"
    data = json.loads(CURSOR_JSON)
    data["mcpServers"]["live"] = {"type": "ws", "url": "wss://x.example/ws"}
    path.write_text(json.dumps(data))
    outcome = transform(Path(path), "wrap", "lazaretto")
    states = {s.name: s.state for s in outcome.servers}
    assert states == {"oci": "wrapped", "remote": "wrapped", "live": "remote"}
    remote = json.loads(outcome.change.new)["mcpServers"]["remote"]
    assert remote == {
        "command": "lazaretto",
        "args": [
            "proxy",
            "-n",
            "remote",
            "--url",
            "https://x.example/mcp",
            "--bearer-token-env",
            "TOKEN",
        ],
    }


def test_unwrap_of_a_config_never_wrapped_changes_nothing(home, lazaretto):
    path = home / "claude_desktop_config.json"
    path.write_text(DESKTOP_JSON)
    done = lazaretto("unwrap", str(path))
    assert done.returncode == 0 and "nothing to change" in done.stdout
    assert path.read_text() == DESKTOP_JSON


def test_invalid_configs_are_refused_untouched(home, lazaretto):
    path = home / "broken.json"
    path.write_text("{not json")
    done = lazaretto("wrap", str(path))
    assert done.returncode == 1 and "not valid JSON" in done.stderr
    assert path.read_text() == "{not json"
    assert lazaretto("wrap", str(home / "missing.json")).returncode == 1


def test_the_original_command_is_what_follows_the_separator():
    entry = {
        "command": "lazaretto",
        "args": ["proxy", "-n", "x", "--", "node", "server.js", "--", "-v"],
    }
    assert original_of(entry) == ("node", ["server.js", "--", "-v"])


def test_a_multi_line_codex_array_keeps_its_lines_and_comments_when_wrapped(home, lazaretto):
    path = home / "config.toml"
    path.write_text(CODEX_TOML)
    lazaretto("wrap", str(path))
    text = path.read_text()
    assert "# install without asking" in text and '# "/home/me/private",' in text
    assert "] # the folders it may read" in text
    assert 'args = ["proxy", "--name", "empty", "--", "empty-server"]' in text
    assert 'args = [ "proxy", "-n", "tool", "--", "uvx", "tool-mcp" ]' in text


def test_an_empty_args_list_of_the_entrys_own_comes_back(home, lazaretto):
    path = home / "mcp.json"
    path.write_text(CURSOR_EMPTY_ARGS_JSON)
    lazaretto("wrap", str(path))
    servers = json.loads(path.read_text())["mcpServers"]
    assert servers["local"]["args"] == ["proxy", "--name", "local", "--", "local-server"]
    assert servers["bare"]["args"] == ["proxy", "-n", "bare", "--", "bare-server"]
    lazaretto("unwrap", str(path))
    servers = json.loads(path.read_text())["mcpServers"]
    assert servers == {
        "local": {"command": "local-server", "args": []},
        "bare": {"command": "bare-server"},
    }


def test_backups_are_pruned_to_the_newest_few_and_that_is_said(home, lazaretto):
    path = home / "mcp.json"
    path.write_text(CURSOR_JSON)
    for _ in range(3):
        lazaretto("wrap", str(path))
        lazaretto("unwrap", str(path))
    lazaretto("wrap", str(path))
    done = lazaretto("unwrap", str(path))
    assert "the newest 5 backups of the file are kept" in done.stdout
    backups = sorted(home.glob("mcp.json.lazaretto-backup-*"))
    assert len(backups) == 5
    assert path.read_text() == CURSOR_JSON


def test_doctor_and_wrap_notice_a_lazaretto_that_is_gone(home, lazaretto, script):
    path = home / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_text(CURSOR_JSON)
    gone = str(home / "old-venv" / "bin" / "lazaretto")
    outcome = transform(path, "wrap", gone)
    path.write_text(outcome.change.new)
    report = lazaretto("doctor")
    assert f"oci: BROKEN, wrapped with {gone}, which no longer exists" in report.stdout
    assert report.returncode == 1
    again = lazaretto("wrap", str(path))
    assert "oci: wrapped again" in again.stdout and f"{gone} is gone" in again.stdout
    entry = json.loads(path.read_text())["mcpServers"]["oci"]
    assert entry["command"] == str(script)  # the lazaretto that wrapped it again
    assert entry["args"] == ["proxy", "-n", "oci", "--", "uvx", "oracle.oci-api-mcp-server"]
    assert "BROKEN" not in lazaretto("doctor").stdout
