"""What a reader gives back and how it is scored: signals, the weights they count, one scorer.

A reader (the rules, the homoglyph check, the learned reading) reads a `Page` and returns
`Evidence`; it never scores. `score` adds up the evidence of every reader the same way, so a new
reader only has to say what it found and what each finding weighs.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple, Protocol

from .context import UNKNOWN_FIELD, Field
from .normalize import Folded, fold

# Further distinct findings of one signal kind count less and less: the second half, the third
# a quarter. Independent kinds of evidence add up; rewordings of one kind barely do.
_REPEAT_DECAY = 0.5
_EXCERPT_CHARS = 120

# The most signals a reader keeps of one text, and the most clauses about attacks it keeps the
# places of (each weighs the evidence inside it down). Ordinary text makes a few of each (the most
# any text of the tests' corpora makes is 13 signals, 12 such clauses); a crafted one can make one
# in every clause, one every dozen characters, each kept with its span until its field is decided:
# tens of megabytes for a megabyte. Past this many the text is not read on (see `SignalFlood`).
MAX_SIGNALS = 4096


class SignalFlood(Exception):
    """A text made more signals, or clauses about attacks, than a reader keeps (`MAX_SIGNALS`):
    it is not read on, and the field that holds it is withheld with this as the reason, like any
    text the judge cannot read. Not a ValueError: code that reads a bad value as "no reading"
    (a decoding that fails) must never take a flood for one and pass the field."""

    def __init__(self, what: str = "signals") -> None:
        super().__init__(f"more than {MAX_SIGNALS} {what} in one text: it was not read on")


# A tuple, no dictionary per signal: a crafted text makes one in every clause, tens of thousands
# kept until its field is decided.
class Signal(NamedTuple):
    """One piece of evidence: its kind, its weight, and where in the original text it was found."""

    name: str
    weight: float
    excerpt: str
    start: int
    end: int
    # The key of the field the evidence was judged against ("reviews"), for signals that depend
    # on where the text sits; empty for the others.
    key: str = ""


@dataclass(frozen=True)
class Detection:
    """The combined score and every signal behind it."""

    score: float
    signals: list[Signal] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        """The distinct signal kinds, strongest first."""
        best: dict[str, float] = {}
        for signal in self.signals:
            best[signal.name] = max(best.get(signal.name, 0.0), signal.weight)
        return sorted(best, key=lambda name: -best[name])


@dataclass(frozen=True)
class Page:
    """The text a reader reads, with what it may need around it.

    `field` is the field the text sits in; `kinds`, if given, are the only signal kinds that
    count. A second reading (the learned one) also gets what the readers before it found
    (`so_far`, spans into `text`) and the `threshold` it decides against.
    """

    text: str
    field: Field = UNKNOWN_FIELD
    kinds: frozenset[str] | None = None
    so_far: Detection | None = None
    threshold: float = 1.0

    @cached_property
    def folded(self) -> Folded:
        """The text folded for matching (see `normalize.fold`), made once for all readers."""
        return fold(self.text)

    def counts(self, kind: str) -> bool:
        """Whether signals of `kind` count on this page."""
        return self.kinds is None or kind in self.kinds


@dataclass
class Evidence:
    """What one reader found: the signals to show, and the weights to score, by kind.

    A kind's weights are scored with decay (see `score`); a reader that counts several findings
    as one piece of evidence (a pattern matching three times) counts its weight once.
    """

    signals: list[Signal] = field(default_factory=list)
    weights: dict[str, list[float]] = field(default_factory=dict)

    def count(self, kind: str, weight: float) -> None:
        """Count one piece of evidence of `kind` weighing `weight`."""
        self.weights.setdefault(kind, []).append(weight)


class Reader(Protocol):
    """Something that reads a page and says what it found there."""

    name: str

    def read(self, page: Page) -> Evidence:
        """The evidence found on `page`; empty when there is none."""
        ...


def excerpt(text: str, start: int, end: int) -> str:
    """The words of `text[start:end]` on one line, cut short for showing."""
    piece = " ".join(text[start:end].split())
    return piece if len(piece) <= _EXCERPT_CHARS else piece[: _EXCERPT_CHARS - 1] + "…"


def score(found: Sequence[Evidence]) -> Detection:
    """Every reader's evidence combined: each kind's weights, strongest first, with decay."""
    weights: dict[str, list[float]] = {}
    signals: list[Signal] = []
    for evidence in found:
        for kind, kind_weights in evidence.weights.items():
            weights.setdefault(kind, []).extend(kind_weights)
        signals.extend(evidence.signals)
    total = 0.0
    for kind_weights in weights.values():
        kind_weights.sort(reverse=True)
        total += sum(w * _REPEAT_DECAY**i for i, w in enumerate(kind_weights))
    signals.sort(key=lambda s: (s.start, -s.weight))
    return Detection(round(total, 3), signals)
