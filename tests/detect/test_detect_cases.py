"""The paired cases of `cases/*.jsonl`: each text with what the detector must say of it.

One line is one case: `text`, and what is asserted of it, any of
`withheld` (true or false: an untrusted field holding the text is withheld, or let through),
`reaches` (true or false: its score reaches the threshold, or stays under it),
`names_all` (every one of these signal kinds is found), `names_any` (at least one of them is),
`names_none` (none of them is); `key`, the field the text is read in (`detect(text, key=...)`);
`within`, a JSON document the text is read inside, as one string (the text stands where the
document holds null);
`group`, what the cases of a group have in common; `why`, what this one shows; `language`, the
language a case is written in (its ISO 639-1 code). An attack and its benign twin sit side by
side in a file, in groups named for what they show.
"""

import json

import pytest
from support.cases import cases, topics
from support.verdicts import withheld

from lazaretto.proxy.detect import DEFAULT_THRESHOLD, detect

ASSERTED = {"withheld", "reaches", "names_all", "names_any", "names_none"}
KNOWN = ASSERTED | {"text", "key", "within", "group", "why", "language"}


def _placed(document, text: str):
    """`document` with `text` where it holds null."""
    if document is None:
        return text
    if isinstance(document, dict):
        return {key: _placed(value, text) for key, value in document.items()}
    if isinstance(document, list):
        return [_placed(value, text) for value in document]
    return document


def _cases() -> list:
    # The text is its own parameter, so the corpus snapshot sees it as a case's text.
    return [
        pytest.param(case["text"], case, id=f"{topic}:{number}")
        for topic in topics()
        for number, case in enumerate(cases(topic), 1)
    ]


@pytest.mark.parametrize(("text", "case"), _cases())
def test_the_detector_says_of_each_case_what_it_expects(text, case):
    assert set(case) <= KNOWN and set(case) & ASSERTED, f"unknown or no expectations: {case}"
    read = (
        text
        if "within" not in case
        else json.dumps(_placed(case["within"], text), ensure_ascii=False)
    )
    found = detect(read, key=case.get("key", ""))
    names = set(found.names)
    if "withheld" in case:
        assert withheld(read) is case["withheld"], found.signals
    if "reaches" in case:
        assert (found.score >= DEFAULT_THRESHOLD) is case["reaches"], found
    assert set(case.get("names_all", ())) <= names, found
    if "names_any" in case:
        assert set(case["names_any"]) & names, found
    assert names.isdisjoint(case.get("names_none", ())), found
