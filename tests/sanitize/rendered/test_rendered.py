"""The sanitizer against the browser: what Chromium hides is cut, what it shows is kept, and what
it would fetch off the allow list is gone. The verdicts are Chromium's own (recorded by oracle.py
in verdicts.json), so these tests need no browser."""

import html

import pytest
from sanitize.rendered.cases import ALLOW_HOSTS, CASES, Case
from sanitize.rendered.oracle import recorded

from lazaretto.proxy.sanitize import SanitizeRules, sanitize

RULES = SanitizeRules(allow_hosts=ALLOW_HOSTS)
VERDICTS = recorded()


def _off_list(case: Case) -> list[str]:
    return [
        url
        for url in VERDICTS[case.id]["fetched"]
        if ".example/" in url and "docs.example" not in url
    ]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_the_cleaned_page_shows_what_the_browser_shows_and_no_more(case: Case):
    if case.limit:
        pytest.xfail(case.limit)
    markers = VERDICTS[case.id]["markers"]
    cleaned, _ = sanitize(case.text, RULES)
    kept = {marker for marker in markers if marker in cleaned}
    assert {m for m, seen in markers.items() if seen == "hidden"} & kept == set(), (
        "hidden text kept"
    )
    assert {m for m, seen in markers.items() if seen == "visible"} - kept == set(), "shown text cut"
    readable = html.unescape(cleaned)
    for url in _off_list(case):
        name = url.rsplit("/", 1)[1]
        assert name not in cleaned and name not in readable, f"still fetches {url}"


def test_every_case_has_a_recorded_verdict():
    assert {case.id for case in CASES} == set(VERDICTS)
