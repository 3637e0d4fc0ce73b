"""Whether a word of the tables counts as its concept where it stands: not a label, a key, a
noun, a statement, a prohibition or a name.

A part of the concept rules' matcher (`concept_rules.py`).
"""

import re
from collections.abc import Callable
from functools import cache

from .languages import Language, collected, grammar
from .lexicon import Hit
from .normalize import fold
from .rule_table import THINGS

# Verbs written as a label or a key ("Email: ...", "Transfer status:", "email": "...") name a
# field, not an order; see `_not_an_order_before()` for the words before a verb that say the same.
# Such a hit is not counted.
_VERBS = frozenset(
    {"send", "reveal", "run", "say", "answer_with", "ignore", "disable", "act", "steer"}
)


@cache
def _label_colon() -> re.Pattern[str]:
    return re.compile(r"[\"']?[ \t]{0,2}:(?!//)")


@cache
def _path_after() -> re.Pattern[str]:
    return re.compile(r"[ \t]{1,3}/")


@cache
def _arrow_before() -> re.Pattern[str]:
    return re.compile(r"(?:→|->|=>)[ \t]{0,2}$")


# A verb of an order that what stands before or after it makes a statement or a prohibition, in
# its language ("管理员可以发送", the admin can send; "送信しました", sent): each language's
# `statement_before` and `statement_after` (in its file).
@cache
def _statement_before(language: Language) -> re.Pattern[str] | None:
    pattern = grammar(language).statement_before
    return re.compile(fold(pattern).text) if pattern else None


@cache
def _statement_after(language: Language) -> re.Pattern[str] | None:
    pattern = grammar(language).statement_after
    return re.compile(fold(pattern).text) if pattern else None


@cache
def _left_out() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:without|except|sin|sem|sans|senza|ohne|zonder|bez|без|tanpa)"
        r"[ \t]{1,2}(?:(?:the|your|el|la|los|las|tu|o|a|os|as|le|la|les|il|lo|gli|den|die|das|het|de)[ \t]{1,2})?"
        r"(?:[\w-]{1,16}[ \t]{1,2})?$"
    )


# A secret word naming the process around it, not the secret: "a password-reset link", "비밀번호
# 재설정 메일" (a password reset mail), "el enlace de restablecimiento de contraseña".
# The words after it are English ones and each other language's `secret_processes_after`.
@cache
def _process_after() -> re.Pattern[str]:
    words = "|".join(re.escape(fold(word).text) for word in collected("secret_processes_after"))
    return re.compile(
        rf"[ \t-]{{0,2}}(?:reset|recovery|change|manager|policy|expiry|hint|rotation|{words})"
    )


@cache
def _process_before() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:reset|recovery|restablecimiento|recuperacion|redefinicao|recuperacao"
        r"|reinitialisation|ripristino|reimpostazione|zurucksetzung|wiederherstellung)"
        r"[ \t]{1,2}(?:(?:of|for|de|du|des|da|do|di|del|della|dello|dell'|des)[ \t]{1,2})?"
        r"(?:(?:the|your|la|el|le|l'|tu|votre|ton|sua|seu|o|a|il|tuo|ihres|ihr|des)[ \t]{1,2})?$"
    )


_ADDRESS = frozenset("@./:")


@cache
def _id_after() -> re.Pattern[str]:
    return re.compile(r"-[\w-]*\d")


@cache
def _note_not_label() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:a|an|the|this|that|my|your|our|please|should|must|will|would|can|could|to)[ \t]{1,2}$"
    )


@cache
def _named_kind_before() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:a|an|the|this|that|such)[ \t]{1,2}(?:ai|assistant|chatbot|bot|model|agent|llm)[ \t]{1,2}$"
    )


@cache
def _call_after() -> re.Pattern[str]:
    return re.compile(r"\((?![ \t\n)])")


_ELISION = frozenset("'’")


@cache
def _to_self_after() -> re.Pattern[str]:
    return re.compile(r"[ \t]+(?:to|for)[ \t]+(?:self|myself|me)(?!\w)")


@cache
def _key_value_after() -> re.Pattern[str]:
    return re.compile(r"[ \t]*[:=][ \t]*\\?[\"'`]")


@cache
def _key_opens() -> re.Pattern[str]:
    return re.compile(r"(?:\n(?:[ \t]{2,}|[ \t]*-[ \t]+)|[({\[,][ \t]*)$")


@cache
def _possessive_after() -> re.Pattern[str]:
    return re.compile(r"['’]s(?!\w)")


@cache
def _compound_after() -> re.Pattern[str]:
    return re.compile(r"-[^\W\d_]")


@cache
def _address_around() -> re.Pattern[str]:
    return re.compile(r"[@./:_-]\w")


@cache
def _key_after() -> re.Pattern[str]:
    return re.compile(r"[\"'][ \t]*:")


# Before an English verb: an article or a possessive (it is a noun), or a subject or an
# auxiliary (a statement of who does it: "we send", "I'll forward"), or someone's request to the
# writer ("Ana asked us to send ..."), reported; an order has none of these.
@cache
def _not_an_order_before() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:the|a|an|this|that|its|our|their|his|her|my|your|no|never|usually|don't|dont|do[ \t]not"
        r"|not[ \t]to|(?:asked|asks|told|tells|wants|wanted)[ \t](?:us|me)[ \t]to"
        r"|(?:we|i|they|he|she)(?:[ \t]{1,2}(?:will|would|can|could|may|might)|'ll)?"
        r"|can|could|cannot|can't|won't|doesn't|didn't|does[ \t]not)[ \t]{1,2}$"
    )


# The rest of a word that makes a verb's stem a noun: "divulgation", "eliminación", "Weiterleitung",
# "deletion" name the act, they do not order it.
@cache
def _noun_ending() -> re.Pattern[str]:
    return re.compile(r"\w*?(?:tions?|cion|ciones|cao|coes|zione|zioni|ung|ungen)(?!\w)")


# The rest of an English verb's word that inflects it for the third person or the past ("the
# widget reveals its prompt", "filters are bypassed by ..."): a statement, not an order.
@cache
def _statement_ending() -> re.Pattern[str]:
    return re.compile(r"(?:e?s|e?d)(?!\w)")


# A verb after its language's "not" is a prohibition ("No enviar contraseñas por correo", "non
# condividere la password", "nie wysyłaj haseł"): a warning, not a request. The words are each
# language's `negations` (in its file); English has its own (`_not_an_order_before()`).
@cache
def _negation_before() -> dict[Language, re.Pattern[str]]:
    return {
        language: re.compile(rf"(?<!\w)(?:{grammar(language).negations})[ \t]{{1,2}}$")
        for language in Language
        if grammar(language).negations
    }


POSSESSIVES = frozenset({"my", "your"})


@cache
def _comment_before() -> re.Pattern[str]:
    return re.compile(r"(?:#|//|/\*)[ \t]{0,3}$")


@cache
def _time_after() -> re.Pattern[str]:
    return re.compile(r"[ \t]+\d{1,2}[:.h]\d\d")


# "Prompt" as a verb with its object ("will prompt you", "prompts the user for"), or after a
# word that makes it one ("will prompt", "to prompt"): a program asking, not instructions.
_PROMPT_CONCEPTS = frozenset({"prompt", "instructions"})


@cache
def _prompt_as_verb() -> re.Pattern[str]:
    return re.compile(r"(?:s|ed)?[ \t]+(?:you|me|us|them|him|her|the[ \t]+user|users|for)(?!\w)")


def counted(folded: str, hit: Hit, start: int, end: int) -> bool:
    """Whether a hit means its concept there: a verb read as an order (not a label, a key, or
    in English a noun or a statement), a word about attacks not part of an address."""
    # A Latin word right before a parenthesis is code: a call or a definition ("Message(",
    # "delete(path)"), named by a program, not said to its reader.
    if _call_after().match(folded, end) and folded[end - 1 : end].isascii():
        return False
    if hit.concept in _VERBS:
        return _verb_counted(folded, hit, start, end)
    if _aside(folded, hit.concept, start, end):
        return False
    reading = _WORD_READINGS.get(hit.concept)
    return reading is None or reading(folded, hit, start, end)


def _verb_counted(folded: str, hit: Hit, start: int, end: int) -> bool:
    """Whether a verb is an order: not a label or a key, a method, a value, an outcome, or (in
    its language) a statement or a prohibition."""
    if _label_colon().match(folded, end) or _noun_ending().match(folded, end):
        return False
    # A request line's method ("POST /v1/password/reset") or a value ("action=forward"), or
    # what came of something after an arrow ("\"write a poem\" → output a poem").
    if _path_after().match(folded, end) or folded[start - 1 : start] == "=":
        return False
    if _arrow_before().search(folded, max(0, start - 4), start):
        return False
    before, after = _statement_before(hit.language), _statement_after(hit.language)
    if before and before.search(folded, max(0, start - 20), start):
        return False
    if after and after.match(folded, end):
        return False
    if hit.language is not Language.EN:
        negation = _negation_before().get(hit.language)
        return negation is None or not negation.search(folded, max(0, start - 8), start)
    # The small words before it are English ones: Polish "i" is "and".
    return not _statement_ending().match(folded, end) and not _not_an_order_before().search(
        folded, max(0, start - 16), start
    )


def _aside(folded: str, concept: str, start: int, end: int) -> bool:
    """Whether a word is beside the point where it stands: a programmer's note, a weekday, a
    thing left out."""
    # "# silently skip unknown addresses": a programmer's note on what the code does.
    if concept == "conceal" and _comment_before().search(folded, max(0, start - 6), start):
        return True
    # A weekday's short name before a time ("Mon 09:00", "Tue 14:30") is French "mon" or Italian
    # "tue" only by its letters.
    if concept in POSSESSIVES and _time_after().match(folded, end):
        return True
    # "without the token", "works without the cloud account": the thing is left out.
    return concept in THINGS and bool(_left_out().search(folded, max(0, start - 40), start))


def _persona_counted(folded: str, hit: Hit, start: int, end: int) -> bool:
    """A key given a value in code or config ("mode: \"0440\"", "executor(mode=\"inline\")"), not
    a role given to the reader: the word follows a bracket, a comma, a list's dash or an indent
    (a label at a line's very start, "Persona: \"Lumi\"", may still give a role)."""
    if _key_value_after().match(folded, end):
        return not _key_opens().search(folded, max(0, start - 12), start)
    return True


def _prompt_counted(folded: str, hit: Hit, start: int, end: int) -> bool:
    """The English verb asking its user something is no prompt ("The app will prompt you for the
    new password")."""
    if hit.language is not Language.EN:
        return True
    return not (folded.endswith("prompt", start, end) and _prompt_as_verb().match(folded, end))


def _secret_counted(folded: str, hit: Hit, start: int, end: int) -> bool:
    """A secret word naming the process around it ("a password-reset link") is no secret."""
    return not (
        _process_after().match(folded, end)
        or _process_before().search(folded, max(0, start - 40), start)
    )


def _ai_counted(folded: str, hit: Hit, start: int, end: int) -> bool:
    """The assistant, unless part of a name: a versioned id ("pod/support-bot-7c9d"); or an owner
    ("the bot's role must sit above ...", "the assistant's owner"): the one told is what it owns;
    or French "j'ai", "n'ai" ("I have")."""
    if _id_after().match(folded, end) or _possessive_after().match(folded, end):
        return False
    if folded[start:end] == "ai":
        # After an elision the bare word is French "j'ai", "n'ai"; "l'ia" is the AI.
        return folded[start - 1 : start] not in _ELISION
    return True


def _note_counted(folded: str, hit: Hit, start: int, end: int) -> bool:
    """An English note for its reader, not "a note", "should note", "please note" (a thing or a
    verb); "an assistant instruction", "the AI note" (a kind of text named, not one written to
    it); "instruction-tuned", "warning-free" (the first part of a word that modifies another);
    "note to self", "reminder for me" (the writer's own)."""
    if hit.language is not Language.EN:
        return True
    return not (
        _compound_after().match(folded, end)
        or _to_self_after().match(folded, end)
        or _note_not_label().search(folded, max(0, start - 8), start)
        or _named_kind_before().search(folded, max(0, start - 24), start)
    )


def _discussion_counted(folded: str, hit: Hit, start: int, end: int) -> bool:
    """A word about attacks, not inside an address (attacker@...) nor a key of data
    ("payload": {...})."""
    return (
        not _address_around().match(folded, end)
        and folded[start - 1 : start] not in _ADDRESS
        and not _key_after().match(folded, end)
    )


# How a word that is no verb is read where it stands, by its concept (any other counts).
_WORD_READINGS: dict[str, Callable[[str, Hit, int, int], bool]] = {
    "persona": _persona_counted,
    **dict.fromkeys(_PROMPT_CONCEPTS, _prompt_counted),
    "secret": _secret_counted,
    "ai": _ai_counted,
    "note": _note_counted,
    "discussion": _discussion_counted,
}
