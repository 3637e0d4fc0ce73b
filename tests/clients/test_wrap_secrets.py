"""A wrapped remote entry never puts a secret on the proxy's command line, where `ps` shows it to
every local user: a token variable is passed by name, a header naming any other variable keeps
its entry unwrapped (saying what to do), a header written out is warned about. Each wrapped entry
is then started the way its client starts it (the client's variables expanded in its arguments,
Codex's environment cut to its list) against a real HTTP server, which must get the headers.
"""

import json
import re
from pathlib import Path

import pytest
import tomlkit
from support.proxy_harness import ProxyProcess
from support.scripted_http import ScriptedHTTP, mcp_script

SECRET = "tok-5ecret-4417"
ORG = "org-77"
# Codex passes a stdio server only these of its own variables, and those named in env_vars.
CODEX_PASSES = (
    "HOME",
    "LOGNAME",
    "PATH",
    "SHELL",
    "USER",
    "LANG",
    "LC_ALL",
    "TERM",
    "TMPDIR",
    "TZ",
)
CLIENT_VARIABLES = {
    # Claude Code: ${VAR} and ${VAR:-default} in command, args, env, url, headers.
    ".mcp.json": re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}"),
    # Cursor: ${env:VAR}.
    "mcp.json": re.compile(r"\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}()"),
}


@pytest.fixture
def server():
    """A remote MCP server that records the headers of every request."""
    http = ScriptedHTTP(mcp_script(lambda seen, message: pytest.fail(f"unexpected {message}")))
    yield http
    http.close()


def expanded(args: list[str], config: str, environ: dict) -> list[str]:
    """The arguments as the client passes them, its variables replaced by their values."""
    pattern = CLIENT_VARIABLES[config]
    return [pattern.sub(lambda m: environ.get(m.group(1)) or m.group(2) or "", a) for a in args]


def started(args: list[str], env: dict) -> ProxyProcess:
    """The wrapped entry's command (`lazaretto`, run here as `python -m lazaretto.app`)."""
    assert args[0] == "proxy"
    return ProxyProcess(args[1:], env)


def command_line(proxy: ProxyProcess) -> str:
    """What `ps` shows of the process: its command line."""
    return Path(f"/proc/{proxy.proc.pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def headers_seen(server: ScriptedHTTP) -> dict[str, str]:
    return server.posts()[0].headers


pytestmark = pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="reads /proc")


@pytest.mark.parametrize(
    ("config", "token"), [(".mcp.json", "${API_TOKEN}"), ("mcp.json", "${env:API_TOKEN}")]
)
def test_a_bearer_token_is_passed_by_name_and_reaches_the_server_but_not_the_command_line(
    config, token, server, home, lazaretto, proxy_env
):
    path = home / config
    entry = {"url": server.url, "headers": {"Authorization": f"Bearer {token}", "X-Team": "blue"}}
    path.write_text(json.dumps({"mcpServers": {"api": entry}}, indent=2) + "\n")
    done = lazaretto("wrap", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    args = json.loads(path.read_text())["mcpServers"]["api"]["args"]

    client_env = {**proxy_env, "API_TOKEN": SECRET}
    proxy = started(expanded(args, config, client_env), client_env)
    try:
        assert "result" in proxy.initialize(), proxy.stderr.decode()
        assert SECRET not in command_line(proxy)
    finally:
        proxy.close()
    assert headers_seen(server)["authorization"] == f"Bearer {SECRET}"
    assert headers_seen(server)["x-team"] == "blue"
    assert args[-2:] == ["--bearer-token-env", "API_TOKEN"] and "${" not in " ".join(args)
    assert "warning: header X-Team is written out in the file" in done.stdout

    assert lazaretto("unwrap", str(path)).returncode == 0
    assert json.loads(path.read_text())["mcpServers"]["api"] == entry


@pytest.mark.parametrize(
    ("config", "headers"),
    [
        (".mcp.json", {"X-Api-Key": "${API_KEY}"}),
        (".mcp.json", {"Authorization": "Bearer ${API_TOKEN:-dev}"}),
        (".mcp.json", {"Authorization": "Token ${API_TOKEN}"}),
        (".mcp.json", {"authorization": "Bearer ${API_TOKEN}"}),  # unwrap would not know the case
        ("mcp.json", {"Authorization": "Bearer ${env:API_TOKEN}", "X-Api-Key": "${env:KEY}"}),
        ("mcp.json", {"Authorization": "Bearer ${API_TOKEN}"}),  # not how Cursor names one
    ],
)
def test_a_header_naming_a_variable_the_proxy_cannot_take_by_name_is_not_wrapped(
    config, headers, home, lazaretto
):
    path = home / config
    text = json.dumps(
        {
            "mcpServers": {
                "api": {"url": "https://api.example/mcp", "headers": headers},
                "local": {"command": "uvx", "args": ["mcp-server-time"]},
            }
        },
        indent=2,
    )
    path.write_text(text)
    done = lazaretto("wrap", str(path))
    assert done.returncode == 1
    assert "api: NOT WRAPPED:" in done.stdout and "names a variable" in done.stdout
    assert "`ps` shows it to every local user" in done.stdout
    assert "Authorization: Bearer " in done.stdout  # what to write instead
    servers = json.loads(path.read_text())["mcpServers"]
    assert servers["api"] == json.loads(text)["mcpServers"]["api"]
    assert servers["local"]["args"][0] == "proxy"  # the rest is wrapped


CODEX_REMOTE = """[mcp_servers.api]  # the team's server
url = "{url}"
bearer_token_env_var = "API_TOKEN"
env_http_headers = {{ "X-Org" = "ORG_ID" }}
startup_timeout_sec = 20

# the next one
"""


def test_codex_variables_reach_the_proxy_through_env_vars_and_never_its_command_line(
    server, home, lazaretto, proxy_env
):
    path = home / "config.toml"
    original = CODEX_REMOTE.format(url=server.url)
    path.write_text(original)
    done = lazaretto("wrap", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    entry = tomlkit.parse(path.read_text())["mcp_servers"]["api"].unwrap()
    assert entry["env_vars"] == ["API_TOKEN", "ORG_ID"]
    assert "X-Org: ${env:ORG_ID}" in entry["args"]  # read by the proxy, not by Codex
    text = path.read_text()  # the new lines end the entry's own, before the comment on the next
    assert text.index("env_vars") < text.index("# the next one") and text.endswith(
        "\n\n# the next one\n"
    )

    client_env = {**proxy_env, "API_TOKEN": SECRET, "ORG_ID": ORG}
    plumbing = {k: v for k, v in proxy_env.items() if k.startswith("LAZARETTO_")}
    passed = [*CODEX_PASSES, *entry["env_vars"]]
    env = {**plumbing, **{name: client_env[name] for name in passed if name in client_env}}
    proxy = started(entry["args"], env)  # Codex expands nothing in args
    try:
        assert "result" in proxy.initialize(), proxy.stderr.decode()
        assert SECRET not in command_line(proxy) and ORG not in command_line(proxy)
    finally:
        proxy.close()
    assert headers_seen(server)["authorization"] == f"Bearer {SECRET}"
    assert headers_seen(server)["x-org"] == ORG

    assert lazaretto("unwrap", str(path)).returncode == 0
    assert path.read_text() == original


def test_a_codex_header_written_with_a_variable_in_it_is_not_wrapped(home, lazaretto):
    path = home / "config.toml"
    original = '[mcp_servers.api]\nurl = "https://api.example/mcp"\nhttp_headers = { "X-Key" = "${KEY}" }\n'
    path.write_text(original)
    done = lazaretto("wrap", str(path))
    assert done.returncode == 1 and "env_http_headers" in done.stdout
    assert path.read_text() == original


def test_the_expansion_these_tests_apply_is_the_clients():
    # The helper above stands for the client: checked against the documented forms.
    environ = {"A": "1"}
    assert expanded(["x${A}y", "${B:-d}", "${B}"], ".mcp.json", environ) == ["x1y", "d", ""]
    assert expanded(["${env:A}", "${A}"], "mcp.json", environ) == ["1", "${A}"]
