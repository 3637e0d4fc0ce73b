"""What kind of field a piece of text sits in, from its key or from the shape around it.

A review describes a product, an event name names an event, a bio describes a person: a
sentence in such a field asking the reader to grant access, move money or send someone's data
is out of place, where the same sentence in an e-mail body is ordinary correspondence. The
kind comes from the field's own key (the path the proxy walked, `/structuredContent/reviews/0`)
or, inside the text, from the nearest key around the sentence: JSON (`"bio": "..."`), Python
reprs (`'bio': '...'`) and YAML-like lines (`event_name: ...`), so a whole tool output handed
over as one text is read field by field too.
"""

import re
from bisect import bisect_right
from enum import Enum
from functools import cache, lru_cache
from typing import NamedTuple

from .alternation import leftmost


class FieldKind(Enum):
    """What a field holds, as far as its key tells."""

    DESCRIPTION = "describes a thing, a person or an event"
    WORK_ITEM = "a ticket, task or comment"
    MESSAGE = "a message between people"
    TASK = "a to-do of the person's own"
    UNKNOWN = "unknown"


# A record's description under the keys other languages give it (in ASCII, as keys are): it
# is one of the record's own parts, like "description". Not Portuguese "descricao": a task
# board's cards carry it beside a due date ("prazo") no key list here knows, and a to-do that
# sends a receipt to an address would read as a description asking for it.
_FOREIGN_RECORD_PARTS = (
    "descripcion descrizione beschreibung beschrijving omschrijving aciklama popis opis"
    " beskrivning".split()
)
# Key words (after splitting snake_case, camelCase and punctuation) and the kind they name.
# Generic keys ("content", "text", "value") say nothing and are looked past, to the parent.
_DESCRIPTION_WORDS = frozenset(
    "review reviews rating ratings feedback testimonial testimonials bio biography about description"
    " descriptions desc summary title titles name names headline tagline caption snippet snippets note"
    " notes profile profiles event events location venue product products label labels tag tags status"
    " occupation company organization organisation job position nickname username displayname display"
    " topic repository repo listing listings bookmark bookmarks contact contacts answer answers question"
    " questions memo purpose alt channel playlist track album recipe amenity amenities hotel hotels"
    " restaurant restaurants place places attraction attractions remark remarks".split()
    + _FOREIGN_RECORD_PARTS
)
# Work items ask people to do things as a matter of course ("please grant me access to the
# repo"): there only a request naming where data or money should go is out of place.
_WORK_ITEM_WORDS = frozenset(
    "ticket tickets issue issues task tasks todo todos comment comments tweet tweets post posts card".split()
)
_MESSAGE_WORDS = frozenset(
    "body subject message messages mail email emails sms chat reply replies conversation letter inbox".split()
)
_GENERIC_WORDS = frozenset(
    "content contents text value values data result results structured structuredcontent details"
    " detail info information html markdown md string raw output response payload key items item".split()
)


@cache
def _key_parts() -> re.Pattern[str]:
    return re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


# A key and its string value: JSON or a Python repr ("key": "value", 'key': 'value'), one
# pattern for each quote (see `alternation`). A key's characters and a value's runs of plain
# characters are taken whole (possessive): no quote is among them, so giving some back never
# lets the closing quote match, and a long value is read a run at a time, not a character at a
# time.
@cache
def _quoted_pairs() -> tuple[tuple[re.Pattern[str], int], ...]:
    return tuple(
        (re.compile(rf"{q}([\w .-]{{1,48}}+){q}[ \t]*:[ \t]*{q}((?:[^{q}\\]++|\\.)*+){q}"), 0)
        for q in "\"'"
    )


# A key that opens a JSON object or array: what the values inside it are ("reviews": [...]),
# one pattern for each opening quote.
@cache
def _container_keys() -> tuple[tuple[re.Pattern[str], int], ...]:
    return tuple((re.compile(rf"{q}([\w .-]{{1,48}})[\"'][ \t]*:[ \t]*[\[{{]"), 0) for q in "\"'")


# How far back a container key is looked for: bounds the work per clause on a huge text.
_CONTAINER_LOOKBACK = 4096


# A YAML-like line: "  - event_name: Lunch with Amy" (the value runs to the end of the line). The
# key is taken whole (possessive), spaces before the colon with it (stripped after): a lazy key
# tried every shorter key first at each line, and a tool output has a line every few words.
_LINE_PAIR = r"[ \t]*(?:-[ \t]+)?([A-Za-z_][\w .-]{0,40}+)[ \t]*:[ \t]+(\S[^\n]*)$"


@cache
def _line_pair() -> re.Pattern[str]:
    return re.compile(rf"(?m)^{_LINE_PAIR}")


# The same after a line break: searched for from that character, which `re` skips to in C (a
# search for a line's start is tried at every character of a long text).
@cache
def _next_line_pair() -> re.Pattern[str]:
    return re.compile(rf"(?m)\n{_LINE_PAIR}")


LinePair = tuple[int, int, str]
"""A YAML-like line's value (where it starts and ends) and its key."""


def _line_pairs(text: str) -> list[LinePair]:
    """The YAML-like lines of `text`, as `_line_pair().finditer(text)` finds them (each key
    without the spaces before its colon): each but the first line's searched for with the line
    break before it, as every match ends before a line break."""
    first = _line_pair().match(text)
    matches = ([first] if first is not None else []) + list(_next_line_pair().finditer(text))
    return [(match.start(2), match.end(2), match.group(1).rstrip(" ")) for match in matches]


# The keys that name a record's own parts: they describe the record, so they are of its kind. A
# ticket's title asks people for things as a matter of course ("Please reset my password"), and
# an e-mail's snippet is a piece of the message ("Please update your payment method").
_RECORD_PARTS = frozenset(
    "title summary description desc name headline details snippet".split() + _FOREIGN_RECORD_PARTS
)
# Keys only a ticket has, and keys a ticket has with others (a calendar event has a status, an
# address a state): one of the first or two of the second make the record a ticket.
_TICKET_KEYS = frozenset(
    "issuetype issue_type assignee assignees reporter milestone resolution pull_request".split()
)
_TICKET_LIKE_KEYS = frozenset("state status labels priority comments comment number".split())
# A to-do has a due date or a done flag: its title is the person's own reminder ("Pay rent
# £950", "Transfer £200 to savings"), an order to themselves, with an amount as often as not.
_TASK_KEYS = frozenset(
    "due due_date duedate due_on done is_done completed is_completed checked completed_at".split()
)
# An e-mail has a subject and a sender or a recipient.
_SENDER_KEYS = frozenset("from sender to recipients".split())
# A message of a thread (an e-mail API's message object, a chat reply) carries its thread's id;
# its headers may be a list of name-value pairs, with no "subject" key of its own.
_THREAD_KEYS = frozenset("threadid thread_id".split())


# A JSON string, or a brace: what is read to find the object a value sits in.
@cache
def _json_token() -> re.Pattern[str]:
    return re.compile(r'"(?:[^"\\\n]++|\\.)*+"(?:[ \t]*(:))?|[{}]')


# The JSON objects of a text: where each opens and closes, its parent's index, its kind.
_Objects = tuple[list[int], list[int], list[int], list[FieldKind | None]]


def _objects(text: str) -> _Objects:
    """Every JSON object of `text` with its kind of record, in one pass over its strings and
    braces (a brace inside a string is the string's)."""
    starts: list[int] = []
    ends: list[int] = []
    parents: list[int] = []
    keys: list[set[str]] = []
    opened: list[int] = []
    for token in _json_token().finditer(text):
        found = token.group()
        if found == "{":
            parents.append(opened[-1] if opened else -1)
            opened.append(len(starts))
            starts.append(token.end())
            ends.append(len(text))
            keys.append(set())
        elif found == "}":
            if opened:
                ends[opened.pop()] = token.start()
        elif token.group(1) and opened:
            keys[opened[-1]].add(found[1 : found.index('"', 1)])
    return starts, ends, parents, [_kind_of_record(names) for names in keys]


def _kind_of_record(keys: set[str]) -> FieldKind | None:
    """A ticket, an e-mail or a to-do, by the keys an object holds (None: none of them)."""
    if "subject" in keys and keys & _SENDER_KEYS:
        return FieldKind.MESSAGE
    if {key.lower() for key in keys} & _THREAD_KEYS:
        return FieldKind.MESSAGE
    if keys & _TICKET_KEYS or len(keys & _TICKET_LIKE_KEYS) >= 2:
        return FieldKind.WORK_ITEM
    if {key.lower() for key in keys} & _TASK_KEYS:
        return FieldKind.TASK
    return None


def _words(key: str) -> list[str]:
    return [part.lower() for part in _key_parts().findall(key)]


# Keys repeat in every record of a result, and in every text of a message.
@lru_cache(maxsize=4096)
def kind_of_key(key: str) -> FieldKind:
    """The kind a key names: its last telling word decides ("event_name" is a name)."""
    for word in reversed(_words(key)):
        if word in _MESSAGE_WORDS:
            return FieldKind.MESSAGE
        if word in _DESCRIPTION_WORDS:
            return FieldKind.DESCRIPTION
        if word in _WORK_ITEM_WORDS:
            return FieldKind.WORK_ITEM
    return FieldKind.UNKNOWN


def telling_key(path: str) -> str:
    """The nearest key of a surface path that says what the field is ("" if none does).

    `/structuredContent/reviews/2/content` is a review: the index and the generic "content" are
    looked past. A key's own text (`@key`) and JSON inside a text (`#`) are read the same way.
    """
    for step in reversed(_path_steps().split(path)):
        if step and not step.isdigit() and _telling(step):
            return step.replace("~1", "/").replace("~2", "@").replace("~3", "#").replace("~0", "~")
    return ""


@cache
def _path_steps() -> re.Pattern[str]:
    return re.compile(r"[/#@]")


# Every field of a result asks about its path's steps, and a result's keys repeat in each record.
@lru_cache(maxsize=4096)
def _telling(step: str) -> bool:
    words = _words(step)
    return bool(words) and not all(word in _GENERIC_WORDS for word in words)


class Field(NamedTuple):
    """The field a clause sits in: its kind and the key that told."""

    kind: FieldKind
    key: str


UNKNOWN_FIELD = Field(FieldKind.UNKNOWN, "")


# Where a quoted key opens, followed by its colon: every key `_quoted_pairs()` and
# `_container_keys()` can find, and the keys of pairs they would pass over (one overlapping a
# match before it). One pattern per opening quote (see `alternation`): each quote is tried
# either way, and the keys are a set.
@cache
def _quoted_keys() -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(rf"{quote}(?=([\w .-]{{1,48}}+)[\"'][ \t]*:)") for quote in "\"'")


def key_kinds(text: str, lines: list[LinePair] | None = None) -> frozenset[FieldKind]:
    """The kinds of field the keys inside `text` can name (see `Shapes.at`), a few more at most.

    Every key it finds lies on one line, as any key-value pair's key does: the kinds of texts
    joined by line breaks are the kinds of each of them together. `lines`: the text's YAML-like
    lines (`_line_pairs`), if they were read already.
    """
    keys = {match.group(1) for pattern in _quoted_keys() for match in pattern.finditer(text)}
    keys.update(key for _, _, key in (_line_pairs(text) if lines is None else lines))
    found = {kind_of_key(key) for key in keys}
    if any(map(_names_a_record_part, keys)):
        # A record part's kind is the record's: a ticket, an e-mail or a to-do.
        found.update((FieldKind.WORK_ITEM, FieldKind.MESSAGE, FieldKind.TASK))
    return frozenset(found)


@lru_cache(maxsize=4096)
def _names_a_record_part(key: str) -> bool:
    return not _RECORD_PARTS.isdisjoint(_words(key))


class Shapes:
    """The keyed values found inside a text, asked for the innermost one around an offset."""

    def __init__(self, text: str, outer: Field) -> None:
        self._text, self.outer = text, outer
        self._spans: list[tuple[int, int, str]] | None = None
        self._starts: list[int] = []
        self._objects: _Objects | None = None
        self._lines: list[LinePair] | None = None
        self._kinds: frozenset[FieldKind] | None = None

    def _line_matches(self) -> list[LinePair]:
        """The text's YAML-like lines, read once for both questions that need them (`kinds`, `at`)."""
        if self._lines is None:
            self._lines = _line_pairs(self._text)
        return self._lines

    def _read(self) -> list[tuple[int, int, str]]:
        """The keyed values, read on the first question (most texts never ask one)."""
        text = self._text
        spans: list[tuple[int, int, str]] = []
        for _, match in leftmost(text, _quoted_pairs()):
            spans.append((match.start(2), match.end(2), match.group(1)))
        spans.extend(self._line_matches())
        spans.sort()
        self._starts = [start for start, _, _ in spans]
        return spans

    def at(self, offset: int) -> Field:
        """The field of the innermost keyed value holding `offset`, else the text's own field."""
        if self._spans is None:
            self._spans = self._read()
        best: tuple[int, str] | None = None
        index = bisect_right(self._starts, offset)
        # Values nest only in JSON written into a value (escaped): a short look back suffices.
        for start, end, key in self._spans[max(0, index - 8) : index]:
            if start <= offset < end and (best is None or end - start < best[0]):
                best = (end - start, key)
        if best is not None:
            kind = kind_of_key(best[1])
            if kind is FieldKind.DESCRIPTION and _names_a_record_part(best[1]):
                kind = self._record_kind(offset) or kind
            if kind is not FieldKind.UNKNOWN:
                return Field(kind, best[1])
        return self._container(offset) or self.outer

    def kinds(self) -> frozenset[FieldKind]:
        """Every kind `at` can return for some offset of the text (a few more at most): a rule
        held only in other kinds of field cannot hold anywhere in it. Read once: a reading asks
        of the concepts a text names, then of the rules its hits can make, and each segment of
        a long text asks again."""
        if self._kinds is None:
            self._kinds = key_kinds(self._text, self._line_matches()) | {self.outer.kind}
        return self._kinds

    def _record_kind(self, offset: int) -> FieldKind | None:
        """The kind of the JSON object holding `offset`, where its keys tell: a ticket or an
        e-mail (the text's objects are read once, on the first question)."""
        if self._objects is None:
            self._objects = _objects(self._text)
        starts, ends, parents, kinds = self._objects
        # The innermost object holding `offset` is the last one opened before it, or one of
        # that one's parents (the last one may have closed already).
        index = bisect_right(starts, offset) - 1
        while index >= 0 and ends[index] < offset:
            index = parents[index]
        return kinds[index] if index >= 0 else None

    def _container(self, offset: int) -> Field | None:
        """The field named by the nearest still-open JSON container holding `offset`, if telling.

        `{"reviews": [{"content": "..."}]}`: "content" says nothing, "reviews" does.
        """
        floor = max(0, offset - _CONTAINER_LOOKBACK)
        keys = [match for _, match in leftmost(self._text, _container_keys(), floor, offset)]
        for match in reversed(keys):
            between = self._text[match.end() - 1 : offset]
            depth = sum(map(between.count, "[{")) - sum(map(between.count, "]}"))
            if depth > 0:
                kind = kind_of_key(match.group(1))
                if kind is not FieldKind.UNKNOWN:
                    return Field(kind, match.group(1))
        return None
