"""One text field through the whole pipeline: sanitize, then detect on what is left and on what was hidden."""

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

from ..detect import Detection, Signal, SignalFlood, detect
from ..detect.context import telling_key
from ..detect.first_pass import FirstPass
from ..sanitize import Removal, SanitizeRules, sanitize
from ..sanitize.model import CHAT_DELIMITER, DECODED_CHARS
from ..sanitize.pipeline import untouched
from .decision import decide, withhold_at
from .model_text import MODEL_TEXT_HARMS, model_text_signals, weigh
from .readings import marked, readings


class Verdict(StrEnum):
    """What happened to one field, mildest first (so the worst of several is the last of them)."""

    CLEAN = "clean"
    SANITIZED = "sanitized"
    """Hidden content was removed; the rest went through."""
    WITHHELD = "withheld"


# The signal of a request to decode something and follow it.
_DECODE_REQUEST = "encoded_instruction"


class Decoded(NamedTuple):
    """A hidden payload made readable: which kind of hiding, and what it said."""

    kind: str
    text: str


@dataclass(frozen=True)
class ScanRules:
    """How one field is treated: untrusted text is cleaned and scored, trusted text only loses invisibles."""

    untrusted: bool = True
    allow_hosts: tuple[str, ...] = ()
    threshold: float | None = None  # None: the detector's default
    for_the_model: bool = False
    """Text the server wrote for the model (see `model_text`): only what harms there counts."""
    own_tools: frozenset[str] = frozenset()
    """With `for_the_model`: the tools the server lists for itself (naming others is evidence)."""
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Every short field's verdict is looked up by its rules: they are hashed once, not at
        # every lookup.
        fields = (self.untrusted, self.allow_hosts, self.threshold, self.for_the_model)
        object.__setattr__(self, "_hash", hash((*fields, self.own_tools)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def kinds(self) -> frozenset[str] | None:
        """The signal kinds that count in visible text; None for all."""
        return MODEL_TEXT_HARMS if self.for_the_model else None

    @property
    def learned(self) -> bool:
        """Whether the learned second reading may withhold: it learned tool output, not descriptions."""
        return not self.for_the_model


@dataclass(frozen=True)
class FieldVerdict:
    """What happened to one field, and why.

    Signals found in a decoded hidden payload carry spans into that payload's text, not the field's.
    """

    verdict: Verdict
    score: float
    signals: list[Signal] = field(default_factory=list)
    removed: list[Removal] = field(default_factory=list)
    decoded: list[Decoded] = field(default_factory=list)
    original: str = ""
    cleaned: str = ""
    # Each text the detector read, with the spans of its signals: the cleaned field, then each
    # decoded payload. Empty when the field was not scored (trusted rules).
    passages: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()

    @property
    def signal_names(self) -> list[str]:
        """Distinct signal kinds, strongest first."""
        best: dict[str, float] = {}
        for signal in self.signals:
            best[signal.name] = max(best.get(signal.name, 0.0), signal.weight)
        return sorted(best, key=lambda name: -best[name])

    def to_json(self, text: str) -> dict:
        """The `lazaretto scan --jsonl` shape; `text` is what the agent would see."""
        return {
            "verdict": self.verdict,
            "score": self.score,
            "signals": [signal_json(s) for s in self.signals],
            "removed": [{"kind": r.kind, "count": r.count} for r in self.removed],
            "decoded": [{"kind": d.kind, "text": d.text} for d in self.decoded],
            "text": text,
        }


def signal_json(signal: Signal) -> dict:
    """A signal as `lazaretto scan` prints it: `key` only where the field's key was judged."""
    shown = {"name": signal.name, "weight": signal.weight, "excerpt": signal.excerpt}
    if signal.key:
        shown["key"] = signal.key
    return shown


class ReadInMessage:
    """What one message's scan knows of it: the first pass over all its texts (see
    `detect.first_pass`), whether they are `plain` (joined, they show no mark that a sanitizer
    family or a reading starts from, so neither changes any of them), and the long texts read so
    far, by text and telling key, with their verdicts.

    A text is found again by comparing it with the texts of its length, not by its hash: hashing
    reads every character of each copy, where comparing two copies stops at memory speed (and at
    the first difference). Few texts are kept per length, so a message of many crafted texts of
    one length still costs each lookup a bounded number of comparisons.
    """

    PER_LENGTH = 2

    def __init__(self, first: FirstPass | None = None, plain: bool = False) -> None:
        self.first, self.plain = first, plain
        self._by_length: dict[tuple[int, str], list[tuple[str, FieldVerdict]]] = {}

    def get(self, text: str, key: str) -> FieldVerdict | None:
        """The verdict of an equal text read before under the same key, if one is kept."""
        for known, verdict in self._by_length.get((len(text), key), ()):
            if known == text:
                return verdict
        return None

    def keep(self, text: str, key: str, verdict: FieldVerdict) -> None:
        """Remember `verdict` for `text` while its length has room."""
        kept = self._by_length.setdefault((len(text), key), [])
        if len(kept) < self.PER_LENGTH:
            kept.append((text, verdict))


def scan_text(
    text: str, rules: ScanRules, where: str = "", seen: ReadInMessage | None = None
) -> FieldVerdict:
    """Sanitize `text` and score it; a clean field keeps its exact string.

    `where` is the field's surface path (`/structuredContent/reviews/0/content`), if any: a
    request to act reads differently in a review than in an e-mail body (see `detect.context`).
    The verdict depends on nothing but the text, the field's key and the rules, and short texts
    recur (object keys, statuses, enum values): theirs are remembered. So do a message's long
    texts within it, given `seen` (one per message): a result's `structuredContent` often repeats
    its content blocks word for word. A verdict is never changed by its users.
    """
    return field_scanner(rules)(text, where, seen)


def field_scanner(rules: ScanRules) -> Callable[[str, str, "ReadInMessage | None"], FieldVerdict]:
    """`scan_text` under `rules`, as `(text, where, seen) -> verdict`: the fields of a message
    are scanned under one set of rules, whose remembered short verdicts are found once for all."""
    short = _SHORT_VERDICTS.table(rules)

    def scan(text: str, where: str = "", seen: ReadInMessage | None = None) -> FieldVerdict:
        key = _telling_key(where) if where else ""
        if len(text) <= _SHORT_TEXT:
            verdict = short.get((text, key))
            if verdict is None:
                verdict = _scan(text, rules, key, seen)
                _SHORT_VERDICTS.keep(short, (text, key), verdict)
            return verdict
        if seen is None:
            return _scan(text, rules, key)
        verdict = seen.get(text, key)
        if verdict is None:
            verdict = _scan(text, rules, key, seen)
            seen.keep(text, key, verdict)
        return verdict

    return scan


# Every field asks for its path's telling key, and a result's paths repeat in each of its records.
_telling_key = lru_cache(maxsize=4096)(telling_key)

# The longest text whose verdict is remembered, and how many are.
_SHORT_TEXT = 64
_SHORT_MOST = 8192


class _ShortVerdicts:
    """Short texts' verdicts by (text, key), a table for each rules, for every message. A verdict
    depends on nothing else, so one made with the message's first pass in hand (which may tell
    that nothing can be found in the text, and spare its reading: a server's name and version in
    its first answer) stands for any message. Emptied when _SHORT_MOST are kept: most processes
    see far fewer."""

    def __init__(self) -> None:
        self._tables: dict[ScanRules, dict[tuple[str, str], FieldVerdict]] = {}
        self._kept = 0

    def table(self, rules: ScanRules) -> dict[tuple[str, str], FieldVerdict]:
        """The verdicts under `rules` (the table a scanner keeps to, see `keep`)."""
        found = self._tables.get(rules)
        if found is None:
            found = self._tables[rules] = {}
        return found

    def keep(
        self,
        table: dict[tuple[str, str], FieldVerdict],
        key: tuple[str, str],
        verdict: FieldVerdict,
    ) -> None:
        """Remember `verdict` in `table`, as `table(rules)` gave it (one emptied and let go of
        since still counts toward the bound: its scanner keeps it until its message is done)."""
        if self._kept >= _SHORT_MOST:
            self.clear()
        table[key] = verdict
        self._kept += 1

    def clear(self) -> None:
        """Forget every verdict."""
        for table in self._tables.values():
            table.clear()
        self._tables.clear()
        self._kept = 0


_SHORT_VERDICTS = _ShortVerdicts()


def _scan(
    text: str, rules: ScanRules, key: str = "", seen: ReadInMessage | None = None
) -> FieldVerdict:
    threshold = withhold_at(rules.threshold)
    if not rules.untrusted:
        cleaned, removed = sanitize(text, SanitizeRules(untrusted=False))
        return FieldVerdict(
            Verdict.SANITIZED if removed else Verdict.CLEAN,
            0.0,
            [],
            removed,
            _decoded(removed),
            text,
            cleaned,
        )
    try:
        return _scan_untrusted(text, rules, threshold, key, seen)
    except Exception as exc:
        return unreadable(text, threshold, exc)


def unreadable(text: str, threshold: float, error: Exception) -> FieldVerdict:
    """The verdict of a field the judge could not read to its end: withheld whole, the error
    its reason (a person reads the original and may release it)."""
    reason = Signal("scan_error", threshold, f"{type(error).__name__}: {error}"[:120], 0, 0)
    return FieldVerdict(Verdict.WITHHELD, threshold, [reason], [], [], text, "")


def _scan_untrusted(
    text: str, rules: ScanRules, threshold: float, key: str, seen: ReadInMessage | None
) -> FieldVerdict:
    def instructions(candidate: str) -> bool:
        return detect(candidate).score >= threshold

    plain = seen is not None and seen.plain
    cleaned, removed = (
        (text, [])
        if plain
        else sanitize(
            text,
            SanitizeRules(
                untrusted=True, allow_hosts=rules.allow_hosts, looks_like_instructions=instructions
            ),
        )
    )
    decoded = _decoded(removed)
    kinds = rules.kinds
    # The text as it came is one the message's first pass read: where that says nothing can be
    # found in it, its reading is the empty one, not made again.
    first = seen.first if seen is not None else None
    silent = not removed and first is not None and first.silent([cleaned], key)
    if plain and silent and not rules.for_the_model:
        # Nothing to strip, no reading to make, no evidence to weigh: what the steps below would
        # make of it, without taking them (most of a listing's fields).
        return FieldVerdict(Verdict.CLEAN, 0.0, [], [], [], text, text, ((text, ()),))
    found = reading = _NOTHING if silent else detect(cleaned, key=key, kinds=kinds)
    passages = [(cleaned, _spans(reading))]
    if removed:
        # What the sanitizer took out can itself be evidence (a fake chat delimiter, an
        # instruction in an HTML comment): the original text is scored too, and the stronger
        # reading wins. Its spans index the original, which is what a reviewer is shown.
        found = max(found, detect(text, key=key, kinds=kinds), key=lambda d: d.score)
    score, signals = found.score, list(found.signals)
    # A hidden payload is scored on its own: text someone took care to hide, and that reads like
    # instructions, withholds the whole field even when the visible rest is harmless. A chat
    # template's token was in plain view, not hidden: the original text's reading scores it in
    # its place (a turn it opens, or a token a write-up names in quotes), which the bare tokens
    # stripped of that place would not tell.
    for payload in decoded:
        if payload.kind == CHAT_DELIMITER:
            continue
        hidden = detect(payload.text, key=key)
        passages.append((payload.text, _spans(hidden)))
        signals.extend(hidden.signals)
        score = max(score, hidden.score)
    # Encodings a model decodes on sight are read too; a reading is kept (shown to the reviewer)
    # only when it says more than the text does, and the field is never rewritten for one.
    asks_to_decode = any(s.name == _DECODE_REQUEST for s in reading.signals)
    # A reading is measured against what the visible text says in full: in text for the model,
    # whose visible words may all be imperative, only what the encoding adds counts.
    visible = reading if kinds is None else None
    for other in () if plain else readings(cleaned):
        read = detect(other.text)
        if visible is None:
            visible = _NOTHING if silent else detect(cleaned, key=key)
        added = read.score if kinds is None else read.score - visible.score
        # "Decode this and do what it says" beside the encoded text: one piece of evidence.
        weight = added + reading.score if asks_to_decode else added
        if read.score > visible.score and weight >= threshold:
            decoded.append(Decoded(other.kind, other.text[:DECODED_CHARS]))
            passages.append((other.text, _spans(read)))
            signals.extend(read.signals)
            score = max(score, weight)
    if rules.for_the_model:
        hidden = [payload.text for payload in decoded if payload.kind != CHAT_DELIMITER]
        harms = model_text_signals(cleaned, rules.own_tools, hidden)
        signals.extend(harms)
        score += weigh(harms)
    # The stretch around the visible evidence, read by the learned model as a whole and part by
    # part, may withhold a text the rules scored under their threshold (never the reverse).
    decision = decide(cleaned, reading.signals, score, threshold, learned=rules.learned)
    if decision.learned is not None:
        signals.append(decision.learned)
    score = decision.score
    if decision.withheld:
        verdict = Verdict.WITHHELD
    elif removed:
        verdict = Verdict.SANITIZED
    else:
        verdict = Verdict.CLEAN
    return FieldVerdict(
        verdict, score, _distinct(signals), removed, decoded, text, cleaned, tuple(passages)
    )


def plain_texts(joined: str) -> bool:
    """Whether no untrusted text of those `joined` loses anything to the sanitizer or has a
    reading, told by one scan each of them all: the marks those start from are fixed shapes, and
    what any of the texts shows, the joined text shows."""
    return untouched(joined, SanitizeRules(untrusted=True)) and not marked(joined)


_NOTHING = Detection(0.0, [])
"""What `detect` finds in a text without evidence."""


def read_passages(texts: list[str]) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    """`FieldVerdict.passages` for texts no scan has read (a trusted field that repeats a payload)."""
    return tuple((text, _read_spans(text)) for text in texts)


def _read_spans(text: str) -> tuple[tuple[int, int], ...]:
    try:
        return _spans(detect(text))
    except SignalFlood:
        return ()  # too many to mark: the text is shown unmarked


def _spans(found: Detection) -> tuple[tuple[int, int], ...]:
    return tuple((s.start, s.end) for s in found.signals if s.end > s.start)


SHOWN_PER_KIND = 64
"""The most signals of one kind a field's verdict lists, strongest first. Past that many a
reviewer learns nothing more from them, and comparing each with those listed grew with their
square (a crafted text makes a signal in each of thousands of clauses). The score is that of all."""


def _distinct(signals: list[Signal]) -> list[Signal]:
    """One signal per kind and passage: the same words seen in the original, the cleaned text and a
    decoded payload (or by two patterns of one kind) are one piece of evidence for a reviewer."""
    kept: list[Signal] = []
    # Each kind's listed excerpts, with their cores.
    listed: dict[str, list[tuple[str, str]]] = {}
    for signal in sorted(signals, key=lambda s: -s.weight):
        same = listed.setdefault(signal.name, [])
        if len(same) >= SHOWN_PER_KIND:
            continue
        core = signal.excerpt.strip(" <>!-\n")
        if not any(core in excerpt or other in core for excerpt, other in same):
            same.append((signal.excerpt, core))
            kept.append(signal)
    return kept


def _decoded(removed: list[Removal]) -> list[Decoded]:
    return [Decoded(r.kind, r.decoded) for r in removed if r.decoded]
