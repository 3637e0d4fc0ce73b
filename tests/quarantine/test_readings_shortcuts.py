"""The readings' shortcuts make exactly the readings of the plain paths, on generated text and the corpus.

Each shortcut only leaves out work that cannot change a reading: plain pieces where no base64 run
is open, the escaped hex forms where their marks are absent, words without a leet digit, texts
without a look-alike letter. The plain path of each is spelled out here as the reference.
"""

import re

from corpus.records import NAMES, records
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lazaretto.proxy.matcher import cache_folder
from lazaretto.proxy.quarantine import readings

# What the readings act on, beside ordinary letters: base64 and its gaps and padding, hex marks
# and separators, leet digits, ordinals and hours, a look-alike letter and other scripts.
_ALPHABET = st.sampled_from(
    list("abcdefxyzABCDEFXYZ0123456789+/=  \t\n\"',.:;-\\%&#$_@")
    + ["0x", "\\x", "\\u", "aGVsbG8g", "d29ybGQ=", "օ", "а", "日", "é", "1st", "3pm", "4nd"]
)
_TEXT = st.lists(_ALPHABET, max_size=120).map("".join)

# The plain paths, as they read before the shortcuts.
_LEET_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]*[013457$][A-Za-z013457$]*(?![A-Za-z0-9])")
_EVERY_LEET_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z013457$]+(?![A-Za-z0-9])")
_PLAIN_HEX_PAIRS = re.compile(
    r"(?<![0-9A-Za-z])[0-9A-Fa-f]{2}(?:[ :,-][0-9A-Fa-f]{2}){5,}(?![0-9A-Za-z])"
)


def _plain_leet_marked(text: str) -> bool:
    # Every mark read on its own, its word matched whole and tested (an ordinal or an hour is none).
    words = set()
    for mark in readings._leet_mark().finditer(text):
        start = mark.start()
        while start and text[start - 1].isascii() and text[start - 1].isalnum():
            start -= 1
        word = re.compile(r"[A-Za-z0-9@$]+").match(text, start)
        if (
            word
            and re.fullmatch(r"[A-Za-z013457]*[A-Za-z][A-Za-z013457]*", word.group(0))
            and not readings._number_word().fullmatch(word.group(0))
        ):
            words.add(word.start())
    return len(words) >= readings._MARK_HITS


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
    assert _LEET_WORD.sub(_spell, text) == _EVERY_LEET_WORD.sub(_spell, text)
    assert readings._leet_marked(text) is _plain_leet_marked(text)
    assert list(readings._leet_words(text)) == [m.span() for m in _LEET_WORD.finditer(text)]
    # No reading, or one the substitution also makes; "no reading" where it would change nothing.
    plain = _plain_lookalikes(text)
    assert readings._lookalikes(text) in (plain, None)
    assert readings._lookalikes(text) is not None or plain in (None, text)


@settings(max_examples=500, deadline=None)
@given(_TEXT)
# A leet word that ends where a dollar sign gives way to another digit: the word is "a1".
@example("a1$9 and p4$5")
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


# Leet words' edges: letters, leet and other digits, the `$` that is a leet letter but no word
# character, and characters around and beyond ASCII.
_LEET_EDGES = st.lists(st.sampled_from(list("aZx0137925$@ :-é")), max_size=60).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_LEET_EDGES)
def test_leet_words_are_the_words_the_whole_pattern_finds(text):
    assert readings._leet_marked(text) is _plain_leet_marked(text)
    assert list(readings._leet_words(text)) == [m.span() for m in _LEET_WORD.finditer(text)]
    leet = readings._leet(text)
    if leet is not None:
        assert leet == _LEET_WORD.sub(lambda m: readings._spelled(text, *m.span()), text)


# Base64's classes side by side, gaps, padding and characters of no class.
_PIECES = st.lists(st.sampled_from(list('aZ09+/= ,"é-')), max_size=40).map("".join)


@settings(max_examples=1000, deadline=None)
@given(_PIECES)
def test_looking_pieces_start_where_the_looking_piece_regex_does(text):
    shaped = readings._LookingPieces(text)
    for pos in range(len(text) + 1):
        found = readings._looking_piece().search(text, pos)
        assert shaped.next_start(pos) == (None if found is None else found.start())
    for piece in readings._token().finditer(text):
        looks = readings._base64_look().search(piece.group()) is not None
        assert shaped.looks(*piece.span()) is looks


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
