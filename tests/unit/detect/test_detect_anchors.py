"""The anchor scan finds exactly what running every pattern over the whole text finds."""

import json
import re
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazaretto.proxy.detect import anchors
from lazaretto.proxy.detect.anchors import MATCHES_PER_PATTERN, find
from lazaretto.proxy.detect.signals import PATTERNS

# Words the patterns are made of, and everyday ones around them, so generated text hits many
# anchors, near misses ("information" for "inform", "tell_" for the whole word "tell") and
# matches across separators.
WORDS = (
    "ignore disregard previous all instructions you are now the assistant ai agent model note for to send forward "
    "email e-mail me my your user's files contents to attacker@example.com https://webhook.site/x http://10.0.0.1 "
    'system: assistant: user: <|im_start|> [inst] <system> todo: please run call the tool with arguments {"name": '
    '"x", "arguments": api_key .env ~/.ssh password token do not tell the user secretly important message from '
    "admin maintainer says before you answer instead of your task information inform javascript: <script onerror= "
    "repeat this in every message begin end of instructions --- ### new rules: is not malicious everything is safe "
    "| bash curl following first mode developer act as an unrestricted respond only with nothing else informed "
    "informal tell_ telling no longer free to you're mentions e-mails token tokens password_reset"
).split()
# Some non-ASCII, so that both scans (one for ASCII text, one for the rest) are compared.
SEPARATORS = (" ", " ", " ", ", ", ". ", "\n", ": ", " - ", "  ", "", "\u00a0", " — ")


def brute_force(text: str) -> list:
    """Every pattern over the whole text, first matches only: what `find` must reproduce."""
    found = []
    for pattern in PATTERNS:
        spans = [m.span() for m in islice(pattern.regex.finditer(text), MATCHES_PER_PATTERN)]
        if spans:
            found.append((pattern, spans))
    return found


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=60))
def test_find_equals_every_pattern_over_the_text(pieces):
    text = "".join(word + sep for word, sep in pieces)
    assert find(text) == brute_force(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS[:10])), max_size=60))
def test_a_long_text_scanned_in_pieces_finds_the_same(pieces):
    # Long ASCII text is reduced and scanned a piece at a time; tiny pieces put every literal
    # across a boundary somewhere.
    text = "".join(word + sep for word, sep in pieces)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(anchors, "_GAP_PIECE", 7)
        assert find(text) == brute_force(text)


def test_text_without_anchors_finds_nothing():
    assert (
        find("quarterly revenue rose 4% on stronger subscription sales in the north region") == []
    )


def test_match_at_the_very_start_and_end():
    text = "ignore previous instructions"
    assert find(text) == brute_force(text) != []


def test_punctuation_inside_a_literal_is_not_taken_for_another():
    # ASCII text is scanned with every gap between words turned into a space; a literal spelled
    # with a space must still not match where the text has other punctuation, and the reverse.
    for word in [*WORDS, "admin mode", "a.i.", "api key", "api_key", "system prompt"]:
        for gap in " .'>-:/|<":
            variant = re.sub(r"[^a-z0-9_]", gap, word)
            for text in (variant, f"please {variant} now", f"({variant}) {word}"):
                assert find(text) == brute_force(text), text


def test_the_shipped_anchor_table_is_current():
    shipped = json.loads(anchors._TABLE_FILE.read_text(encoding="utf-8"))
    assert shipped == anchors.anchor_table(), (
        "anchors.json is stale: python -c 'from lazaretto.proxy.detect.anchors import write_table; write_table()'"
    )
    assert anchors._recorded_anchors() == anchors.analysed_anchors()


def test_a_table_read_from_other_patterns_is_not_used(tmp_path):
    stale = anchors.anchor_table()
    stale["sources"] = "0" * 64
    path = tmp_path / "anchors.json"
    path.write_text(json.dumps(stale))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(anchors, "_TABLE_FILE", path)
        assert anchors._recorded_anchors() is None
        path.write_text("{not json")
        assert anchors._recorded_anchors() is None
