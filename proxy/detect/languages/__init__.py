"""The languages the concept tables cover, and how a word is bounded in each script.

Words are found in folded text (see `normalize.fold`): lower case, accents and other combining
marks dropped, Hangul syllables split into their letters. Scripts written with spaces bound a
word by any character that is not a letter, mark or digit; Chinese, Japanese, Thai and their
neighbours are written without spaces, so a term there matches wherever it occurs. Arabic-script
words carry their conjunction, preposition and article on their front ("وتجاهل", "and ignore"),
so a term there may also start after one of those; Hebrew words carry theirs the same way
(each language's `clitics`).

What each language knows (its words for every concept and its grammar settings) is in its own
file here, named by its code (`en.py`, `de.py`): `words` and `grammar` read them.
"""

import importlib
import unicodedata
from enum import Enum
from functools import cache
from types import ModuleType

from .grammar import Grammar


class Language(Enum):
    """The languages with their own column in the concept tables (ISO 639-1 codes)."""

    EN = "English"
    ZH = "Chinese"
    ES = "Spanish"
    HI = "Hindi"
    PT = "Portuguese"
    RU = "Russian"
    JA = "Japanese"
    DE = "German"
    FR = "French"
    KO = "Korean"
    ID = "Indonesian"
    TR = "Turkish"
    VI = "Vietnamese"
    IT = "Italian"
    PL = "Polish"
    AR = "Arabic"
    TH = "Thai"
    FA = "Persian"
    UK = "Ukrainian"
    NL = "Dutch"
    SV = "Swedish"
    CS = "Czech"
    RO = "Romanian"
    EL = "Greek"
    HE = "Hebrew"
    BN = "Bengali"
    SW = "Swahili"


class Bounds(Enum):
    """Where a term may start and end inside the folded text."""

    WORD = "word"  # a whole word
    PREFIX = "prefix"  # the start of a word, any ending (inflections, particles, compounds)
    ANYWHERE = "anywhere"  # inside a word too (German compounds, scripts without spaces)
    CLITIC = "clitic"  # the start of a word, or after an Arabic-script or Hebrew clitic


# Unicode script blocks written without spaces between words: Han, kana, Thai, Lao, Khmer,
# Myanmar. A term in them is bounded by nothing.
_UNSPACED = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana (folded to full width, kept for safety)
)
_ARABIC_SCRIPT = ((0x0600, 0x06FF), (0x0750, 0x077F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))
# The clitics Arabic-script and Hebrew words carry are each language's `clitics` (in its file).
_HEBREW_SCRIPT = ((0x0590, 0x05FF), (0xFB1D, 0xFB4F))


def _within(ch: str, blocks: tuple[tuple[int, int], ...]) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in blocks)


def unspaced(ch: str) -> bool:
    """Whether `ch` belongs to a script written without spaces between words."""
    return _within(ch, _UNSPACED)


def arabic_script(ch: str) -> bool:
    """Whether `ch` is an Arabic-script letter (Arabic, Persian, Urdu)."""
    return _within(ch, _ARABIC_SCRIPT)


def hebrew_script(ch: str) -> bool:
    """Whether `ch` is a Hebrew letter."""
    return _within(ch, _HEBREW_SCRIPT)


@cache
def is_word_character(ch: str) -> bool:
    """Letters, marks and digits of every script (a vowel sign inside a Hindi word is part of it)."""
    return unicodedata.category(ch)[0] in "LMN" or ch == "_"


@cache
def _module(language: Language) -> ModuleType:
    return importlib.import_module(f"{__name__}.{language.name.lower()}")


def words(language: Language) -> dict[str, str]:
    """The language's terms for each concept it has words for (see `concepts.py`)."""
    return _module(language).WORDS


def grammar(language: Language) -> Grammar:
    """The language's grammar settings."""
    return _module(language).GRAMMAR


def collected(setting: str) -> tuple[str, ...]:
    """One grammar setting's words (`clitics`, `limits`, ...) from every language, each once, in
    the table's order of languages."""
    return tuple(
        dict.fromkeys(word for language in Language for word in getattr(grammar(language), setting))
    )


def alternatives(setting: str) -> str:
    """One grammar setting that is a pattern (`quotation_condition_after`, ...), every language's
    as one alternation; empty when no language has one."""
    found = [getattr(grammar(language), setting) for language in Language]
    return "|".join(f"(?:{pattern})" for pattern in found if pattern)


def default_bounds(term: str, language: Language | None = None) -> Bounds:
    """How a term written without a marker is bounded, from its language and first script."""
    first = term[0]
    if language is not None and grammar(language).whole_words:
        return Bounds.WORD
    if unspaced(first):
        return Bounds.ANYWHERE
    if arabic_script(first) or hebrew_script(first):
        return Bounds.CLITIC
    return Bounds.PREFIX
