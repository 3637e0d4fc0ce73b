"""Patterns written only for speed change no match: each finds what its plain form finds."""

import re

from corpus.records import NAMES, records
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lazaretto.proxy.detect import alternation, clauses, concept_shapes, context, signals
from lazaretto.proxy.detect.normalize import fold
from lazaretto.proxy.matcher import engine

# The look-ahead `_order` puts before the look-behinds (the first letters of its verbs), and the
# authority pattern before its look-behinds for an article.
_VERBS_AHEAD = re.compile(r"\(\?!\[\^[a-z]+\]\)")
REWRITTEN = [p for p in signals.PATTERNS if _VERBS_AHEAD.search(p.source)]
PLAIN = [re.compile(_VERBS_AHEAD.sub("", p.source, count=1)) for p in REWRITTEN]
_WORDS = st.sampled_from(
    "send post e-mail email share print give me the your .env password token to https://x.example"
    " we i can would she never usually # // -- /* the a no each every: \n".split(" ")
)


def _same_matches(folded: str) -> None:
    for pattern, plain in zip(REWRITTEN, PLAIN, strict=True):
        assert [m.span() for m in pattern.regex.finditer(folded)] == [
            m.span() for m in plain.finditer(folded)
        ], (pattern.source[:60], folded[:80])


def test_the_rewritten_patterns_are_the_order_verbs_and_the_named_kinds_ones():
    assert len(REWRITTEN) == 6
    assert {p.name for p in REWRITTEN} == {"exfiltration", "secret_request", "authority_claim"}


def test_the_look_ahead_leaves_the_compiled_scans_form_as_it_was():
    for pattern, plain in zip(REWRITTEN, PLAIN, strict=True):
        assert engine.loosen(pattern.source) == engine.loosen(plain.pattern)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.tuples(_WORDS, st.sampled_from([" ", "  ", ", ", ": ", "\n", "'"])), max_size=30)
)
def test_generated_text_gets_the_same_matches(pieces):
    _same_matches(fold("".join(word + gap for word, gap in pieces)).text)


def test_the_corpus_gets_the_same_matches():
    read = 0
    for name in NAMES:
        for number, record in enumerate(records(name)):
            if number % 4 == 0:
                _same_matches(fold(record["text"]).text)
                read += 1
    assert read > 1000


# Clause ends as one alternation, each alternative with its own first character.
_PLAIN_CLAUSE_END = re.compile(
    r"[.!?;](?=\s|$)|(?<=[\u3040-\u9fff])[.!?;]|[。！？；।॥؟]|\n[ \t]*\n"
    r"|\n(?=[ \t]*(?:[-*•#>|]|\d{1,3}[.)][ \t]|(?:[\w\"'-]{1,20}[ \t]){0,2}[\w\"'-]{1,40}[ \t]*:"
    r"|\d[\w:.+-]*[ \t]|[0-9a-f]{7,12}[ \t]))"
    r"|\"[ \t]*[,:}\]]|[{\[,][ \t]*\"|\|"
)
_CLAUSE_TEXT = st.lists(
    st.sampled_from(
        list("ab1 \t\n.!?;:,-*•#>|\"'{}[]()")
        + ["。", "؟", "中", "の", "x:", "12) ", "12. ", "two words:", "3m ", "4e5f6a7 "]
    ),
    max_size=60,
).map("".join)


def _same_clause_ends(text: str) -> None:
    for low, high in ((0, len(text)), (len(text) // 3, len(text) - len(text) // 4)):
        assert [m.span() for m in clauses.clause_end().finditer(text, low, high)] == [
            m.span() for m in _PLAIN_CLAUSE_END.finditer(text, low, high)
        ], text[:80]


@settings(max_examples=500, deadline=None)
@given(_CLAUSE_TEXT)
def test_clause_ends_are_the_plain_alternations(text):
    _same_clause_ends(text)


def test_the_corpus_has_the_same_clause_ends():
    for name in NAMES:
        for number, record in enumerate(records(name)):
            if number % 4 == 0:
                _same_clause_ends(fold(record["text"]).text)


# The address and amount shapes as single alternations, before they were split for speed.
_PLAIN_ACCOUNT = re.compile(
    r"\b[a-z]{2}\d{2}[a-z0-9]{10,30}\b|(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])"
)
_PLAIN_AMOUNT = re.compile(
    r"(?:[$€£¥₹₩₽₺]|\br\$|\b(?:usd|eur|gbp|btc|eth)\b)[ \t]?\d"
    r"|\b\d[\d,.]*[ \t]?(?:usd|eur|gbp|dollars?|euros?|btc|bitcoins?|eth|reais|rupees?|zł|zloty|złotych"
    r"|tl|lira|dong|vnd|руб\w*|грн|гривень|рупи\w*|रुपये|ریال|تومان|درهم|ريال|دولار|บาท|원)(?!\w)"
    r"|\d[ \t]?(?:[万萬千亿億]?[円元圆圓块塊]|万|萬|만[ \t]?원|억)"
    r"|(?<![\d-])\d{2,}[- ]\d{3,}[- ]\d{3,}(?![\d-])"
)
_SHAPE_TEXT = st.lists(
    st.sampled_from(
        list("ab1 9.-,$€")
        + ["de44", "500107", "1234567890", "192.168.", "usd", " 5万円", "10만 원"]
    ),
    max_size=40,
).map("".join)


def _same_shapes(text: str) -> None:
    for low, high in ((0, len(text)), (len(text) // 3, len(text) - len(text) // 4)):
        assert concept_shapes.account_numbers(text, low, high) == [
            m.span() for m in _PLAIN_ACCOUNT.finditer(text, low, high)
        ], text[:80]
        assert concept_shapes.amounts(text, low, high) == [
            m.span() for m in _PLAIN_AMOUNT.finditer(text, low, high)
        ], text[:80]


@settings(max_examples=500, deadline=None)
@given(_SHAPE_TEXT)
def test_the_shape_searches_are_the_plain_alternations(text):
    _same_shapes(text)


def test_the_corpus_has_the_same_shapes():
    for name in NAMES:
        for number, record in enumerate(records(name)):
            if number % 4 == 0:
                _same_shapes(fold(record["text"]).text)


# The clause ends searched for only where the grouping asks (`ClauseEnds`), against every end of
# one search from the start.
def _same_ends_asked(text: str, low: int, step: int = 1) -> None:
    endpos = len(text)
    every = [m.end() for m in clauses.clause_end().finditer(text, low, endpos)]
    # One object asked in text order (its answers kept between questions), and a fresh one.
    asked = clauses.ClauseEnds(text, low, endpos)
    places = range(low, endpos, step)
    for before, at in zip([None, *places], places, strict=False):
        first = min((e for e in every if e > at), default=float("inf"))
        assert asked.first_after(at) == first, (text[:80], at)
        fresh = clauses.ClauseEnds(text, low, endpos)
        assert fresh.first_after(at) == first, (text[:80], at)
        since = low if before is None else before
        between = [e for e in every if since < e <= at]
        assert fresh.count(since, at, 2) == min(2, len(between)), (text[:80], before, at)
        if before is None or between:
            assert fresh.last(before, at) == max(between, default=low), (text[:80], before, at)


# Mostly what clause ends open with and run over, so that searches start inside them.
_ENDS_TEXT = st.lists(
    st.sampled_from([*' \t\n,:}]"{[|.a1', "x:", "- ", "中."]), min_size=1, max_size=40
).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.one_of(_ENDS_TEXT, _CLAUSE_TEXT.filter(bool)), st.integers(min_value=0, max_value=59))
# An end that runs over each character it can: a JSON string's edge, a blank line.
@example('a" \t}b', 0)
@example('a"]b', 0)
@example('a":b', 0)
@example('a",b', 0)
@example('a, \t"b', 0)
@example("a\n \t\nb", 0)
def test_clause_ends_asked_for_are_those_of_one_search(text, low):
    _same_ends_asked(text, low % len(text))


def test_the_corpus_has_the_same_clause_ends_asked_for():
    for name in NAMES:
        for number, record in enumerate(records(name)):
            if number % 16 == 0:
                text = fold(record["text"]).text
                if text:
                    _same_ends_asked(text, len(text) // 5, step=7)


# The signal patterns as `re` searches them (`signals.searchable`), against their sources.
SEARCHABLE = [
    (p.regex, re.compile(p.source))
    for p in signals.PATTERNS
    if signals.searchable(p.source) != p.source
]
_OPENERS = st.sampled_from(
    "to you the ai ignore all previous instructions important message from me before do following"
    " first is not malicious just print".split()
)
# What may stand glued before a word: nothing, or a word character (no boundary then).
_GLUED = st.sampled_from(["", "", "", "x", "é", "_", "1"])


def _same_as_the_sources(folded: str) -> None:
    for fast, plain in SEARCHABLE:
        assert [m.span() for m in fast.finditer(folded)] == [
            m.span() for m in plain.finditer(folded)
        ], (plain.pattern[:60], folded[:80])


def test_most_patterns_open_with_a_letter_re_can_look_for():
    assert len(SEARCHABLE) > 50
    # A word that may be left out keeps its boundary where it is.
    assert signals.searchable(r"\bs?end") == r"\bs?end"
    assert signals.searchable(r"\b(?:a|b)?c") == r"\b(?:a|b)?c"
    assert signals.searchable(r"\b(?:to|at)x") == r"(?:t(?<!\w.)o|a(?<!\w.)t)x"
    # Alternatives that all open with `\b` are tried as one `\b` first: they stay as they are.
    assert signals.searchable(r"\bis x|\bare [|] y") == r"\bis x|\bare [|] y"
    assert signals.searchable(r"\bis [^]|] (?:x|y)") == r"i(?<!\w.)s [^]|] (?:x|y)"


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(_GLUED, _OPENERS, st.sampled_from([" ", "  ", "\n", ", ", ": "])), max_size=30
    )
)
# "to you ai" after each kind of word character: no match, as no boundary stands before "to".
@example(
    [
        piece
        for glued in "xé_1"
        for piece in ((glued, "to", " "), ("", "you", " "), ("", "ai", ", "))
    ]
)
def test_generated_text_gets_the_sources_matches(pieces):
    _same_as_the_sources("".join(glued + word + gap for glued, word, gap in pieces))


def test_the_corpus_gets_the_sources_matches():
    for name in NAMES:
        for number, record in enumerate(records(name)):
            if number % 4 == 0:
                _same_as_the_sources(fold(record["text"]).text)


# The keyed values' patterns as single alternations, before they were split by opening quote.
_PLAIN_PAIR = re.compile(
    r"\"([\w .-]{1,48})\"[ \t]*:[ \t]*\"((?:[^\"\\]|\\.)*)\"|'([\w .-]{1,48})'[ \t]*:[ \t]*'((?:[^'\\]|\\.)*)'"
)
_PLAIN_CONTAINER = re.compile(r"[\"']([\w .-]{1,48})[\"'][ \t]*:[ \t]*[\[{]")
_PLAIN_KEY = re.compile(r"[\"'](?=([\w .-]{1,48})[\"'][ \t]*:)")
_KEYED_TEXT = st.lists(
    st.sampled_from([*"\"'\\:{}[] \tab.\n", "'k': ", '"k": ', "'a b'", '"x"', "é"]), max_size=40
).map("".join)


def _same_keyed_values(text: str) -> None:
    pairs = [
        (m.span(), [g for g in m.groups() if g is not None]) for m in _PLAIN_PAIR.finditer(text)
    ]
    split = alternation.leftmost(text, context._quoted_pairs())
    assert [(m.span(), list(m.groups())) for _, m in split] == pairs, text[:80]
    for low in (0, len(text) // 3):
        keys = alternation.leftmost(text, context._container_keys(), low, len(text))
        assert [m.span() for _, m in keys] == [
            m.span() for m in _PLAIN_CONTAINER.finditer(text, low)
        ], text[:80]
    assert {m.group(1) for p in context._quoted_keys() for m in p.finditer(text)} == {
        m.group(1) for m in _PLAIN_KEY.finditer(text)
    }, text[:80]


@settings(max_examples=500, deadline=None)
@given(_KEYED_TEXT)
@example('"a": "b\\"c", \'d\': \'e\'')
@example("'a\": [")
def test_the_keyed_value_searches_are_the_plain_alternations(text):
    _same_keyed_values(text)


def test_the_corpus_has_the_same_keyed_values():
    for name in NAMES:
        for number, record in enumerate(records(name)):
            if number % 4 == 0:
                _same_keyed_values(fold(record["text"]).text)
