"""mcp-server-fetch (PyPI) behind the proxy, reading a web site served on this machine.

Trusted, pages (as Markdown, as HTML, in pieces), a missing page and the `fetch` prompt answer the
same through the proxy as directly. Untrusted, with no `allow_hosts`, the first page read taints
the session and the next fetch is refused until a person approves it; then the same call answers
as the server does directly.
"""

import pytest
from support.fetch_site import local_site
from support.interop import Interop, Pair, installed, refusal_token, trusted_pair
from support.interop_servers import FETCH

pytestmark = installed(FETCH.executable)

PAGES = {
    "notes.html": "<html><head><title>Notes</title></head><body><h1>Release notes</h1>"
    "<p>Version 4.2 builds <em>faster</em>.</p><ul><li>cache per branch</li></ul></body></html>",
    "faq.html": "<html><body><h1>FAQ</h1><p>Builds are cached per branch.</p></body></html>",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    for name, html in PAGES.items():
        (folder / name).write_text(html)
    with local_site(folder) as base:
        yield base


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    with trusted_pair(tmp_path_factory.mktemp("fetch"), FETCH) as both:
        yield both


@pytest.mark.parametrize(
    ("page", "options"),
    [
        ("notes.html", {}),
        ("notes.html", {"raw": True}),
        ("notes.html", {"raw": True, "max_length": 20, "start_index": 5}),
        ("missing.html", {}),
    ],
    ids=["markdown", "raw", "piece", "missing"],
)
def test_trusted_a_fetch_answers_the_same(pair: Pair, site, page, options):
    fetched = pair.call("fetch", {"url": f"{site}/{page}", **options})
    assert fetched["result"]["isError"] is (page == "missing.html")


def test_trusted_the_fetch_prompt_reads_the_same(pair: Pair, site):
    prompt = pair.same(lambda session: session.get_prompt("fetch", {"url": f"{site}/faq.html"}))
    assert "cached per branch" in str(prompt)


@pytest.mark.slow
def test_untrusted_a_page_taints_and_an_approved_fetch_reads(tmp_path, site, pair: Pair):
    box = Interop(tmp_path, "fetch")
    first, second = ({"url": f"{site}/{page}"} for page in PAGES)
    # What the server answers directly (the site serves the same pages to every server).
    expected = [pair.direct.call("fetch", first), pair.direct.call("fetch", second)]
    with box.proxied(FETCH.launch(tmp_path / "data"), "untrusted") as agent:
        assert agent.call("fetch", first) == expected[0]
        assert [(event["method"], event["tool"]) for event in box.taint()] == [
            ("tools/call", "fetch")
        ]
        refused = agent.call("fetch", second)
        assert refused["error"]["data"]["reason"] == "tainted_outbound"
        box.approve(refusal_token(refused))
        assert agent.call("fetch", second) == expected[1]
    assert "cached per branch" in expected[1]["result"]["content"][0]["text"]
