"""The scan's one shortcut, the memory of short verdicts, returns exactly what the plain path does."""

from hypothesis import given, settings
from hypothesis import strategies as st

from lazaretto.proxy import scan
from lazaretto.proxy.scan import ScanRules, scan_text
from tests.corpus.records import records

# Short texts with the characters the sanitizer and detector act on, beside ordinary letters.
_ALPHABET = st.sampled_from(
    list("abcdefghij ignorepvustAEIOU.:/<>![]()#-_=%&;01357\n\r\t")
    + ["\u200b", "\u202e", "\U000e0041", "\ufe0f", "օ", "а", "👍", "日"]
)
_SHORT = st.text(_ALPHABET, max_size=scan._SHORT_TEXT)
_RULES = st.builds(
    ScanRules,
    untrusted=st.booleans(),
    allow_hosts=st.sampled_from([(), ("github.com",), ("*.example",)]),
    threshold=st.sampled_from([None, 0.5, 2.0]),
)


@settings(max_examples=300, deadline=None)
@given(text=_SHORT, rules=_RULES)
def test_a_remembered_verdict_is_the_plain_paths(text, rules):
    assert scan_text(text, rules) == scan._scan(text, rules)
    # Asked again (now from memory), the answer is the same.
    assert scan_text(text, rules) == scan._scan(text, rules)


def test_the_short_texts_of_the_corpus_get_the_plain_paths_verdicts():
    rules = ScanRules(untrusted=True)
    short = [
        r["text"][: scan._SHORT_TEXT]
        for name in ("garak_attacks.jsonl", "agentdojo_benign.jsonl")
        for r in records(name)
    ]
    for text in short[:2000]:
        assert scan_text(text, rules) == scan._scan(text, rules)
