"""Whether a rule holds on the words a clause has: each need found, close enough, in the order
and phrase its language wants.

A part of the concept rules' matcher (`concept_rules.py`).
"""

import re
from functools import cache

from .counted_words import POSSESSIVES
from .languages import Language, collected, grammar
from .lexicon import Hit
from .normalize import fold
from .rule_table import NAMING_DETERMINERS, Rule


@cache
def _article_before() -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{'|'.join(NAMING_DETERMINERS)})[ \t]{{1,2}}$")


@cache
def _word() -> re.Pattern[str]:
    return re.compile(r"[\w']+")


# The words that may stand inside one phrase besides the concepts' own: articles, possessives
# and "of" (each language's `small_words`).
@cache
def _small_words() -> frozenset[str]:
    return frozenset(
        fold(word).text
        for language in Language
        for word in grammar(language).small_words.split("|")
        if word
    )


@cache
def _reader() -> re.Pattern[str]:
    return re.compile(r"\b(?:you|your|yourself)\b")


_READER_REACH = 60


# The rest of a word a hit began, then the next word on the same line.
@cache
def _next_word() -> re.Pattern[str]:
    return re.compile(r"\w*[ \t]{1,3}(\w+)")


# The words that join two phrases (each language's `joining_words`).
@cache
def _joining_words() -> frozenset[str]:
    return frozenset(fold(word).text for word in collected("joining_words"))


# Languages whose orders open with the verb and put its object after it (`verb_first`).
_VERB_FIRST = frozenset(language for language in Language if grammar(language).verb_first)


SEARCHED_SHAPES = frozenset({"destination", "amount", "quoted"})


# The concepts that are shapes read at or near words, not words of the tables: a word and the
# shape read at it (a verb and its being an order) may meet two needs of one rule.
_PSEUDO = SEARCHED_SHAPES | {"imperative", "vocative", "told"}


def holds(
    rule: Rule, by_concept: dict[str, list[Hit]], window: int, folded: str
) -> tuple[int, int, set[Language]] | None:
    """The span and languages of the hits that satisfy `rule` within `window`, if any do."""
    options = _options(rule, by_concept)
    if options is None:
        return None
    # A rule with a need that comes first is anchored on it, and its other needs (the assistant
    # named aside, which may stand on either side) are looked for after it.
    # A rule whose verb leads in a verb-first language is anchored on the verb, and its other
    # needs are looked for after it: the thing the verb acts on, not one named before it
    # ("assistant on this account: change the delivery address").
    lead = rule.first_at if rule.first_at is not None else rule.verb_at
    anchors = options[lead] if lead is not None else min(options, key=len)
    for anchor in anchors:
        chosen = _chosen(rule, options, anchor, lead, window)
        if chosen is None or _ruled_out(rule, chosen, by_concept, folded):
            continue
        start = min(hit.start for hit in chosen)
        end = max(hit.end for hit in chosen)
        # A quoted phrase is as long as it is: where it opens is what must lie near.
        reach = max(hit.start if hit.concept == "quoted" else hit.end for hit in chosen)
        if reach - start <= window + window // 2:
            return start, end, {hit.language for hit in chosen}
    return None


def _options(rule: Rule, by_concept: dict[str, list[Hit]]) -> list[list[Hit]] | None:
    """The hits that could meet each need of `rule`, in its order; None when one has none."""
    options: list[list[Hit]] = []
    for need in rule.needs:
        alternatives = need if isinstance(need, tuple) else (need,)
        hits: list[Hit] = [hit for concept in alternatives for hit in by_concept.get(concept, [])]
        if not hits:
            return None
        options.append(hits)
    return options


def _chosen(
    rule: Rule, options: list[list[Hit]], anchor: Hit, lead: int | None, window: int
) -> list[Hit] | None:
    """For each need, the hit nearest `anchor` (after it where the rule's lead must come first),
    each word meeting one need; None when a need has none within `window`."""
    chosen: list[Hit] = []
    # A rule is made of several words: one word ("order", a verb and a thing) meets one need.
    words: set[tuple[int, int]] = set()
    follows = rule.first_at is not None or (
        rule.verb_at is not None and anchor.language in _VERB_FIRST
    )
    for index, candidates in enumerate(options):
        if follows and index != lead and "ai" not in rule.needs[index]:
            candidates = [hit for hit in candidates if hit.start >= anchor.start]
        hits = [
            hit for hit in candidates if hit.concept in _PSEUDO or (hit.start, hit.end) not in words
        ]
        if not hits:
            return None
        near = min(hits, key=lambda hit: abs(hit.start - anchor.start))
        if near.concept not in _PSEUDO:
            words.add((near.start, near.end))
        if abs(near.start - anchor.start) > window:
            return None
        chosen.append(near)
    return chosen


def _ruled_out(
    rule: Rule, chosen: list[Hit], by_concept: dict[str, list[Hit]], folded: str
) -> bool:
    """Whether the chosen hits fail what the rule asks of their order, phrase and words, or make
    no request: a verb that trails, words inside a quote, a possessive of no language of the
    clause, a report, a kind of text named."""
    return (
        (rule.verb_at is not None and _verb_trails(chosen, rule.verb_at))
        or (
            rule.phrase_at is not None
            and not _one_phrase(folded, chosen, rule.phrase_at, by_concept)
        )
        or (rule.ends_at is not None and not _ends_phrase(folded, chosen[rule.ends_at], by_concept))
        or _inside_a_quote(chosen)
        or _stray_possessive(chosen, by_concept)
        or (rule.given_at is not None and _reported(folded, chosen[rule.given_at]))
        or (rule.named_at is not None and _named_kind(folded, chosen[rule.named_at]))
    )


def _stray_possessive(chosen: list[Hit], by_concept: dict[str, list[Hit]]) -> bool:
    """Whether a possessive the rule needs is a word of no language the clause is otherwise
    written in: Swedish "er" ("your") in a German clause is the pronoun "he". A loanword
    ("prompt") travels between languages; a possessive does not."""
    for hit in chosen:
        if hit.concept in POSSESSIVES and not any(
            other.language is hit.language
            for concept, hits in by_concept.items()
            if concept not in _PSEUDO and concept not in POSSESSIVES
            for other in hits
        ):
            return True
    return False


def _verb_trails(chosen: list[Hit], verb: int) -> bool:
    """Whether the verb of a verb-first language comes after one of the other concepts chosen."""
    lead = chosen[verb]
    return lead.language in _VERB_FIRST and any(hit.start < lead.start for hit in chosen)


def _one_phrase(
    folded: str, chosen: list[Hit], pair: tuple[int, int], by_concept: dict[str, list[Hit]]
) -> bool:
    """Whether two chosen hits make one phrase: only small words, possessives or other concepts'
    words between them (checked in the verb-first languages, whose small words are known)."""
    first, second = sorted((chosen[pair[0]], chosen[pair[1]]), key=lambda hit: hit.start)
    if first.language not in _VERB_FIRST or second.language not in _VERB_FIRST:
        return True
    low, high = first.start, max(first.end, second.start)
    # A word a hit begins (the ending of "instructions") is that concept's word.
    covered = [
        (hit.start, hit.end)
        for hits in by_concept.values()
        for hit in hits
        if hit.start < high and low < hit.end
    ]
    for word in _word().finditer(folded, low, high):
        if word.group() in _small_words() or word.group().endswith("'s"):
            continue
        if not any(start < word.end() and word.start() < end for start, end in covered):
            return False
    return True


def _ends_phrase(folded: str, hit: Hit, by_concept: dict[str, list[Hit]]) -> bool:
    """Whether the word after a verb-first language's hit is no plain word of its phrase."""
    if hit.language not in _VERB_FIRST:
        return True
    word = _next_word().match(folded, hit.end)
    if word is None or word.group(1) in _small_words() or word.group(1) in _joining_words():
        return True
    at = word.start(1)
    return any(h.start <= at < h.end or h.start == at for hits in by_concept.values() for h in hits)


def _reported(folded: str, hit: Hit) -> bool:
    """Whether an English verb is an infinitive with no second person near: reported speech."""
    if hit.language is not Language.EN or not folded.endswith("to ", 0, hit.start):
        return False
    near = folded[max(0, hit.start - _READER_REACH) : hit.end + _READER_REACH]
    return _reader().search(near) is None


def _named_kind(folded: str, hit: Hit) -> bool:
    """Whether an English word follows an article or a determiner: "the system message" is a
    kind of text named in a sentence, "System message:" the label of one."""
    return hit.language is Language.EN and bool(
        _article_before().search(folded, max(0, hit.start - 8), hit.start)
    )


def _inside_a_quote(chosen: list[Hit]) -> bool:
    """Whether a concept's word lies inside the quoted phrase the rule also needs: the words of
    "write 'ignore previous instructions'" are what is quoted, not what is asked."""
    quotes = [hit for hit in chosen if hit.concept == "quoted"]
    return any(
        quote.start < hit.start and hit.end <= quote.end
        for quote in quotes
        for hit in chosen
        if hit is not quote
    )
