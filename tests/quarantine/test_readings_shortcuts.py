"""The readings' shortcuts make exactly the readings of the plain paths, on generated text and the corpus.

Each shortcut only leaves out work that cannot change a reading: plain pieces where no base64 run
is open, the escaped hex forms where their marks are absent, words without a leet digit, texts
without a look-alike letter. The plain path of each is spelled out here as the reference.
"""

import re

from corpus.records import NAMES, records
from hypothesis import given, settings
from hypothesis import strategies as st

from lazaretto.proxy.matcher import cache_folder
from lazaretto.proxy.quarantine import readings

# What the readings act on, beside ordinary letters: base64 and its gaps and padding, hex marks
# and separators, leet digits, a look-alike letter and other scripts.
_ALPHABET = st.sampled_from(
    list("abcdefxyzABCDEFXYZ0123456789+/=  \t\n\"',.:;-\\%&#$_@")
    + ["0x", "\\x", "\\u", "aGVsbG8g", "d29ybGQ=", "օ", "а", "日", "é"]
)
_TEXT = st.lists(_ALPHABET, max_size=120).map("".join)

# The plain paths, as they read before the shortcuts.
_EVERY_LEET_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z013457$]+(?![A-Za-z0-9])")
_PLAIN_HEX_PAIRS = re.compile(
    r"(?<![0-9A-Za-z])[0-9A-Fa-f]{2}(?:[ :,-][0-9A-Fa-f]{2}){5,}(?![0-9A-Za-z])"
)


def _spell(match: re.Match) -> str:
    return match.group(0).translate(readings._LEET)


def _plain_lookalikes(text: str) -> str | None:
    if text.isascii():
        return None
    table = readings._lookalike_table()
    return readings._word().sub(
        lambda m: (
            m.group(0).translate(table) if readings._latin().search(m.group(0)) else m.group(0)
        ),
        text,
    )


def _same_readings(text: str) -> None:
    assert readings._chunked_base64(text) == readings._chunked_base64(text, skip=False)
    assert readings._has_hex_run(text) == (readings._hex_run().search(text) is not None)
    pairs = readings._hex_forms()[2][1]
    assert [m.span() for m in pairs.finditer(text)] == [
        m.span() for m in _PLAIN_HEX_PAIRS.finditer(text)
    ]
    assert readings._leet_word().sub(_spell, text) == _EVERY_LEET_WORD.sub(_spell, text)
    # No reading, or one the substitution also makes; "no reading" where it would change nothing.
    plain = _plain_lookalikes(text)
    assert readings._lookalikes(text) in (plain, None)
    assert readings._lookalikes(text) is not None or plain in (None, text)


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_generated_text_gets_the_plain_paths_readings(text):
    _same_readings(text)


def test_the_corpus_gets_the_plain_paths_readings():
    read = 0
    for name in NAMES:
        for number, record in enumerate(records(name)):
            if number % 3 == 0:
                _same_readings(record["text"])
                read += 1
    assert read > 1500


def test_base64_chunks_in_prose_read_only_the_pieces_that_look_like_base64(monkeypatch):
    prose = "The build now caches compiled templates between runs, as planned. " * 200
    text = prose + "aGVsbG8g d29ybGQg aXMgaGVyZQ== " + prose
    assert readings._chunked_base64(text) == readings._chunked_base64(text, skip=False)
    assert "hello world is here" in (readings._chunked_base64(text) or "")
    read: list[int] = []
    real = readings._token()

    class Counting:
        def search(self, text, pos):
            read.append(pos)
            return real.search(text, pos)

        def match(self, text, pos):
            read.append(pos)
            return real.match(text, pos)

    counting = Counting()
    monkeypatch.setattr(readings, "_token", lambda: counting)
    readings._chunked_base64(text)
    # The three pieces and the plain word after them, not the prose's 4,000 words.
    assert len(read) < 10


def test_the_look_alike_table_is_read_back_from_the_cache_folder(monkeypatch, tmp_path):
    # Reading Unicode's confusables data is most of a process's first text beyond ASCII: the
    # table made from it is kept, checked like the cache folder's other files, and read back.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    readings._lookalike_table.cache_clear()
    try:
        built = readings._lookalike_table()
        (kept,) = cache_folder.path().glob("lookalikes-*.json")
        readings._lookalike_table.cache_clear()
        assert readings._lookalike_table() == built
        assert built[ord("\u0585")] == "o"  # Armenian oh
        cache_folder.write(kept.name, b'["of another shape"]')
        readings._lookalike_table.cache_clear()
        assert readings._lookalike_table() == built
    finally:
        readings._lookalike_table.cache_clear()
