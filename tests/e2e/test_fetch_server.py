"""A web fetch server marked untrusted, as the README's quick start has it, read more than once."""

import pytest
from fetch_site import FETCH_BIN, FETCH_SERVER, MISSING, local_site

pytestmark = pytest.mark.skipif(not FETCH_BIN.exists(), reason=MISSING)

PAGES = {
    "notes.html": "<html><body><h1>Release notes</h1><p>Version 4.2 builds faster.</p></body></html>",
    "faq.html": "<html><body><h1>FAQ</h1><p>Builds are cached per branch.</p></body></html>",
}


@pytest.fixture
def site(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    for name, html in PAGES.items():
        (folder / name).write_text(html)
    with local_site(folder) as base:
        yield base


@pytest.fixture
def fetch_proxy(start_proxy, proxy_env, tmp_path):
    """A proxy around the real fetch server under a given policy."""

    def start(policy: str):
        path = tmp_path / "fetch.toml"
        path.write_text(policy)
        proxy = start_proxy(
            ["-n", "web", "--", *FETCH_SERVER], env={**proxy_env, "LAZARETTO_POLICY": str(path)}
        )
        proxy.initialize()
        return proxy

    return start


def fetch(proxy, url: str) -> dict:
    return proxy.request("tools/call", {"name": "fetch", "arguments": {"url": url}}, timeout=60)


def test_with_allow_hosts_the_agent_reads_page_after_page(fetch_proxy, site, store):
    proxy = fetch_proxy('allow_hosts = ["127.0.0.1"]\n[servers.web]\ntrust = "untrusted"\n')
    first = fetch(proxy, f"{site}/notes.html")
    assert "builds faster" in first["result"]["content"][0]["text"]
    assert store.sessions.state("test-session").tainted
    # Tainted now, and still reading: every host the call names is on allow_hosts.
    second = fetch(proxy, f"{site}/faq.html")
    assert "cached per branch" in second["result"]["content"][0]["text"]
    # A site the policy does not name is refused, as it always was.
    elsewhere = fetch(proxy, "http://pages.example/notes.html")
    assert elsewhere["error"]["data"]["reason"] == "host_not_allowed"
    assert [call["reason_code"] for call in store.blocked.recent()] == ["host_not_allowed"]
    proxy.close()


def test_without_allow_hosts_the_refusal_names_the_policy_lines_that_let_it_read(
    fetch_proxy, site, store
):
    proxy = fetch_proxy('[servers.web]\ntrust = "untrusted"\n')
    assert "builds faster" in fetch(proxy, f"{site}/notes.html")["result"]["content"][0]["text"]
    refused = fetch(proxy, f"{site}/faq.html")["error"]
    assert refused["code"] == -32002 and refused["data"]["reason"] == "tainted_outbound"
    assert "list the sites it may read in allow_hosts" in refused["message"]
    assert "servers.web.not_outbound" in refused["message"]
    proxy.close()
