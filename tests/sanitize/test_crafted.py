"""Crafted inputs that make naive regexes backtrack: each must come out right, in linear time.

Each input is checked twice: its result at one size, and the growth of its cost with its size.
"""

import base64
import re
import sys

import pytest
from support.growth import assert_linear, repeated

from lazaretto.proxy.quarantine.scan import ScanRules, scan_text
from lazaretto.proxy.sanitize import SanitizeRules, sanitize
from lazaretto.proxy.sanitize.budget import OverBudget
from lazaretto.proxy.sanitize.pipeline import MAX_ROUNDS

RULES = SanitizeRules(looks_like_instructions=lambda text: "ignore" in text.lower())
NEAR_THRESHOLD = base64.b64encode(bytes(range(256)) * 2).decode()[:199]


def _clean(text):
    return sanitize(text, RULES)


def test_fifty_megabytes_of_prose_take_the_fast_path():
    # The fast path decides from byte translations of the text (shape.py) that no family has
    # anything to remove; no family's pattern is run over the prose at all.
    text = ("The quick brown fox jumps over the lazy dog, then naps. " * 900_000)[:50_000_000]
    patterns = []
    _clean(
        "warm " * 300_000
    )  # the shortcut's compiled scans (block, stream) are built on first use

    def watch(frame, event, called):
        if event == "c_call" and isinstance(getattr(called, "__self__", None), re.Pattern):
            patterns.append(called.__self__.pattern)

    sys.setprofile(watch)
    try:
        cleaned, removals = _clean(text)
    finally:
        sys.setprofile(None)
    assert cleaned is text and removals == []
    assert patterns == []


def _open_comments(size):
    return "keep<!--" + "<!--" * (size // 4)


# name -> (a maker of the input at about n characters, the size its result is checked at).
NEAR_MISSES = {
    "lone surrogates": (repeated("\ud800abc\udfff"), 600_000),
    "spaces then text": (lambda size: " " * size + "x", 1_000_000),
    "newlines then text": (lambda size: "\n" * size + "x", 1_000_000),
    "199-char base64 repeated": (repeated(NEAR_THRESHOLD + " "), 1_000_000),
    "![ repeated": (repeated("!["), 2_000_000),
    "unmatched close tags": (
        lambda size: "<a></a>" * (size // 70) + "</b>" * (size // 7),
        1_400_000,
    ),
    "[INS repeated": (repeated("[INS"), 2_000_000),
    "23-char hex repeated": (repeated("0123456789abcdef0123456 "), 2_400_000),
}


@pytest.mark.parametrize(("make", "size"), NEAR_MISSES.values(), ids=NEAR_MISSES.keys())
def test_near_misses_are_left_alone(make, size):
    text = make(size)
    cleaned, _ = _clean(text)
    if text.endswith("x"):
        assert cleaned.endswith("x") and len(cleaned) < 10
    else:
        assert cleaned == text


def test_open_comment_repeated_is_one_unclosed_comment():
    cleaned, removals = _clean(_open_comments(4_000_000))
    assert cleaned == "keep"
    assert removals[0].kind == "html-comment" and removals[0].count == 1


def test_a_tag_left_open_to_the_end_is_dropped_as_a_browser_drops_it():
    cleaned, removals = _clean("shown " + "<div style=" * 300_000)
    assert cleaned == "shown "
    assert [r.kind for r in removals] == ["hidden-html"]


@pytest.mark.slow
def test_markup_nested_past_the_bound_cannot_be_rendered_and_is_withheld():
    for text in ("keep" + "<div hidden>" * 200_000, "<a>" * 200_000):
        verdict = scan_text(text, ScanRules())
        assert verdict.verdict == "withheld" and verdict.signal_names == ["scan_error"]


def test_many_short_invisible_runs():
    cleaned, removals = _clean("a b\u200b" * 300_000)
    assert cleaned == "a b" * 300_000
    assert removals[0].count == 300_000


def test_many_unterminated_escape_strings():
    cleaned, removals = _clean("\x1b]" * 200_000)
    assert cleaned == "" and removals[0].kind == "ansi-escapes"


# Markdown the parser reads at length (tens of microseconds a bracket): left alone within the
# parse's budget, refused unparsed past it (the scan withholds it, see test_bounded_work.py).
MARKDOWN_DENSE = {
    "unclosed image titles": repeated('![a](b "'),
    "![ repeated, then an image": lambda size: "![" * (size // 2) + "](x)",
}


@pytest.mark.parametrize("make", MARKDOWN_DENSE.values(), ids=MARKDOWN_DENSE.keys())
def test_dense_markdown_is_read_within_its_budget_and_refused_past_it(make):
    within = make(2_000)
    assert _clean(within)[0] == within
    with pytest.raises(OverBudget):
        _clean(make(200_000))


def _clean_or_refuse(text):
    try:
        return _clean(text)
    except OverBudget:
        return None


GROWTH = {
    **{name: make for name, (make, _) in NEAR_MISSES.items()},
    **MARKDOWN_DENSE,
    "open comment repeated": _open_comments,
    "a tag left open": repeated("<div style="),
    "short invisible runs": repeated("a b\u200b"),
    "unterminated escape strings": repeated("\x1b]"),
    "prose": repeated("The quick brown fox jumps over the lazy dog, then naps. "),
}


@pytest.mark.serial  # measures how CPU time grows
@pytest.mark.parametrize(("name", "make"), GROWTH.items(), ids=GROWTH.keys())
def test_crafted_inputs_run_in_linear_time(name, make):
    assert_linear(_clean_or_refuse, make, 16_000, f"sanitize, {name}")


def test_a_nest_that_needs_a_round_per_layer_is_withheld_whole():
    # A delimiter removal completes a comment, which only the next round sees; each layer adds one.
    def nest(depth):
        return "<|im_end|>" if depth == 0 else "<" + nest(depth - 1) + "!--c-->"

    shallow, _ = sanitize("a" + nest(3) + "b", RULES)
    assert shallow == "ab"
    deep, removals = sanitize("a" + nest(MAX_ROUNDS + 2) + "b", RULES)
    assert deep == ""
    assert any("a<" in removal.decoded for removal in removals)
