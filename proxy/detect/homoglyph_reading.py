"""The homoglyph reading: words that mix scripts, such as a Latin word with a Cyrillic letter in it."""

from .evidence import Evidence, Page, Signal, excerpt
from .normalize import mixed_script_words
from .signals import HOMOGLYPHS

# One odd word can be a typo or a loanword; several are a deliberate disguise.
_WEIGHT_BY_COUNT = (0.3, 0.6, 1.0)


class HomoglyphReading:
    """Finds up to three mixed-script words in the text as given (folding would hide them)."""

    name = HOMOGLYPHS

    def read(self, page: Page) -> Evidence:
        found = Evidence()
        if not page.counts(HOMOGLYPHS):
            return found
        mixed = mixed_script_words(page.text, len(_WEIGHT_BY_COUNT))
        if mixed:
            weight = _WEIGHT_BY_COUNT[len(mixed) - 1]
            found.count(HOMOGLYPHS, weight)
            found.signals.extend(
                Signal(HOMOGLYPHS, weight, excerpt(page.text, s, e), s, e) for s, e in mixed
            )
        return found
