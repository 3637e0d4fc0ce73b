"""Where a clause ends, and whether a clause speaks to the assistant (named, then told).

A part of the concept rules' matcher (`concept_rules.py`).
"""

import re
from functools import cache

from .languages import Language, collected
from .lexicon import Hit, find_hits
from .normalize import fold

# Where a clause ends: a sentence mark before a space, a blank line, a line that opens a list
# item or a label, a JSON string's edge, a table's bar, a comma after a Korean word (the verb
# comes last there: a clause joined to the next by a verb ending and a comma has had its verb).
# Full-width punctuation folds to ASCII, and
# Chinese and Japanese put no space after it: there a full stop, "!", "?" or ";" after a character
# of those scripts ends the clause anyway. Written as the characters an end starts with, then the
# alternatives (each behind a look-back at that character): a pattern that opens with a character
# class is searched for in C, where an alternation is tried at every position.
# A line that opens a part of its own: a list item, a numbered step, a label ("Second block:").
# A log record, a commit or an event opens its line with a number-led token or a short hash.
# (A word's repeats are possessive: giving back its letters never lets a colon or a space match,
# and the search is tried after every line break.)
PART = (
    r"[ \t]*(?:[-*•#>|]|\d{1,3}[.)][ \t]|(?:[\w\"'-]{1,20}+[ \t]){0,2}[\w\"'-]{1,40}+[ \t]*:"
    r"|\d[\w:.+-]*[ \t]|[0-9a-f]{7,12}[ \t])"
)


@cache
def clause_end() -> re.Pattern[str]:
    """Where a clause ends: the splitter's pattern, compiled on first use."""
    return re.compile(
        r"[.!?;。！？；।॥؟\n\"{\[,|]"
        r"(?:(?<=[.!?;])(?=\s|$)|(?<=[\u3040-\u9fff][.!?;])|(?<=[\u1100-\u11ff],)(?=[ \t])|(?<=[。！？；।॥؟])|(?<=\n)[ \t]*\n"
        rf"|(?<=\n)(?={PART})"
        r"|(?<=\")[ \t]*[,:}\]]|(?<=[{\[,])[ \t]*\"|(?<=\|))"
    )


_IMPERATIVE_VERBS = frozenset({"act", "send"})


# The assistant named and then a colon ("Note for the AI:"), or a comma where it opens its clause
# ("Assistant, please ..."): it is being spoken to.
# Or a particle that turns to it (each language's `address_particles`: Japanese "AIへ", to the
# AI). Or named as the one an action item is for ("- [AI assistant] Change the sharing of ...").
@cache
def _called() -> re.Pattern[str]:
    particles = "|".join(
        _folded(particle) + _not_followed_by(_subject_particle_rests(particle))
        for particle in collected("address_particles")
    )
    return re.compile(rf"[ \t]*(?::(?!//)(?![ \t]*[\"'`\\])|{particles}|\](?=[ \t]+\w))")


def _subject_particle_rests(particle: str) -> list[str]:
    """What follows `particle` in the subject particles it begins (Korean "께" in "께서")."""
    folded = fold(particle).text
    return [
        whole[len(folded) :]
        for whole in map(_folded, collected("subject_particles"))
        if whole.startswith(folded) and whole != folded
    ]


def _not_followed_by(rests: list[str]) -> str:
    return f"(?!{'|'.join(rests)})" if rests else ""


def _folded(word: str) -> str:
    """A setting's word as a pattern over the folded text."""
    return re.escape(fold(word).text)


@cache
def _called_opening() -> re.Pattern[str]:
    return re.compile(r"[ \t]*,")


# Or the assistant named in a clause's first few words and told right after ("Bots reading this
# channel: ...", "hey assistant, ...", "If an assistant manages this phone: ..."); after "the",
# "a" or a possessive, only a colon says so ("The assistant, Maria, will call" is about her).
@cache
def _address_head() -> re.Pattern[str]:
    return re.compile(r"[\W_]*(?:[^\W\d_][\w'-]*[\W_]{1,3}){0,3}")


# A subject or topic particle right after the assistant's name ("AI 비서는", "アシスタントは";
# each language's `subject_particles`): it is what the sentence is about, not who is spoken to.
@cache
def _subject_particle() -> re.Pattern[str]:
    return re.compile("|".join(map(_folded, collected("subject_particles"))))


# The same particle ending the words before the comma ("AI 비서는, ...").
@cache
def _subject_particle_end() -> re.Pattern[str]:
    return re.compile(rf"(?:{_subject_particle().pattern})[ \t]*$")


# A negation or a "can" between the assistant's name and the colon ("The bot does not:", "trợ lý
# không làm gì:", "บอทตอบได้เรื่อง:", what the bot can answer about): a list of what it may or may
# not do follows, a rule about it, not an order to it; an order does not open by denying itself
# or by saying what its reader is able to do, unless the ability is to read it ("บอทที่อ่าน
# ข้อความนี้ได้:", bots that can read this). The words are English ones here and each other
# language's `limits`: Latin words stand alone ("not" alone is Turkish "note": "Asistan için
# not:"); Thai, Chinese, Japanese and Korean ones sit inside the run of letters.
@cache
def _able_tail() -> re.Pattern[str]:
    limits = [fold(word).text for word in collected("limits")]
    alone = "|".join(re.escape(word) for word in limits if word.isascii())
    inside = "|".join(re.escape(word) for word in limits if not word.isascii())
    return re.compile(
        r"(?<![^\W\d_])(?:(?:does|do|is|must|should|may|will)[ \t]not|never|cannot"
        rf"|{alone})(?![^\W\d_])|n't|{inside}"
    )


@cache
def _determiner_before() -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?:the|a|an|this|that|our|my|your|his|her|their)[ \t]+$")


@cache
def _address_tail() -> re.Pattern[str]:
    return re.compile(r"[\w/]*(?:[ \t]+[\w'/-]+){0,6}?[ \t]*(:(?!//)|,|[ \t]-[ \t]|—)")


# In English the words between the assistant's name and a comma go on speaking to it or about
# what it does ("Bots reading this channel,", "@assistant next time you edit this,", "If your
# AI is buying for you,"): else the name is a noun's modifier ("AI category, 400 points").
@cache
def _address_goes_on() -> re.Pattern[str]:
    return re.compile(
        r"(?<!\w)(?:\w+ing|you|your|yours|this|these|that|who|which|when|whenever|if|is|are|will|can"
        r"|must|should|here|there|agents?|assistants?|bots?|models?|tools?)(?!\w)"
    )


_OPENERS = _IMPERATIVE_VERBS | {"ai"}


# How far after the words spoken to the assistant its order may start, and what ends a sentence.
_TOLD_REACH = 60


@cache
def _sentence_end() -> re.Pattern[str]:
    return re.compile(r"[.!?;。！？；\n]")


@cache
def _own_sentence() -> re.Pattern[str]:
    return re.compile(r"[ \t]*[.!。！][ \t]*")


# What may stand between a clause's start and its first word: spaces, quotes, bullets, and the
# key of a YAML-like line ("- event_name: Transfer ...").
@cache
def _opening() -> re.Pattern[str]:
    return re.compile(r"[\W_]*(?:[^\W\d][\w .-]{0,40}:[ \t]+)?[\W_]*")


def split_clauses(folded: str, hits: list[Hit], low: int = 0) -> list[list[Hit]]:
    """The hits grouped by the clause they fall in; a clause that opens with an action verb gets
    an `imperative` hit too, and the assistant spoken to a `vocative` one."""
    # Clause ends after the last hit change nothing.
    ends = ClauseEnds(folded, low, hits[-1].end + 1)
    groups: list[list[Hit]] = []
    group: list[Hit] = []
    # Where the clause being read starts (once a hit in it asks), and the place after which its
    # first end lies (the hit before it; None: the first clause, which starts at `low`).
    start: int | None = None
    opened_after: int | None = None
    # Where the assistant was named, and where the words spoken to it end (see `told`).
    address: tuple[int, int] | None = None
    previous: Hit | None = None
    for hit in hits:
        if previous is None or ends.first_after(previous.start) <= hit.start:
            group = []
            groups.append(group)
            start, opened_after = None, previous.start if previous else None
        previous = hit
        if hit.concept in _OPENERS:
            if start is None:
                start = ends.last(opened_after, hit.start)
            # Only spaces, quotes, bullets or a label before it ("Sofort: Lösche ..."): it opens.
            opens = _opening().fullmatch(folded, start, hit.start)
            if opens and hit.concept in _IMPERATIVE_VERBS:
                group.append(Hit("imperative", hit.language, hit.start, hit.end))
            if hit.concept in _IMPERATIVE_VERBS and address:
                named, spoken = address
                # Whether one clause or more lies between is all `_told` asks.
                if _told(folded, spoken, hit.start, ends.count(named, hit.start, 2)):
                    group.append(Hit("told", hit.language, hit.start, hit.end))
                address = None
            if hit.concept == "ai":
                called = (
                    _called().match(folded, hit.end)
                    or (opens and _called_opening().match(folded, hit.end))
                    or _addressed(folded, start, hit)
                )
                if called:
                    group.append(Hit("vocative", hit.language, hit.start, hit.end))
                    address = (hit.start, called.end())
        group.append(hit)
    return groups


# What a clause end runs over after its first character: the spaces and the mark that close a
# blank line or a JSON string's edge. No end spans a character of any other kind, so a search
# that starts at one finds the ends the search from the text's start finds from there on.
_RUN_OVER = frozenset(' \t\n,:}]"')


class ClauseEnds:
    """The clause ends one search of `folded[low:endpos]` finds, each searched for only where it
    is asked about: between two hits, the first end is all the grouping needs to know, and the
    text of a long clause is read once."""

    def __init__(self, folded: str, low: int, endpos: int) -> None:
        self._folded, self._low, self._endpos = folded, low, endpos
        # The last answer of `first_after`: the first end after `_asked` is `_first`.
        self._asked, self._first = endpos, endpos

    def _search_from(self, at: int) -> int:
        """A place at or before `at` from which a search finds the same ends as from `low`."""
        while at > self._low and self._folded[at] in _RUN_OVER:
            at -= 1
        return at

    def _ends(self, after: int | None):
        """The ends after `after` (None: all of them), in order."""
        begin = self._low if after is None else self._search_from(after)
        for match in clause_end().finditer(self._folded, begin, self._endpos):
            if after is None or match.end() > after:
                yield match.end()

    def first_after(self, at: int) -> float:
        """The first end after `at` (infinity when there is none)."""
        if not self._asked <= at < self._first:
            self._asked, self._first = at, self._next(at)
        return self._first

    def _next(self, after: int) -> float:
        """The first end after `after`, by plain searches: the grouping asks for it once per
        clause, where an iterator over the matches costs more than the search itself."""
        search, folded, endpos = clause_end().search, self._folded, self._endpos
        begin = self._search_from(after)
        while (match := search(folded, begin, endpos)) is not None:
            if match.end() > after:
                return match.end()
            begin = match.end()
        return float("inf")

    def last(self, after: int | None, at: int) -> int:
        """Where the clause at `at` starts: the last end at or before `at`, searched for after
        `after` (None: from `low`, which is the start when there is no end)."""
        start = self._low
        for end in self._ends(after):
            if end > at:
                break
            start = end
        return start

    def count(self, after: int, at: int, most: int) -> int:
        """How many ends lie after `after` and at or before `at`, counted up to `most`."""
        counted = 0
        for end in self._ends(after):
            if end > at or counted == most:
                break
            counted += 1
        return counted


def _told(folded: str, address_end: int, verb: int, clauses_between: int) -> bool:
    """Whether the verb at `verb` is what the assistant is told: it follows the words spoken to
    it closely, in the same sentence ("Assistant: turn off ...", "assistant, when you see this,
    please change ..."), or in the next when the words spoken to it are a sentence of their own
    ("このレビューを読んだAIへ。..."): "please" or a clause of when or how may stand between."""
    if verb - address_end > _TOLD_REACH:
        return False
    own_sentence = _own_sentence().match(folded, address_end)
    if own_sentence:
        address_end = own_sentence.end()
    return clauses_between <= bool(own_sentence) and not _sentence_end().search(
        folded, address_end, verb
    )


def _addressed(folded: str, clause_start: int, hit: Hit) -> re.Match | None:
    """Whether the assistant is named among its clause's first words and then told: a colon,
    comma or dash follows within a few words (see `_address_head()`); the match of those words."""
    if not _address_head().fullmatch(folded, clause_start, hit.start):
        return None
    if _subject_particle().match(folded, hit.end):
        return None
    tail = _address_tail().match(folded, hit.end)
    if tail is None or _subject_particle_end().search(folded, hit.end, tail.start(1)):
        return None
    if (
        _able_tail().search(folded, hit.end, tail.start(1))
        and not {other.concept for other in find_hits(folded[hit.end : tail.start(1)])} & SPOKEN_TO
    ):
        return None
    if (
        tail.group(1) == ","
        and hit.language is Language.EN
        and tail.start(1) > hit.end
        and not _address_goes_on().search(folded, hit.end, tail.start(1))
    ):
        return None
    if tail.group(1) == ":" or not _determiner_before().search(folded, clause_start, hit.start):
        return tail
    return None


# The words that, before a colon, speak to the assistant or claim authority over it ("System
# note:", "[system] result of the analysis:") rather than name a source.
SPOKEN_TO = frozenset({"ai", "note", "if_you_are", "reading_this", "system", "admin"})
