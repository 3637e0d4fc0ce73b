"""An OAuth-protected remote server: one `wrap`, one `lazaretto auth`, then the same quarantine.

The server is the SDK's FastMCP with the SDK's own authorization-server parts (fixtures/oauth_provider.py);
the browser is fixtures/browser.py, which follows the authorization redirect to the loopback address.
"""

import json
import stat
import sys
from pathlib import Path

import pytest
from support.waiting import wait_for

from lazaretto.proxy.transport.remote.logins import Login

BROWSER = (
    f"{sys.executable} {Path(__file__).resolve().parent.parent / 'fixtures' / 'browser.py'} %s"
)


@pytest.fixture
def oauth_env(proxy_env, tmp_path) -> dict:
    """The proxy environment, with a HOME of its own and the stand-in browser."""
    home = tmp_path / "home"
    home.mkdir()
    return {
        **proxy_env,
        "HOME": str(home),
        "BROWSER": BROWSER,
        "LAB_REVOKE_FILE": str(tmp_path / "revoked"),
    }


def login_files(env: dict) -> list[Path]:
    return list((Path(env["XDG_STATE_HOME"]) / "lazaretto" / "logins").glob("*.json"))


def log_in(terminal, env: dict, *args: str) -> str:
    person = terminal("auth", *args, env=env)
    person.expect("Logged in to")
    assert person.finish() == 0
    [path] = login_files(env)
    return json.loads(path.read_text())["tokens"]["access_token"]


@pytest.mark.slow
def test_one_wrap_one_login_and_the_proxy_sends_and_renews_the_token(
    sdk_server, start_proxy, terminal, oauth_env, store_path
):
    url = sdk_server("lab", "--oauth", "--token-ttl", "2", env=oauth_env)
    config = Path(oauth_env["HOME"]) / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"mcpServers": {"lab": {"url": url}}}))
    from lazaretto.app.clients.wrapping import transform

    wrapped = transform(config, "wrap", "lazaretto")
    config.write_text(wrapped.change.new)
    args = json.loads(config.read_text())["mcpServers"]["lab"]["args"]

    token = log_in(terminal, oauth_env, "lab")  # the URL comes from the wrapped entry
    [path] = login_files(oauth_env)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700

    proxy = start_proxy(args[1:], env=oauth_env)
    assert "result" in proxy.initialize()
    assert proxy.call("echo", {"text": "one"})["result"]["content"][0]["text"] == "one"
    # The token the proxy holds (the stored one, renewed or not) passes its renewal point: the
    # proxy renews it before the next call.
    wait_for(lambda: Login.from_json(path.read_text()).expired(), "the token's renewal point")
    assert proxy.call("echo", {"text": "two"})["result"]["content"][0]["text"] == "two"
    proxy.close()
    renewed = json.loads(path.read_text())["tokens"]["access_token"]
    assert renewed != token
    # Neither token is anywhere the agent or the store could show it.
    seen = proxy.stderr.decode() + json.dumps(proxy.notifications)
    stored = b"".join(p.read_bytes() for p in store_path.parent.glob(store_path.name + "*"))
    for secret in (token, renewed):
        assert secret not in seen and secret.encode() not in stored


def test_without_a_login_the_client_is_told_to_run_auth(sdk_server, start_proxy, oauth_env):
    url = sdk_server("lab", "--oauth", env=oauth_env)
    proxy = start_proxy(["-n", "lab", "--url", url], env=oauth_env)
    error = proxy.initialize()["error"]
    assert error["data"]["reason"] == "login_required"
    assert "lazaretto auth lab" in error["message"]
    proxy.close()


def test_a_login_that_cannot_be_renewed_is_an_error_saying_what_to_do(
    sdk_server, start_proxy, terminal, oauth_env
):
    url = sdk_server("lab", "--oauth", env=oauth_env)
    log_in(terminal, oauth_env, "lab", "--url", url)
    proxy = start_proxy(["-n", "lab", "--url", url], env=oauth_env)
    assert "result" in proxy.initialize()
    Path(oauth_env["LAB_REVOKE_FILE"]).write_text("")  # the server forgets every token
    error = proxy.call("echo", {"text": "x"})["error"]
    assert error["data"]["reason"] == "refresh_failed"
    assert "lazaretto auth lab" in error["message"]
    proxy.close()


@pytest.mark.slow
def test_logout_forgets_the_login(sdk_server, start_proxy, terminal, oauth_env):
    url = sdk_server("lab", "--oauth", env=oauth_env)
    log_in(terminal, oauth_env, "lab", "--url", url)
    person = terminal("auth", "lab", "--url", url, "--logout", env=oauth_env)
    person.expect("Forgot the login")
    assert person.finish() == 0
    assert login_files(oauth_env) == []
    proxy = start_proxy(["-n", "lab", "--url", url], env=oauth_env)
    assert proxy.initialize()["error"]["data"]["reason"] == "login_required"
    proxy.close()


def test_auth_is_for_a_person_at_a_terminal(sdk_server, cli, oauth_env):
    url = sdk_server("lab", "--oauth", env=oauth_env)
    done = cli("auth", "lab", "--url", url, env=oauth_env)
    assert done.returncode == 2 and "terminal" in done.stderr
    assert login_files(oauth_env) == []


def test_a_login_is_only_sent_to_the_url_it_was_made_for(
    sdk_server, start_proxy, terminal, oauth_env, scripted
):
    url = sdk_server("lab", "--oauth", env=oauth_env)
    log_in(terminal, oauth_env, "lab", "--url", url)
    from support.scripted_http import Reply

    other = scripted(lambda seen: Reply(401, {"Content-Length": "0"}))
    proxy = start_proxy(["-n", "lab", "--url", other.url], env=oauth_env)
    assert proxy.initialize()["error"]["data"]["reason"] == "login_required"
    proxy.close()
    assert all("authorization" not in seen.headers for seen in other.seen)
