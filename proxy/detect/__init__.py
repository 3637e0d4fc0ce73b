"""Explainable prompt-injection scoring: named, weighted signals over normalized text."""

from .detector import (
    DEFAULT_THRESHOLD,
    Detection,
    Signal,
    detect,
    looks_like_instructions,
)
from .signals import HOMOGLYPHS, LABELS, SIGNAL_NAMES

__all__ = [
    "DEFAULT_THRESHOLD",
    "HOMOGLYPHS",
    "LABELS",
    "SIGNAL_NAMES",
    "Detection",
    "Signal",
    "detect",
    "looks_like_instructions",
]
