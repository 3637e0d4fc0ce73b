"""Cleaning of untrusted text: strip what a person would not see, and decode it for the reviewer."""

from .model import KINDS, Removal, SanitizeRules
from .pipeline import sanitize
from .reveal import reveal

__all__ = ["KINDS", "Removal", "SanitizeRules", "reveal", "sanitize"]
