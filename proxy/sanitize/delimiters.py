"""Fake chat-template delimiters that try to open a new system, user or assistant turn."""

from __future__ import annotations

import re
from functools import cache, cached_property

from .model import CHAT_DELIMITER, Collector


# Special tokens of common chat templates (ChatML, Llama 2/3, Gemma, DeepSeek's full-width bars).
@cache
def _token() -> re.Pattern[str]:
    return re.compile(
        r"<\|[A-Za-z][A-Za-z0-9_]{0,40}\|>|<｜[^｜<>\n]{1,40}｜>|\[/?INST\]|<</?SYS>>|</?(?:start|end)_of_turn>",
        re.IGNORECASE,
    )


@cache
def _heading() -> re.Pattern[str]:
    return re.compile(r"^[ \t]*#{2,4}[ \t]*Instruction[ \t]*:", re.IGNORECASE | re.MULTILINE)


# "System: Linux" alone is an ordinary label; a transcript only forms when two roles take turns.
@cache
def _turn() -> re.Pattern[str]:
    return re.compile(r"^[ \t]*(Human|Assistant|System)[ \t]*:[ \t]?", re.IGNORECASE | re.MULTILINE)


_ROLES = ("human", "assistant", "system")


def strip_delimiters(text: str, found: Collector, turns: bool = True) -> str:
    """Remove chat-template tokens, and role prefixes when the field stages a conversation.

    Without `turns`, the caller's scan found no two roles named before a colon: there is no
    conversation to look for."""
    # Each pattern runs only when the words it needs are in the text: a substring test is far
    # cheaper than a case-insensitive regex visiting every position, and a test for one character
    # that every such word holds is cheaper still (memchr), so it goes first. The case-folded copy
    # is made only for a text that gets that far.
    caseless = _Caseless(text)
    if (
        ("<" in text and ("<|" in text or "<<" in text or "_of_turn>" in caseless.text))
        or "<｜" in text
        or ("]" in text and "inst]" in caseless.text)
    ):
        text = _token().sub(lambda m: _drop(m, found), text)
    if "#" in text and "##" in text and "instruction" in caseless.text:
        text = _heading().sub(lambda m: _drop(m, found), text)
    if turns and ":" in text and sum(role in caseless.text for role in _ROLES) >= 2:
        named = _turn().findall(text)
        if len({role.lower() for role in named}) >= 2:
            text = _turn().sub(lambda m: _drop(m, found), text)
    return text


def _drop(match: re.Match, found: Collector) -> str:
    found.add(CHAT_DELIMITER, 1, match.group(0).strip())
    return ""


class _Caseless:
    """The text case-folded, made on first use, so that every letter the IGNORECASE patterns
    accept for an ASCII letter becomes that letter (casefold alone leaves dotless i and splits
    dotted capital I)."""

    def __init__(self, text: str) -> None:
        self._text = text

    @cached_property
    def text(self) -> str:
        """The folded copy."""
        folded = self._text.casefold()
        if folded.isascii():
            return folded
        return folded.replace("i\u0307", "i").replace("\u0131", "i")
