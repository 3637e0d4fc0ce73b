"""Explainable prompt-injection scoring: named, weighted signals over normalized text."""

from .detector import DEFAULT_THRESHOLD, READERS, detect, looks_like_instructions
from .evidence import Detection, Evidence, Page, Reader, Signal
from .signals import HOMOGLYPHS, LABELS, SIGNAL_NAMES

__all__ = [
    "DEFAULT_THRESHOLD",
    "HOMOGLYPHS",
    "LABELS",
    "READERS",
    "SIGNAL_NAMES",
    "Detection",
    "Evidence",
    "Page",
    "Reader",
    "Signal",
    "detect",
    "looks_like_instructions",
]
