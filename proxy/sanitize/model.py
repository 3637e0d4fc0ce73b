"""The sanitizer's value types: what a removal records and which rules apply."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# Every kind a Removal may carry; the review app groups and labels removals by these names.
KINDS = (
    "zero-width",
    "tag-characters",
    "variation-selectors",
    "bidi-controls",
    "control-characters",
    "ansi-escapes",
    "html-comment",
    "hidden-html",
    "markdown-image",
    "encoded-base64",
    "encoded-base32",
    "encoded-hex",
    "whitespace-padding",
    "chat-delimiter",
)


@dataclass(frozen=True)
class Removal:
    """One kind of hidden content taken out of a field, with the hidden part made readable."""

    kind: str
    count: int
    decoded: str = ""


@dataclass(frozen=True)
class SanitizeRules:
    """What the sanitizer strips: trusted text loses only invisible characters."""

    untrusted: bool = True
    allow_hosts: tuple[str, ...] = ()
    looks_like_instructions: Callable[[str], bool] | None = None


class Collector:
    """Removals gathered over every pass and round of one field, merged per kind."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self._decoded: dict[str, list[str]] = {}

    def add(self, kind: str, count: int, decoded: str = "") -> None:
        self._counts[kind] = self._counts.get(kind, 0) + count
        if decoded:
            self._decoded.setdefault(kind, []).append(decoded)

    def removals(self) -> list[Removal]:
        """One Removal per kind, in KINDS order, with the decoded pieces one per line."""
        return [
            Removal(kind, self._counts[kind], "\n".join(self._decoded.get(kind, ())))
            for kind in KINDS
            if kind in self._counts
        ]
