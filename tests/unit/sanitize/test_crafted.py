"""Crafted inputs that make naive regexes backtrack: each must come out right, in linear time.

Timings are printed (run with -s to see them), never asserted.
"""

import base64
import time

import pytest

from lazaretto.proxy.sanitize import SanitizeRules, sanitize
from lazaretto.proxy.sanitize.pipeline import MAX_ROUNDS

RULES = SanitizeRules(looks_like_instructions=lambda text: "ignore" in text.lower())
NEAR_THRESHOLD = base64.b64encode(bytes(range(256)) * 2).decode()[:199]


def timed(text):
    start = time.perf_counter()
    result = sanitize(text, RULES)
    elapsed = time.perf_counter() - start
    print(
        f"{len(text) / 1e6:7.2f} M chars in {elapsed * 1000:7.1f} ms ({len(text) / 1e6 / elapsed:7.1f} M chars/s)"
    )
    return result


def test_fifty_megabytes_of_prose_take_the_fast_path():
    text = ("The quick brown fox jumps over the lazy dog, then naps. " * 900_000)[:50_000_000]
    cleaned, removals = timed(text)
    assert cleaned is text and removals == []


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("\ud800abc\udfff" * 100_000, id="lone surrogates"),
        pytest.param(" " * 1_000_000 + "x", id="1M spaces then text"),
        pytest.param("\n" * 1_000_000 + "x", id="1M newlines then text"),
        pytest.param((NEAR_THRESHOLD + " ") * 5_000, id="199-char base64 repeated"),
        pytest.param("![" * 1_000_000, id="![ repeated"),
        pytest.param('![a](b "' * 200_000, id="unclosed image titles"),
        pytest.param("<a></a>" * 20_000 + "</b>" * 200_000, id="unmatched close tags"),
        pytest.param("[INS" * 500_000, id="[INS repeated"),
        pytest.param("0123456789abcdef0123456 " * 100_000, id="23-char hex repeated"),
    ],
)
def test_near_misses_are_left_alone(text):
    cleaned, _ = timed(text)
    if text.endswith("x"):
        assert cleaned.endswith("x") and len(cleaned) < 10
    else:
        assert cleaned == text


def test_a_tag_left_open_to_the_end_is_dropped_as_a_browser_drops_it():
    cleaned, removals = timed("shown " + "<div style=" * 300_000)
    assert cleaned == "shown "
    assert [r.kind for r in removals] == ["hidden-html"]


def test_open_comment_repeated_is_one_unclosed_comment():
    cleaned, removals = timed("keep<!--" + "<!--" * 1_000_000)
    assert cleaned == "keep"
    assert removals[0].kind == "html-comment" and removals[0].count == 1


def test_markup_nested_past_the_bound_cannot_be_rendered_and_is_withheld():
    from lazaretto.proxy.scan import ScanRules, scan_text

    for text in ("keep" + "<div hidden>" * 200_000, "<a>" * 200_000):
        verdict = scan_text(text, ScanRules())
        assert verdict.verdict == "withheld" and verdict.signal_names == ["scan_error"]


def test_many_short_invisible_runs():
    cleaned, removals = timed("a b\u200b" * 300_000)
    assert cleaned == "a b" * 300_000
    assert removals[0].count == 300_000


def test_many_unterminated_escape_strings():
    cleaned, removals = timed("\x1b]" * 200_000)
    assert cleaned == "" and removals[0].kind == "ansi-escapes"


def test_a_nest_that_needs_a_round_per_layer_is_withheld_whole():
    # A delimiter removal completes a comment, which only the next round sees; each layer adds one.
    def nest(depth):
        return "<|im_end|>" if depth == 0 else "<" + nest(depth - 1) + "!--c-->"

    shallow, _ = sanitize("a" + nest(3) + "b", RULES)
    assert shallow == "ab"
    deep, removals = sanitize("a" + nest(MAX_ROUNDS + 2) + "b", RULES)
    assert deep == ""
    assert any("a<" in removal.decoded for removal in removals)
