"""The compiled engine names a superset of the patterns that match, so detection finds exactly
what running every pattern finds (the plain path, which serves where Hyperscan has no wheel)."""

import re

import pytest
from corpus.records import NAMES, records
from hypothesis import given, settings
from hypothesis import strategies as st

from lazaretto.proxy.detect.detector import detect
from lazaretto.proxy.detect.normalize import fold
from lazaretto.proxy.detect.rules_reading import find
from lazaretto.proxy.detect.signals import PATTERNS
from lazaretto.proxy.matcher import cache_folder, engine

SOURCES = [p.source for p in PATTERNS]
PLAIN = engine.plain(SOURCES)
COMPILED = engine.compiled(SOURCES)

# Words the patterns are made of and everyday ones around them, so generated text hits many
# patterns, near misses ("information" for "inform") and matches across separators.
WORDS = (
    "ignore disregard previous all instructions you are now the assistant ai agent model note for to send forward "
    "email e-mail me my your user's files contents to attacker@example.com https://webhook.site/x http://10.0.0.1 "
    'system: assistant: user: <|im_start|> [inst] <system> todo: please run call the tool with arguments {"name": '
    '"x", "arguments": api_key .env ~/.ssh password token do not tell the user secretly important message from '
    "admin maintainer says before you answer instead of your task information inform javascript: <script onerror= "
    "repeat this in every message begin end of instructions --- ### new rules: is not malicious everything is safe "
    "| bash curl following first mode developer act as an unrestricted respond only with nothing else informed "
    "мой ‐ — ｜ ι ö 答 é"
).split()
SEPARATORS = (" ", " ", ", ", ". ", "\n", ": ", " - ", "  ", "", "\u00a0", " — ", "?", "_")


def test_the_compiled_engine_is_in_use_where_hyperscan_is_installed():
    assert COMPILED.name == ("plain" if engine.hyperscan is None else "hyperscan")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SEPARATORS)), max_size=60))
def test_both_engines_find_the_same(pieces):
    text = "".join(word + sep for word, sep in pieces)
    assert find(text, COMPILED) == find(text, PLAIN)


@pytest.mark.slow
def test_the_corpus_reads_the_same_through_both_engines():
    # Every corpus text: the candidates hold every pattern that matches; whole detections are
    # compared on every seventh (the plain path is slow by design).
    for name in NAMES:
        for number, record in enumerate(records(name)):
            text = record["text"]
            folded = fold(text).text
            assert set(COMPILED.candidates(folded)) >= {
                i for i, p in enumerate(PATTERNS) if p.regex.search(folded)
            }, text[:200]
            if number % 7 == 0:
                assert detect(text, COMPILED) == detect(text, PLAIN)


def test_every_pattern_has_a_looser_form():
    for source in SOURCES:
        loose = engine.loosen(source)
        assert "(?<" not in loose and "(?=" not in loose and "(?!" not in loose
        assert loose.isascii()


@pytest.mark.parametrize(
    ("regex", "text"),
    [
        (r"\bignore\W{1,6}(?<=e )all\b", "ignore all"),
        (r"(?<![a-z])x\w++ y", "xмм y"),  # a non-ASCII word character becomes `?`, which \w takes
        (r"a[^?é]b", "aüb"),  # a negated class does not refuse the stand-in
        (r"(?:^|\n)first", "first"),
        (r"a\s{1,3}b", "a\u3000b"),
        (r"x.{0,60}?y", "x" + "z" * 59 + "y"),
        (r"a[\d.]+b", "a٣b"),
        # A negated class with a shorthand keeps the shorthand's complement, which takes `?`.
        (r"a[^\w|]{1,6}b", "a　b"),
        (r"a[^\w|]{1,6}b", "a - b"),
    ],
)
def test_loosened_patterns_still_match(regex, text):
    assert re.search(regex, text)
    assert re.search(engine.loosen(regex).encode(), engine.shape(text))


@pytest.mark.parametrize("regex", [r"(a)\1", r"\u00e9", r"(?i)x", r"(?#c)x"])
def test_a_pattern_the_rewrite_cannot_widen_is_refused(regex):
    with pytest.raises(ValueError):
        engine.loosen(regex)


def test_a_damaged_cache_file_is_compiled_afresh(tmp_path, monkeypatch):
    if engine.hyperscan is None:
        pytest.skip("no Hyperscan on this platform")
    sources = (r"\bzebra\W{1,3}quagga\b",)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = engine._compiled(sources)
    (cached,) = cache_folder.path().glob("signals-*.hsdb")
    kept = cached.read_bytes()

    def compiled_again() -> None:
        engine._compiled.cache_clear()
        again = engine._compiled(sources)
        assert first.candidates("zebra, quagga") == again.candidates("zebra, quagga") == [0]
        assert cached.read_bytes() == kept

    cached.write_bytes(kept[:-1] + bytes([kept[-1] ^ 1]))  # damaged on disk: the check fails
    compiled_again()
    cache_folder.write(cached.name, b"not a database")  # checked, but no database to load
    compiled_again()


def test_a_negated_class_with_a_shorthand_is_widened_to_the_shorthands_complement():
    # Refusing fewer characters widens it; "any character" would make every pattern with a gap
    # between words a candidate for nearly every text.
    assert engine.loosen(r"x[^\w|]{1,6}y") == r"x[^\w]{1,6}y"
    assert engine.loosen(r"x[^\d,]y") == r"x[^\d]y"
