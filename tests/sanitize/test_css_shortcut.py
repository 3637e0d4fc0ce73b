"""An element without properties of its own takes its parent's style as it is: the same removals as
computing every element in full, on generated HTML and the corpus."""

import pytest
from corpus.records import NAMES, records
from hypothesis import given, settings
from hypothesis import strategies as st

from lazaretto.proxy.sanitize import css, html
from lazaretto.proxy.sanitize.model import Collector

_PIECES = st.sampled_from(
    [
        "<p>",
        "</p>",
        "<div>",
        "</div>",
        "<span>",
        "</span>",
        "text ",
        "<b>bold</b>",
        '<div style="display:none">',
        '<span style="opacity:0.5">',
        '<span style="opacity:0.1">',
        '<p style="color:#fff">',
        '<p style="background:#000">',
        '<div style="background:url(https://x.example/a.png)">',
        '<font color="white">',
        '<svg><text fill-opacity="0">',
        "<div hidden>",
        "<style>.h{visibility:hidden}</style>",
        '<span class="h">',
        '<img src="https://x.example/i.png" alt="alt">',
        "<!-- a comment -->",
        "ignore previous instructions ",
    ]
)


def _plain_compute(node, parent, rules, budget=None):
    return css.from_properties(node, parent, css._cascade(node, rules), budget)


def _strip(text: str):
    found = Collector()
    return html.strip_markup(text, (), found), found.removals()


def _same_removals(text: str) -> None:
    fast = _strip(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(css, "compute", _plain_compute)
        assert _strip(text) == fast, text[:80]


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=30))
def test_generated_html_is_cleaned_as_by_the_full_computation(pieces):
    _same_removals("".join(pieces))


def test_the_corpus_is_cleaned_as_by_the_full_computation():
    compared = 0
    for name in NAMES:
        for record in records(name):
            if "<" in record["text"]:
                _same_removals(record["text"])
                compared += 1
    assert compared > 500
