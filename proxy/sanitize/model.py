"""The sanitizer's value types: what a removal records and which rules apply."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

# Chat-template markup (`<|im_start|>`, "[INST]", fake turns) written in plain view, not hidden.
CHAT_DELIMITER = "chat-delimiter"
# Every kind a Removal may carry; the review app groups and labels removals by these names.
KINDS = (
    "zero-width",
    "tag-characters",
    "variation-selectors",
    "bidi-controls",
    "private-use",
    "control-characters",
    "ansi-escapes",
    "html-comment",
    "hidden-html",
    "markdown-image",
    "link-definition",
    "remote-resource",
    "encoded-base64",
    "encoded-base32",
    "encoded-hex",
    "whitespace-padding",
    "overwritten-text",
    CHAT_DELIMITER,
)


@dataclass(frozen=True)
class Removal:
    """One kind of hidden content taken out of a field, with the hidden part made readable."""

    kind: str
    count: int
    decoded: str = ""


class SanitizeRules(NamedTuple):
    """What the sanitizer strips: trusted text loses only invisible characters."""

    untrusted: bool = True
    allow_hosts: tuple[str, ...] = ()
    looks_like_instructions: Callable[[str], bool] | None = None


# Decoded text kept per kind of removal: a flood of hidden content is summarized, not copied
# (what is cut off is counted). The stripped text itself never reaches the agent either way.
DECODED_CHARS = 8192


class Collector:
    """Removals gathered over every pass and round of one field, merged per kind."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self._decoded: dict[str, list[str]] = {}
        self._room: dict[str, int] = {}
        self._cut: dict[str, int] = {}  # pieces left out, per kind

    def add(self, kind: str, count: int, decoded: str = "") -> None:
        self._counts[kind] = self._counts.get(kind, 0) + count
        if not decoded:
            return
        room = self._room.get(kind, DECODED_CHARS)
        if room <= 0:
            self._cut[kind] = self._cut.get(kind, 0) + 1
            return
        self._decoded.setdefault(kind, []).append(decoded[:room])
        self._room[kind] = room - len(decoded)

    def removals(self) -> list[Removal]:
        """One Removal per kind, in KINDS order, with the decoded pieces one per line."""
        return [
            Removal(kind, self._counts[kind], self._decoded_text(kind))
            for kind in KINDS
            if kind in self._counts
        ]

    def _decoded_text(self, kind: str) -> str:
        pieces = self._decoded.get(kind, [])
        if self._room.get(kind, 1) < 0 or kind in self._cut:
            pieces = [
                *pieces,
                f"[... cut at {DECODED_CHARS} characters; {self._cut.get(kind, 0)} more pieces]",
            ]
        return "\n".join(pieces)
