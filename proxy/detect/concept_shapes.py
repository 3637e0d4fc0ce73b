"""The concepts that are shapes of the text, not words: destinations, amounts, quoted phrases,
and the frames that report what someone got a model to do.

A part of the concept rules' matcher (`concept_rules.py`).
"""

import re
from collections.abc import Iterator
from functools import cache

from .alternation import leftmost
from .languages import Language
from .lexicon import Hit
from .rule_needs import WANTS_ADDRESS, WANTS_QUOTE
from .rule_table import WINDOW


# Addresses, each searched only where its telltale character occurs (an address pattern that
# may start at any word is slow to try everywhere). An account number in IBAN form, or an IP
# address, has no telltale: each is written to open with a digit, so the search skips ahead in
# C to the next digit (the IBAN's two letters before its digits are looked behind for).
@cache
def _destinations() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return (
        ("://", re.compile(r"https?://\S")),
        ("www.", re.compile(r"\bwww\.\w")),
        ("@", re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]+\.[a-z]{2,}")),
        # An account given by its number after its label ("acct 000123987654", "routing 111000025").
        *(
            (
                label,
                re.compile(
                    rf"\b{label}\w*\W{{1,4}}(?:(?:no|nr|number|#)\W{{1,3}})?\d[\d -]{{5,}}\d"
                ),
            )
            for label in (
                "acct",
                "account",
                "routing",
                "konto",
                "cuenta",
                "conta",
                "compte",
                "conto",
            )
        ),
    )


@cache
def _iban() -> re.Pattern[str]:
    return re.compile(r"\d\d(?<=\b[a-z]{2}\d\d)[a-z0-9]{10,30}\b")


_IBAN_LETTERS = 2


@cache
def _ip() -> re.Pattern[str]:
    return re.compile(r"\d(?<![\d.]\d)\d{0,2}\.(?:\d{1,3}\.){2}\d{1,3}(?![\d.])")


# An amount of money, or an account or phone number written in groups of digits.
# Currencies are written in their own scripts too: 3万円, 500元, 10만 원, 200 руб, 50 zł, 100 TL.
# The forms that open with a digit are one pattern, the digit taken first (the search skips to
# digits in C); the forms that open with a currency's sign or code are searched only where one
# of those occurs.
@cache
def _amount_by_digit() -> re.Pattern[str]:
    return re.compile(
        r"\d(?:(?<!\w\d)[\d,.]*[ \t]?(?:usd|eur|gbp|dollars?|euros?|btc|bitcoins?|eth|reais|rupees?"
        r"|zł|zloty|złotych|tl|lira|dong|vnd|руб\w*|грн|гривень|рупи\w*|रुपये|ریال|تومان|درهم|ريال|دولار"
        r"|บาท|원)(?!\w)"
        r"|[ \t]?(?:[万萬千亿億]?[円元圆圓块塊]|万|萬|만[ \t]?원|억)"
        r"|(?<![\d-]\d)\d+[- ]\d{3,}[- ]\d{3,}(?![\d-]))"
    )


# An amount after a word of comparison is a limit a policy sets ("refunds over $500 go to
# billing", "transfers above 10,000 EUR need two approvals"), not a sum anyone is asked to move.
@cache
def _limit_before() -> re.Pattern[str]:
    return re.compile(
        r"\b(?:over|above|under|below|exceeding|exceeds?|more than|less than|up to|at least|at most"
        r"|max|min|maximum|minimum|limit|threshold)[ \t]*(?:of[ \t]+)?$|[<>≤≥][ \t]*$"
    )


_CURRENCY_MARKS = ("$", "€", "£", "¥", "₹", "₩", "₽", "₺", "usd", "eur", "gbp", "btc", "eth")


@cache
def _amount_by_sign() -> re.Pattern[str]:
    return re.compile(r"(?:[$€£¥₹₩₽₺]|\br\$|\b(?:usd|eur|gbp|btc|eth)\b)[ \t]?\d")


# A fixed reply named as a literal without quotes: "only with the string PWNED-7731", "the token
# VERIFIED-19" (a code with a digit or a hyphen, as no word of prose is).
@cache
def _literal() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:string|token|phrase|word|code|sentence)[ \t]+([^\s\"'.,;:!?()]*[\d-][^\s\"'.,;:!?()]*\w)"
    )


@cache
def _quoted() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)[\"'“‘«„‚「『`]([^\"'“”‘’«»„‚「」『』`\n]{1,120})[\"'”’»“‘」』`](?!\w)"
    )


# A quotation in prose: typographic pairs, code spans, quotes escaped inside a JSON string
# (\"...\"), and straight quotes with a non-word character outside each (an apostrophe is
# inside a word). A text about attacks quotes them; what it quotes is reported, not asked. A
# straight or escaped quote that is a key or a value of data (`"bio": "..."`, `['a', 'b']`:
# after a quote and a colon or a comma, or an opening bracket, or before a colon) is none.
# Each alternative opens with its quote character and looks behind from there, so the search
# skips every other character at once. An empty code span (what is left where the sanitizer
# strips a chat token from one) is a pair of its own, so the spans after it keep their marks.
def not_data_before(opener: str) -> str:
    """Lookbehinds, taken after `opener`, that refuse it where data puts a key or a value."""
    marks = [f"{quote}{mark}{space}" for quote in "\"'" for mark in ":," for space in ("", " ")]
    marks += ["{", "[", "{ ", "[ "]
    return "".join(f"(?<!{re.escape(mark + opener)})" for mark in marks)


# Someone getting the model to do something, in the third person ("asks the model to", "tricked
# the assistant into"): the writer reports it. The first person ("I ask the assistant to") and
# the imperative ("ask the assistant to") are the writer's own requests and are not matched.
@cache
def _reporting_frame() -> re.Pattern[str]:
    return re.compile(
        r"(?:asks|asked|asking|tells|told|telling|tricks|tricked|tricking|gets|makes"
        r"|convinces|convinced|convincing|persuades|persuaded|instructs|instructed|causes|caused"
        r"|lets|allows|allowed|forces|forced|coaxes|coaxed|manipulates|manipulated|lures|lured)"
        r"[ \t]+(?:the|an?|its|their|our|that|this|these|those|your)?[ \t]*(?:[\w-]+[ \t]+){0,2}?"
        r"(?:models?|assistants?|ai|llms?|agents?|bots?|chatbots?|copilots?|readers?|recipients?"
        r"|users?|victims?|people|someone)[ \t]+(?:to|into)\b"
    )


# What a program or a setting lets its users do ("allow users to override the system prompt",
# "lets people share files with anyone"): a feature described, not an order.
@cache
def _permission_frame() -> re.Pattern[str]:
    return re.compile(
        r"(?:allows|allowed|allowing|allow|lets|let|letting|enables|enabled|enabling|permits|permitted)"
        r"[ \t]+(?:the[ \t]+|any[ \t]+|all[ \t]+|other[ \t]+)?(?:users?|people|customers?|admins?"
        r"|developers?|members?|anyone|callers?|clients?)[ \t]+(?:to[ \t]+)?\w"
    )


# The same in Spanish, Portuguese and Italian: "pedir que o bot revele ...", "pedir al bot que
# envíe ...", "fazer o modelo ignorar ...", "chiedere al bot di rivelare ...".
@cache
def _romance_frame() -> re.Pattern[str]:
    return re.compile(
        r"(?:pedir|pide|piden|pidio|pidiendo|hacer|hace|lograr|consigue|pede|pedem|pediu|pedindo|fazer"
        r"|faz|fazem|levar|leva|convencer|chiedere|chiede|chiedono|chiesto|fa|convincere|convince)"
        r"[ \t]+(?:que[ \t]+|a[ \t]+|al[ \t]+|ao[ \t]+)?(?:o|a|os|as|el|la|los|las|il|lo|i|gli|le)?[ \t]*"
        r"(?:bot|bots|modelo|modelos|modello|modelli|asistente|assistente|assistentes|ia|chatbot|agente"
        r"|agentes|ai|llm)[ \t]+(?:(?:que|di|a)[ \t]+)?\w"
    )


# An English causative in the third person, the past or the gerund ("makes the model ignore",
# "made the bot reveal", "making my chatbot ignore its prompt"): the verb after the model is
# what someone gets it to do, told by the writer. The imperative ("make the bot ...") is not
# matched.
@cache
def _causative_frame() -> re.Pattern[str]:
    return re.compile(
        r"(?:makes|made|making)[ \t]+(?:the|an?|its|their|our|my|that|this|your)?[ \t]*"
        r"(?:[\w-]+[ \t]+){0,2}?(?:models?|assistants?|ai|llms?|agents?|bots?|chatbots?|copilots?)"
        r"[ \t]+(?!to\b)\w"
    )


@cache
def _frames() -> tuple[re.Pattern[str], ...]:
    return (_reporting_frame(), _permission_frame(), _romance_frame(), _causative_frame())


# How far from its verb a shape is searched: as far as a clause rule's hits may spread.
SHAPE_REACH = WINDOW + WINDOW // 2


def _regions(hits: list[Hit], concepts: frozenset[str]) -> list[tuple[int, int]]:
    """The stretches of text around hits of `concepts` where a rule could use a shape, merged."""
    regions: list[tuple[int, int]] = []
    for hit in hits:
        if hit.concept in concepts:
            low, high = max(0, hit.start - SHAPE_REACH), hit.end + SHAPE_REACH
            if regions and low <= regions[-1][1]:
                regions[-1] = (regions[-1][0], high)
            else:
                regions.append((low, high))
    return regions


def pseudo_hits(folded: str, hits: list[Hit], wanted: frozenset[str]) -> list[Hit]:
    """Hits of the `wanted` concepts that are shapes, not words, searched only near the words a
    rule could pair them with (the address patterns are slow to try everywhere)."""
    found: list[Hit] = []
    for low, high in _regions(hits, WANTS_ADDRESS):
        if "destination" in wanted:
            for telltale, pattern in _destinations():
                if folded.find(telltale, low, high) >= 0:
                    found.extend(
                        Hit("destination", Language.EN, m.start(), m.end())
                        for m in pattern.finditer(folded, low, high)
                    )
            found.extend(
                Hit("destination", Language.EN, start, end)
                for start, end in account_numbers(folded, low, high)
            )
        if "amount" in wanted:
            found.extend(
                Hit("amount", Language.EN, start, end)
                for start, end in amounts(folded, low, high)
                if not _limit_before().search(folded, max(0, start - 16), start)
            )
    for low, high in _regions(hits, WANTS_QUOTE) if "quoted" in wanted else ():
        found.extend(
            Hit("quoted", Language.EN, m.start(), m.end())
            for m in _quoted().finditer(folded, low, high)
        )
        found.extend(
            Hit("quoted", Language.EN, m.start(1), m.end(1))
            for m in _literal().finditer(folded, low, high)
        )
    # Regions can overlap a match at their edges twice: one hit per span and concept.
    return list({(hit.concept, hit.start, hit.end): hit for hit in found}.values())


def reporting_frames(folded: str, hits: list[Hit]) -> list[Hit]:
    """What someone else gets the model to do, told in the third person ("a jailbreak asks the
    model to pretend ...", "tricked the assistant into leaking ..."), or what a program lets its
    users do ("allow users to override ..."): talk about an attack or a feature, read where the
    tables found a verb of such a frame."""
    found = []
    for hit in hits:
        if hit.concept == "frame":
            for frame in _frames():
                match = frame.match(folded, hit.start)
                if match:
                    found.append(Hit("discussion", Language.EN, match.start(), match.end()))
                    break
    return found


def account_numbers(folded: str, low: int, high: int) -> list[tuple[int, int]]:
    """The IBANs and IP addresses in `folded[low:high]`, as one search of both would find them."""
    return _spans(leftmost(folded, ((_iban(), _IBAN_LETTERS), (_ip(), 0)), low, high))


def amounts(folded: str, low: int, high: int) -> list[tuple[int, int]]:
    """The amounts in `folded[low:high]`, as one search of every form would find them."""
    if not any(folded.find(mark, low, high) >= 0 for mark in _CURRENCY_MARKS):
        return [match.span() for match in _amount_by_digit().finditer(folded, low, high)]
    return _spans(leftmost(folded, ((_amount_by_sign(), 0), (_amount_by_digit(), 0)), low, high))


def _spans(found: Iterator[tuple[int, re.Match[str]]]) -> list[tuple[int, int]]:
    return [(start, match.end()) for start, match in found]
