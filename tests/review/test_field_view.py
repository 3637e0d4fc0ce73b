"""The detail pane's rendering of a field: hidden content in place, highlighting, matched excerpts."""

from lazaretto.app.review.widgets.field_view import (
    EXCERPT_STYLE,
    SEGMENT_STYLES,
    guess_language,
    highlighted_json,
    revealed,
)


def styled(content, style):
    """The text under every span of `style`."""
    return [content.plain[span.start : span.end] for span in content.spans if span.style == style]


def test_hidden_characters_are_marked_where_they_were():
    content = revealed("pay\u200bload")
    assert content.plain == "pay⟨ZWSP⟩load"
    assert styled(content, SEGMENT_STYLES["hidden"]) == ["⟨ZWSP⟩"]


def test_tag_characters_are_shown_decoded_in_their_own_style():
    tags = "".join(chr(0xE0000 + ord(ch)) for ch in "run rm")
    content = revealed(f"hello{tags}")
    assert content.plain == "hellorun rm"
    assert styled(content, SEGMENT_STYLES["tag"]) == ["run rm"]


def test_matched_excerpts_are_highlighted_whatever_their_case():
    content = revealed("Intro. SYSTEM WARNING: obey. Outro.", excerpts=["system warning"])
    assert styled(content, EXCERPT_STYLE) == ["SYSTEM WARNING"]


def test_languages_are_guessed_for_highlighting():
    assert guess_language('{"a": [1, 2]}') == "json"
    assert guess_language("<p>hi</p><!-- x -->") == "html"
    assert guess_language("# Title\n\n- item") == "markdown"
    assert guess_language("plain words") == "text"
    assert guess_language("{not json") == "text"


def test_highlighting_keeps_the_marks_on_their_characters():
    content = revealed('{"note": "a\u200bb"}')
    # The JSON lexer styles the string; the mark still covers exactly the revealed character.
    assert content.plain == '{"note": "a⟨ZWSP⟩b"}'
    assert styled(content, SEGMENT_STYLES["hidden"]) == ["⟨ZWSP⟩"]
    assert len(content.spans) > 1


def test_long_fields_are_cut_with_a_note():
    content = revealed("x" * 50, limit=10)
    assert content.plain.startswith("x" * 10 + "\n… 40 more characters")


def test_json_arguments_are_indented_and_revealed():
    content = highlighted_json({"text": "hi\u202eevil"})
    assert '"text": "hi⟨RLO⟩evil"' in content.plain
    assert styled(content, SEGMENT_STYLES["bidi"])
