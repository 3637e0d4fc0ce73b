"""Text a server writes for the model: descriptions, schemas and instructions, judged for what can
harm there rather than for their tone.

Tool, prompt and schema descriptions and `instructions` address the model by design ("You MUST
call this function before ..."), so being addressed to the assistant or telling it what to do is
no evidence in them. Their danger is change, which pins catch, and the few things no server's
description of itself should carry: asking the model to read or pass on a secret, naming a place
to send data, steering calls to another server's tools, getting the model to hide what it does,
and hidden or encoded payloads (nobody hides a benign instruction).
"""

import re
from collections.abc import Iterable
from functools import cache

from ..detect import Signal

# The detector's kinds of evidence that still count in such text (the rest read its tone).
MODEL_TEXT_HARMS = frozenset(
    {
        "secret_request",
        "exfiltration",
        "suspicious_destination",
        "concealment",
        "self_replication",
        "funds_transfer",
        "encoded_instruction",
        "homoglyphs",
    }
)

ASKS_FOR_SECRET = "asks_for_secret"
NAMES_DESTINATION = "names_destination"
NAMES_OTHER_TOOL = "names_other_tool"
HIDDEN_PAYLOAD = "hidden_payload"

# What holds a secret: key files, credential and token stores, agent and client configurations
# (they hold other servers' tokens), and environment variables named for a secret.
_SECRET = (
    r"(?:~|\$HOME|%USERPROFILE%)?/?\.(?:ssh|aws|gnupg|kube|docker|npmrc|pypirc|netrc"
    r"|git-credentials|cursor|claude|codex|config/gh)\b[\w./-]*"
    r"|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.pem\b|\bprivate[ _-]?keys?\b|(?<![\w.])\.env\b[\w.]*"
    r"|\b(?:mcp|claude_desktop_config|credentials|secrets?)\.(?:json|toml|ya?ml)\b"
    r"|\bcredentials?\b|\bapi[ _-]?keys?\b|\b(?:access|auth|bearer|refresh)[ _-]?tokens?\b"
    r"|\bpasswords?\b|\bpassphrases?\b|\bseed phrase\b|\bkeychain\b|/etc/(?:shadow|passwd)\b"
    r"|\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)\b"
)
# A verb in the base form, at the start of a clause or after a word that makes it an order:
# "read ~/.ssh/id_rsa", "first include the token"; "Reads the credentials" describes a tool.
_ORDER = (
    r"(?:^|[.;:!?(\[<>\n]\s*|,\s*|\b(?:you|must|should|need to|please|always|first|then|and"
    r"|also|to)\s+)"
)
_MOVES = tuple(
    "read cat open load get fetch retrieve collect gather copy paste send forward upload post"
    " include pass put insert append attach embed add submit share leak print".split()
)
_MOVE = f"(?:{'|'.join(_MOVES)})"


@cache
def _ordered_secret() -> re.Pattern[str]:
    return re.compile(
        rf"{_ORDER}{_MOVE}\b[^.;!?\n]{{0,80}}?(?:{_SECRET})", re.IGNORECASE | re.MULTILINE
    )


# Somewhere to send data: an e-mail address or a URL, after a verb that sends.
_SENDS = tuple("send forward bcc cc copy upload post mirror relay transmit report sync".split())


@cache
def _destination() -> re.Pattern[str]:
    return re.compile(
        rf"\b(?:{'|'.join(_SENDS)})\b"
        r"[^.;!?\n]{0,80}?(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://[^\s\"'<>)]+)",
        re.IGNORECASE,
    )


# A tool named in an order or as "the X tool": a name with a separator, as tool names are.
_TOOL_NAME = r"[A-Za-z][A-Za-z0-9]*(?:(?:__|[_.-])[A-Za-z0-9]+)+"


_CALLS = tuple("call invoke use run trigger execute".split())
_NAMING = (*_CALLS, "the")


@cache
def _named_tool() -> re.Pattern[str]:
    return re.compile(
        rf"\b(?:{'|'.join(_CALLS)})\s+(?:the\s+)?[`'\"]?({_TOOL_NAME})"
        rf"|\b(?:the\s+)[`'\"]?({_TOOL_NAME})[`'\"]?\s+(?:tool|function)\b",
        re.IGNORECASE,
    )


# A hidden payload carries text when it holds a word of a few letters.
@cache
def _word() -> re.Pattern[str]:
    return re.compile(r"[^\W\d_]{3,}")


def model_text_signals(text: str, own_tools: frozenset[str], hidden: Iterable[str]) -> list[Signal]:
    """What no description should carry, found in `text` (a server's own words for the model)
    and in what was hidden in it; `own_tools` are the names the server lists for itself."""
    words = _Words(text)
    found = [
        Signal(ASKS_FOR_SECRET, 1.0, _excerpt(match.group()), match.start(), match.end())
        for match in (_ordered_secret().finditer(text) if words.may_hold(_MOVES) else ())
    ]
    found += [
        Signal(NAMES_DESTINATION, 0.5, _excerpt(match.group()), match.start(), match.end())
        for match in (_destination().finditer(text) if words.may_hold(_SENDS) else ())
    ]
    for match in _named_tool().finditer(text) if words.may_hold(_NAMING) else ():
        name = match.group(1) or match.group(2)
        if name not in own_tools:
            found.append(Signal(NAMES_OTHER_TOOL, 0.5, f"names {name}", match.start(), match.end()))
    found += [
        Signal(HIDDEN_PAYLOAD, 1.0, _excerpt(payload), 0, 0)
        for payload in hidden
        if _word().search(payload)
    ]
    return found


class _Words:
    """Whether a text may hold one of a pattern's words, told by substring tests.

    Each pattern above needs one of a few words, matched case aside: a text holding none of them
    leaves it unmatched, and the pattern uncompiled (most of a server's first answer, its name
    and version, holds none). In a text not all ASCII, case folds otherwise (the Kelvin sign
    matches "k"): there every pattern is run.
    """

    def __init__(self, text: str) -> None:
        self._lowered = text.lower() if text.isascii() else None

    def may_hold(self, words: tuple[str, ...]) -> bool:
        lowered = self._lowered
        return lowered is None or any(word in lowered for word in words)


def own_names(result: object) -> frozenset[str]:
    """The names a list result gives for its own: its entries' (tools, prompts) and their
    arguments' (the properties of a tool's input schema, a prompt's arguments)."""
    names: list[object] = []
    for key in ("tools", "prompts"):
        entries = result.get(key) if isinstance(result, dict) else None
        for entry in entries if isinstance(entries, list) else ():
            if not isinstance(entry, dict):
                continue
            names.append(entry.get("name"))
            schema = entry.get("inputSchema")
            properties = schema.get("properties") if isinstance(schema, dict) else None
            names.extend(properties if isinstance(properties, dict) else ())
            arguments = entry.get("arguments")
            for argument in arguments if isinstance(arguments, list) else ():
                names.append(argument.get("name") if isinstance(argument, dict) else None)
    # Any JSON value may stand where a name belongs: only strings name anything.
    return frozenset(name for name in names if isinstance(name, str))


def weigh(signals: list[Signal]) -> float:
    """These signals' share of the score: each kind counts once, at its strongest."""
    best: dict[str, float] = {}
    for signal in signals:
        best[signal.name] = max(best.get(signal.name, 0.0), signal.weight)
    return sum(best.values())


def _excerpt(text: str) -> str:
    piece = " ".join(text.split())
    return piece if len(piece) <= 120 else piece[:119] + "…"
