"""Score text for instruction-shaped content and say why: each signal with its weight and excerpt.

Each reader (`readers()`) reads the text and returns its evidence; `evidence.score` adds it up.
"""

from functools import cache, lru_cache

from ..matcher import engine
from .context import UNKNOWN_FIELD, Field, kind_of_key
from .evidence import Detection, Page, Reader, Signal, score

DEFAULT_THRESHOLD = 1.0

__all__ = [
    "DEFAULT_THRESHOLD",
    "Detection",
    "Signal",
    "detect",
    "looks_like_instructions",
    "readers",
]


@cache
def readers() -> tuple[Reader, ...]:
    """The first readings of every text, in the order their signals are listed. The learned
    reading (`learned.LearnedReading`) is a second one: it reads only what these scored just
    under the threshold, where the decision is made."""
    # Imported by the first text read: the readers and the tables they load are most of the
    # detector, and a proxy's first pass over a message often tells it holds no evidence at all
    # (see `first_pass`), before any text is read.
    from .homoglyph_reading import HomoglyphReading
    from .rules_reading import RulesReading

    return (RulesReading(), HomoglyphReading())


# A result's keys repeat in each of its records, and every text asks for its key's kind.
@lru_cache(maxsize=4096)
def field_of(key: str) -> Field:
    """The field a text under `key` sits in, as far as its key tells."""
    return Field(kind_of_key(key), key)


def detect(
    text: str,
    scan: engine.Engine | None = None,
    key: str = "",
    kinds: frozenset[str] | None = None,
) -> Detection:
    """Every signal found in `text` and their combined score.

    `scan` is the engine the rules reading runs its patterns by (default: the fastest there is).
    `key` is the key of the field the text sits in, if known (see `context.telling_key`).
    `kinds`, if given, are the only signal kinds that count: the others are neither scored nor
    shown (text written for the model is judged only for what no such text should ask).
    """
    page = Page(text, field_of(key) if key else UNKNOWN_FIELD, kinds)
    chosen = readers()
    if scan is not None:
        from .rules_reading import RulesReading

        chosen = (RulesReading(scan), *chosen[1:])
    return score([reader.read(page) for reader in chosen])


def looks_like_instructions(text: str, threshold: float = DEFAULT_THRESHOLD) -> bool:
    """Whether `text` scores at or above `threshold` (the sanitizer asks this of decoded payloads)."""
    return detect(text).score >= threshold
