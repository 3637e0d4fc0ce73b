"""Explainable prompt-injection scoring: named, weighted signals over normalized text.

The names below are loaded from their modules on first use: a proxy's first pass over a message
(see `first_pass`) needs a few of this package's modules, and importing the package must not
load the readers and tables that only `detect` reads with.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .detector import DEFAULT_THRESHOLD, detect, looks_like_instructions, readers
    from .evidence import Detection, Evidence, Page, Reader, Signal, SignalFlood
    from .signals import HOMOGLYPHS, LABELS, SIGNAL_NAMES

# Each name's module.
_HOMES = {
    "DEFAULT_THRESHOLD": "detector",
    "detect": "detector",
    "looks_like_instructions": "detector",
    "readers": "detector",
    "Detection": "evidence",
    "Evidence": "evidence",
    "Page": "evidence",
    "Reader": "evidence",
    "Signal": "evidence",
    "SignalFlood": "evidence",
    "HOMOGLYPHS": "signals",
    "LABELS": "signals",
    "SIGNAL_NAMES": "signals",
}

__all__ = [
    "DEFAULT_THRESHOLD",
    "HOMOGLYPHS",
    "LABELS",
    "SIGNAL_NAMES",
    "Detection",
    "Evidence",
    "Page",
    "Reader",
    "Signal",
    "SignalFlood",
    "detect",
    "looks_like_instructions",
    "readers",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        # Not one of the names above: `from ..detect import lexicon` then imports the module.
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{home}", __name__), name)
