"""Where evidence becomes a decision: the rules' score against the threshold, then the learned
second reading for what the rules scored just under it. A field, a record and a message read as
one document are all decided here, and nowhere else."""

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from ..detect import DEFAULT_THRESHOLD, Signal
from ..detect.evidence import Detection, Page

if TYPE_CHECKING:
    from ..detect.learned import LearnedSecondReading


@cache
def _learned() -> "LearnedSecondReading":
    # Loaded by the first text the rules score under the threshold with evidence to weigh: a
    # proxy judging a server's first answer, all clean, never asks it.
    from ..detect.learned import LearnedSecondReading

    return LearnedSecondReading()


class Decision(NamedTuple):
    """Whether a text is withheld, at which score, and the learned reading's signal if it decided."""

    withheld: bool
    score: float
    learned: Signal | None = None


def withhold_at(configured: float | None) -> float:
    """The threshold in force: the policy's `detect.threshold`, else the detector's default."""
    return configured or DEFAULT_THRESHOLD


def decide(
    text: str, evidence: Sequence[Signal], score: float, threshold: float, *, learned: bool = True
) -> Decision:
    """Withhold `text` when `score` (all the evidence found for it) reaches `threshold`; under it,
    when the learned model reads the stretch around `evidence` (spans into `text`) as an attack
    (unless `learned` is False).

    The model only ever adds withholding: whatever it learned to read as harmless, an attacker can
    wrap around an instruction, so it never lets through what the rules withheld.
    """
    if score >= threshold:
        return Decision(True, score)
    if not learned:
        return Decision(False, score)
    page = Page(text, so_far=Detection(score, list(evidence)), threshold=threshold)
    second = _learned().read(page).signals
    if not second:
        return Decision(False, score)
    return Decision(True, threshold, second[0])
