"""The byte-shape prefilter agrees with the regex it stands in front of, on any text."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lazaretto.proxy.sanitize.shape import Shape, beyond_ascii

ALPHABET = "ABCxyz019+/_-"
SHAPE = Shape({ALPHABET: "b"})
# Class members, their neighbours, multi-byte characters and a lone surrogate.
TEXT = st.text(
    alphabet=st.sampled_from(
        list(ALPHABET) + [" ", "=", "é", "ж", "\u200b", "😀", "\ud800", "\x00"]
    )
)


@given(TEXT, st.integers(min_value=1, max_value=5))
def test_a_run_in_the_shape_is_a_run_in_the_text(text, length):
    expected = re.search(f"[{re.escape(ALPHABET)}]{{{length}}}", text) is not None
    assert (b"b" * length in SHAPE.of(text)) is expected


def test_non_ascii_members_are_refused():
    with pytest.raises(ValueError):
        Shape({"é": "x"})


@given(TEXT)
def test_holds_agrees_with_the_shape(text):
    assert SHAPE.holds(text, "b") is (b"b" in SHAPE.of(text))


@pytest.mark.parametrize("boundary", [1 << 16, 2 << 16])
@pytest.mark.parametrize("shift", range(-5, 2))
def test_has_run_finds_a_run_across_a_piece_boundary(boundary, shift):
    # Long text is shaped in pieces; a run placed on every side of a likely piece boundary.
    text = " " * (boundary + shift) + "y" * 5 + "é" * 3 + " " * (3 << 16)
    assert SHAPE.has_run(text, "b", 5)
    assert not SHAPE.has_run(text, "b", 6)


@given(TEXT, st.integers(min_value=1, max_value=5))
def test_has_run_agrees_with_the_shape(text, length):
    assert SHAPE.has_run(text, "b", length) is (b"b" * length in SHAPE.of(text))


@pytest.mark.parametrize("boundary", [1 << 16, 2 << 16])
@pytest.mark.parametrize("shift", range(-5, 2))
def test_search_and_holds_find_what_sits_across_or_past_a_piece_boundary(boundary, shift):
    text = " " * (boundary + shift) + "y=y=y" + "é" * 3 + " " * (3 << 16)
    assert SHAPE.search(re.compile(rb"b~b~b"), text, 5)
    assert not SHAPE.search(re.compile(rb"b~b~b~b"), text, 7)
    assert SHAPE.holds(text, "b")
    assert not SHAPE.holds(" " * (boundary + shift) + "é" * 3, "b")


@given(TEXT)
def test_beyond_ascii_is_every_character_outside_ascii_in_order(text):
    assert beyond_ascii(text) == "".join(re.findall("[^\x00-\x7f]", text))


def test_beyond_ascii_reads_a_long_text_piece_by_piece():
    text = ("é" + "a" * 1000 + "\ud800😀") * 200
    assert len(text) > 2 << 16
    assert beyond_ascii(text) == "é\ud800😀" * 200
