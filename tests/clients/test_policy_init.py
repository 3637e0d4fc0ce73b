"""`lazaretto policy init` in a temporary HOME: a commented starter policy from every client
config shape, the tools the proxies saw annotated as writing, and never a file overwritten
without `--force`."""

import json
import os
import sys
from pathlib import Path

import pytest
from support.proxy_harness import ProxyProcess

from lazaretto.proxy.policy import load_policy

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SERVER = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/src"]}
WRAPPED = {
    "command": "/opt/lazaretto/bin/lazaretto",
    "args": ["proxy", "-n", "notes", "--", "uvx", "mcp-server-notes"],
}


def policy_file() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "lazaretto" / "lazaretto.toml"


def json_config(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


# (client, where its config is, what it holds, the servers the starter names)
SHAPES = {
    "claude-code user, with a project": (
        "claude-code",
        lambda home: json_config(
            home / ".claude.json",
            {
                "mcpServers": {"filesystem": SERVER},
                "projects": {"/src/app": {"mcpServers": {"git": SERVER, "notes": WRAPPED}}},
            },
        ),
        ["filesystem", "git", "notes"],
    ),
    "claude-code project .mcp.json": (
        "claude-code",
        lambda home: json_config(Path.cwd() / ".mcp.json", {"mcpServers": {"web": SERVER}}),
        ["web"],
    ),
    "claude-desktop": (
        "claude-desktop",
        lambda home: json_config(
            home / ".config" / "Claude" / "claude_desktop_config.json",
            {"mcpServers": {"memory": SERVER, "remote": {"url": "https://mcp.example/mcp"}}},
        ),
        ["memory", "remote"],
    ),
    "cursor": (
        "cursor",
        lambda home: json_config(
            home / ".cursor" / "mcp.json", {"mcpServers": {"tickets": SERVER}}
        ),
        ["tickets"],
    ),
    "codex config.toml": (
        "codex",
        lambda home: _codex(home),
        ["time", "github"],
    ),
}


def _codex(home: Path) -> Path:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text(
        '[mcp_servers.time]\ncommand = "uvx"\nargs = ["mcp-server-time"]\n\n'
        '[mcp_servers.github]\nurl = "https://api.githubcopilot.com/mcp/"\n'
    )
    return path


@pytest.mark.skipif(
    sys.platform != "linux", reason="Claude Desktop's config is where Linux keeps it"
)
@pytest.mark.parametrize("shape", list(SHAPES))
def test_init_names_every_server_of_each_client_config_shape(home, lazaretto, shape):
    client, write, names = SHAPES[shape]
    config = write(home)
    done = lazaretto("policy", "init")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Wrote {policy_file()}: servers {', '.join(names)}")
    text = policy_file().read_text()
    policy = load_policy(policy_file())
    assert list(policy.servers) == names
    assert all(policy.server(name).trust == "untrusted" for name in names)
    # The comments a person reads are kept: where each server was found, and what trust means.
    assert f"# In {config} ({client})" in text
    assert 'trust = "untrusted" # "trusted" only if all it returns is yours' in text
    checked = lazaretto("policy", "check")
    assert checked.returncode == 0 and "note:" not in checked.stdout, checked.stdout


def test_the_tools_a_proxy_saw_annotated_as_writing_are_outbound(home, lazaretto):
    json_config(home / ".claude.json", {"mcpServers": {"filesystem": SERVER}})
    # The server runs behind a real proxy once: its tools/list is pinned in the store.
    proxy = ProxyProcess(
        [
            "-n",
            "filesystem",
            "--",
            sys.executable,
            str(FIXTURES / "listing_server.py"),
            "filesystem",
        ],
        {**os.environ, "LAZARETTO_SESSION": "s"},
    )
    proxy.initialize()
    assert len(proxy.request("tools/list")["result"]["tools"]) == 14
    assert proxy.close() == 0
    assert lazaretto("policy", "init").returncode == 0
    policy = load_policy(policy_file())
    assert policy.server("filesystem").outbound == {
        "write_file",
        "edit_file",
        "create_directory",
        "move_file",
    }
    assert "# The tools whose annotations say they write" in policy_file().read_text()


def test_a_server_not_seen_yet_says_so(home, lazaretto):
    json_config(home / ".claude.json", {"mcpServers": {"filesystem": SERVER}})
    lazaretto("policy", "init")
    assert "# Its tools have not been seen behind a proxy yet" in policy_file().read_text()
    assert load_policy(policy_file()).server("filesystem").outbound == set()


def test_init_never_replaces_a_policy_without_force(home, lazaretto):
    json_config(home / ".claude.json", {"mcpServers": {"filesystem": SERVER}})
    path = policy_file()
    path.parent.mkdir(parents=True)
    path.write_text('[servers.mine]\ntrust = "trusted"\n')
    refused = lazaretto("policy", "init")
    assert refused.returncode == 1 and f"{path} exists; nothing was written" in refused.stderr
    assert "--force" in refused.stderr and path.read_text() == '[servers.mine]\ntrust = "trusted"\n'
    forced = lazaretto("policy", "init", "--force")
    assert forced.returncode == 0 and "backup: " in forced.stdout
    assert list(load_policy(path).servers) == ["filesystem"]
    [backup] = path.parent.glob("lazaretto.toml.lazaretto-backup-*")
    assert backup.read_text() == '[servers.mine]\ntrust = "trusted"\n'


def test_init_writes_elsewhere_or_to_stdout(home, lazaretto, tmp_path):
    json_config(home / ".claude.json", {"mcpServers": {"filesystem": SERVER}})
    shown = lazaretto("policy", "init", "-o", "-")
    assert shown.returncode == 0 and "[servers.filesystem]" in shown.stdout
    elsewhere = tmp_path / "team.toml"
    written = lazaretto("policy", "init", "--output", str(elsewhere))
    assert written.returncode == 0 and f"Wrote {elsewhere}" in written.stdout
    assert f"set LAZARETTO_POLICY={elsewhere}" in written.stdout
    assert not policy_file().exists()
    json_policy = lazaretto("policy", "init", "-o", str(tmp_path / "gate.json"))
    assert json_policy.returncode == 1 and "the starter is TOML" in json_policy.stderr


def test_doctor_names_a_broken_policy_and_exits_1(home, lazaretto):
    path = policy_file()
    path.parent.mkdir(parents=True)
    path.write_text('[servers.slack]\ntrust = "untrusted"\noutbond = ["post_message"]\n')
    report = lazaretto("doctor")
    assert report.returncode == 1
    assert "Policy\n" in report.stdout and f"{path}: BROKEN" in report.stdout
    assert (
        f"{path}, line 3: unknown key `outbond` in `servers.slack`: did you mean `outbound`?"
        in report.stdout
    )
