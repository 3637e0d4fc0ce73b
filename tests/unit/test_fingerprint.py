"""Word-window fingerprints: the fast paths give exactly the values of the plain definition."""

import unicodedata
import zlib

from hypothesis import given
from hypothesis import strategies as st

from lazaretto.proxy.fingerprint import _WORD, MIN_WORDS, WINDOW, text_fingerprints


def reference(text: str) -> list[tuple[int, int]]:
    """(fingerprint, head) of every window, as the module's docstring defines them."""
    codes = [zlib.crc32(unicodedata.normalize("NFKC", w).casefold().encode("utf-8", "surrogatepass"))
             for w in _WORD.findall(text)]
    if len(codes) < WINDOW:
        return [(hash(tuple(codes)), codes[0])] if len(codes) >= MIN_WORDS else []
    return [(hash(tuple(codes[i : i + WINDOW])), codes[i]) for i in range(len(codes) - WINDOW + 1)]


texts = st.text(alphabet=st.sampled_from(list("abcAB 019_-.,\n\tÉéßİﬁＡ\u200bй")), max_size=120)


@given(texts)
def test_every_window_matches_the_definition(text):
    assert text_fingerprints(text) == {fp for fp, _ in reference(text)}


@given(texts, st.sets(st.integers(0, 2**32 - 1), max_size=3), st.data())
def test_heads_keep_exactly_the_windows_that_start_with_one(text, extra, data):
    windows = reference(text)
    chosen = data.draw(st.sets(st.sampled_from([head for _, head in windows]))) if windows else set()
    heads = chosen | extra
    short = len(_WORD.findall(text)) < WINDOW  # one fingerprint for the whole text, always compared
    expected = {fp for fp, head in windows if short or head in heads}
    assert text_fingerprints(text, heads) == expected
