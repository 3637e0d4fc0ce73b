"""A message's texts read as one document: an instruction split across fields is still one instruction.

A model reads a whole result at once, so a sentence cut into `structuredContent` values or spread
over content blocks reaches it whole. Each field is scored on its own first; then the cleaned text
of every value the scan let through is joined, in order, and scored as one text. When that
document scores at or above the threshold, the fields holding a part of a signal are withheld,
each with the joined parts shown to the reviewer beside it.
"""

import re
from bisect import bisect_right
from collections.abc import Callable
from functools import cache, cached_property
from typing import Any

from ..detect import HOMOGLYPHS, Signal, SignalFlood, detect
from ..detect.context import telling_key
from ..detect.first_pass import JOINER, FirstPass, first_pass
from ..mcp.listing import records
from ..mcp.surfaces import surfaces_of
from .decision import decide, withhold_at
from .scan import (
    Decoded,
    FieldVerdict,
    ReadInMessage,
    ScanRules,
    Verdict,
    plain_texts,
    unreadable,
)

SPLIT = "split_across_fields"
_KEY = "@key"  # how a surface path names an object key: keys take no part in the document
_TYPE = "/type"
# Between two fields: a line break ends no pattern that a space would not, and keeps words apart.
_JOINER = JOINER
DECODED_KIND = "split-fields"
# A content block's `type` names its kind: it is no prose of the message, and a part of a split
# sentence on either side of it still joins its other part.
_BLOCK_TYPES = frozenset({"text", "image", "audio", "resource", "resource_link"})
# How much of a mirrored document's second half is read (see `_read_text`): four times a
# concept segment, far past the reach of any signal that starts in the first half.
MIRROR_HEAD = 1 << 18
# How far from the seam of one text told twice evidence that reads across it may lie: far past the
# reach of a rule, a pattern or the context either looks at (see `_under_by_seam`).
SEAM_REACH = 1 << 12


@cache
def _space() -> re.Pattern[str]:
    return re.compile(r"\s")


# The longest message read by a first pass: its scans copy the joined texts a few times over, and
# a large message's fields are long enough to read one by one.
FIRST_PASS_MOST = 1 << 18


def judge_message(
    payload: Any,
    verdict_of: Callable[[str, str, ReadInMessage], FieldVerdict],
    rules: ScanRules,
) -> dict[str, FieldVerdict]:
    """Every surface of `payload` (see `walk_surfaces`) with its verdict, by path; untrusted,
    the message is also read as documents (see `split_matches`): one per record of a listing,
    one of the rest (see `listing.records`), and the whole for evidence that runs across
    records. `verdict_of` is given each text, its path (a request to act is judged by its
    field's key) and what the message's scan knows of it; `rules` say how the documents are read.

    Untrusted, a message of several texts is first read whole by the compiled scans (see
    `detect.first_pass`), which tell the fields and documents where nothing can be found."""
    surfaces = surfaces_of(payload)
    parts, others, value_paths = _documented(surfaces) if rules.untrusted else ([], [], [])
    seen = ReadInMessage()
    if len(parts) < 2:
        # Trusted text is read field by field, and no document holds fewer than two texts (see
        # `split_matches`): no first pass, no documents.
        return {path: verdict_of(text, path, seen) for path, text in surfaces}
    texts = [text for _, text in parts] + others
    if sum(map(len, texts)) <= FIRST_PASS_MOST:
        joined = JOINER.join(texts)
        seen = ReadInMessage(first_pass(joined), plain_texts(joined))
    verdicts = {path: verdict_of(text, path, seen) for path, text in surfaces}
    values = [(path, verdicts[path]) for path in value_paths]
    place = _Places(seen.first, parts, verdicts)
    groups = records(values)
    for record in groups:
        verdicts.update(split_matches(record, rules, place))
    if len(groups) > 1:
        # Unrelated records' weak evidence does not add up, but an instruction split across
        # records does: the whole message is read once more, and counts where its evidence runs
        # across two of them.
        verdicts.update(split_matches(values, rules, place, groups))
    return verdicts


def _documented(
    surfaces: list[tuple[str, str]],
) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """The value fields, in order, that can be part of a document (a block's `type` cannot); the
    keys and types (after those, the texts of the first pass, in its order); and every value's path."""
    parts: list[tuple[str, str]] = []
    others: list[str] = []
    value_paths: list[str] = []
    for path, text in surfaces:
        if path.endswith(_KEY):
            others.append(text)
            continue
        value_paths.append(path)
        # The path first: a set's test hashes the text, all of a megabyte's characters.
        if path.endswith(_TYPE) and text in _BLOCK_TYPES:
            others.append(text)
        else:
            parts.append((path, text))
    return parts, others, value_paths


class _Places:
    """The message's first pass, and where each value field's text stands among its texts."""

    def __init__(
        self,
        first: FirstPass | None,
        parts: list[tuple[str, str]],
        verdicts: dict[str, FieldVerdict],
    ) -> None:
        self.first = first
        self.positions = {path: index for index, (path, _) in enumerate(parts)}
        self._parts, self._verdicts = parts, verdicts

    @cached_property
    def quiet(self) -> bool:
        """Whether no document of the message's texts holds anything to find: none was changed
        or withheld, and all of them together hold nothing (as no document can, see
        `FirstPass.silent_everywhere`)."""
        return (
            self.first is not None
            and all(_unchanged(self._verdicts[path]) for path, _ in self._parts)
            and self.first.silent_everywhere
        )

    def silent(self, kept: list[tuple[str, FieldVerdict]]) -> bool:
        """Whether the document of the texts of `kept`, joined, holds nothing to find: the texts
        are the first pass's own, side by side there as here (see `detect.first_pass`)."""
        if self.first is None:
            return False
        where = [self.positions.get(path, -1) for path, _ in kept]
        if where[0] < 0 or where != list(range(where[0], where[0] + len(where))):
            return False
        return self.quiet or (
            all(_unchanged(verdict) for _, verdict in kept)
            and self.first.silent([verdict.cleaned for _, verdict in kept])
        )


def _unchanged(verdict: FieldVerdict) -> bool:
    """Whether the field reaches documents as it came: not withheld, nothing removed."""
    return verdict.verdict is not Verdict.WITHHELD and verdict.cleaned == verdict.original


def split_matches(
    parts: list[tuple[str, FieldVerdict]],
    rules: ScanRules,
    place: _Places,
    groups: list[list[tuple[str, FieldVerdict]]] | None = None,
) -> dict[str, FieldVerdict]:
    """The value fields (path, verdict) to withhold because the message read as one document
    crosses the threshold, each with the verdict it is withheld under (by path); empty when the
    document is harmless.

    Fields already withheld on their own take no part: they never reach the model. Given the
    records the parts are grouped into, the document counts only when some of its evidence runs
    across the parts of two records. A document the message's first pass (`place`) says holds
    nothing is not read.
    """
    documented = place.positions
    kept = [
        (path, verdict)
        for path, verdict in parts
        if verdict.verdict is not Verdict.WITHHELD and path in documented
    ]
    if len(kept) < 2:
        return {}
    texts = [verdict.cleaned for _, verdict in kept]
    # A long mirror's document is cut short, in the middle of a text (see `_read_text`): the
    # first pass vouches for runs of whole texts only.
    if not _long_mirror(texts) and place.silent(kept):
        return {}
    record_of = (
        None
        if groups is None
        else {path: n for n, record in enumerate(groups) for path, _ in record}
    )
    threshold = withhold_at(rules.threshold)
    try:
        if _under_by_seam(kept, texts, threshold, rules.kinds):
            return {}
        document = _read_text(texts, [verdict for _, verdict in kept])
        found = detect(document, kinds=rules.kinds)
    except SignalFlood as flood:
        # Fields read one by one made fewer each: together they are withheld, each whole.
        return {path: unreadable(own.original, threshold, flood) for path, own in kept}
    starts, offset = [], 0
    for text in texts:
        starts.append(offset)
        offset += len(text) + len(_JOINER)
    # Under the threshold, the learned model may still read the document as an attack (it reads
    # single fields too, but a message's values are often too short for it alone). One text told
    # twice (a mirror) it has read already, as that text's field: the seam bound counts on that.
    if found.score < threshold and len(set(texts)) == 1:
        return {}
    decision = decide(document, found.signals, found.score, threshold, learned=rules.learned)
    if not decision.withheld:
        return {}
    # Which fields each signal's span touches; a signal inside one field that scored under the
    # threshold on its own still counts, since the document's score is what crossed it.
    touched: dict[int, list[Signal]] = {}
    crossed: set[int] = set()  # the records some evidence runs across
    for signal in found.signals:
        if signal.end <= signal.start:
            continue
        first = bisect_right(starts, signal.start) - 1
        last = bisect_right(starts, signal.end - 1) - 1
        for index in range(first, last + 1):
            touched.setdefault(index, []).append(signal)
        if record_of is not None and record_of[kept[first][0]] != record_of[kept[last][0]]:
            crossed.update(record_of[path] for path, _ in kept[first : last + 1])
    if record_of is not None:
        # Only the records an instruction runs across: the others' evidence is their own.
        touched = {i: found for i, found in touched.items() if record_of[kept[i][0]] in crossed}
    # A text withheld as part of the document is withheld wherever the message repeats it, with
    # the same evidence in the same places: its twins are what the unread rest of a mirrored
    # document holds, and a mirror (content and structuredContent) must not let a part through.
    places: dict[str, list[int]] = {}
    for index, text in enumerate(texts):
        places.setdefault(text, []).append(index)
    for index in list(touched):
        for twin in places[texts[index]]:
            if twin == index:
                continue
            shift = starts[twin] - starts[index]
            moved = [
                Signal(s.name, s.weight, s.excerpt, s.start + shift, s.end + shift, s.key)
                for s in touched[index]
            ]
            held = touched.setdefault(twin, [])
            held.extend(signal for signal in moved if signal not in held)
    if not touched:
        return {}
    # A result's structuredContent often repeats its content blocks: each part is shown once.
    shown = _JOINER.join(dict.fromkeys(texts[index] for index in sorted(touched)))
    verdicts = {}
    for index, signals in touched.items():
        path, own = kept[index]
        start, end = starts[index], starts[index] + len(texts[index])
        # Each signal's span, cut to this field and counted from its start.
        own_signals = [
            Signal(
                s.name, s.weight, s.excerpt, max(s.start, start) - start, min(s.end, end) - start
            )
            for s in signals
            if min(s.end, end) > max(s.start, start)
        ]
        reason = decision.learned or Signal(
            SPLIT,
            found.score,
            f"with {len(touched) - 1} other field(s) of this message it reads as instructions",
            0,
            0,
        )
        verdicts[path] = FieldVerdict(
            Verdict.WITHHELD,
            decision.score,
            [reason, *own_signals, *(s for s in own.signals if s not in own_signals)],
            own.removed,
            [*own.decoded, Decoded(DECODED_KIND, shown)],
            own.original,
            own.cleaned,
            ((own.cleaned, tuple((s.start, s.end) for s in own_signals)), *own.passages[1:]),
        )
    return verdicts


def _under_by_seam(
    kept: list[tuple[str, FieldVerdict]],
    texts: list[str],
    threshold: float,
    kinds: frozenset[str] | None,
) -> bool:
    """Whether the document of one long text told twice (a content block and the
    `structuredContent` value that repeats it) stays under the threshold, told from a bound.

    Its evidence (see `_read_text`) is the text's own, which the field's scan has scored already,
    and what reads across the seam; the rest of the repeat is the text's head again, read in the
    same surroundings. Scores add up with less than their sum, so the field's score plus that of
    the stretch around the seam bounds the document's from above: under the threshold, so is the
    document, and it is not read. Otherwise it is read as before. Only a field judged without a
    telling key (its scan read the text as the document does) and without look-alike letters
    (their count grows with every copy) is bounded so.
    """
    if len(texts) != 2 or texts[0] != texts[1] or len(texts[0]) <= 4 * SEAM_REACH:
        return False
    if any(telling_key(path) for path, _ in kept):
        return False
    if any(s.name == HOMOGLYPHS for _, verdict in kept for s in verdict.signals):
        return False
    text = texts[0]
    seam = detect(text[-SEAM_REACH:] + _JOINER + text[:SEAM_REACH], kinds=kinds)
    return max(verdict.score for _, verdict in kept) + seam.score < threshold


def _long_mirror(texts: list[str]) -> bool:
    """Whether `_read_text` may cut the document of `texts` short: one run told twice, longer
    than MIRROR_HEAD."""
    half, odd = divmod(len(texts), 2)
    return not odd and sum(map(len, texts)) > MIRROR_HEAD and texts[:half] == texts[half:]


def _read_text(texts: list[str], verdicts: list[FieldVerdict]) -> str:
    """The text to score as the document of `texts`: all of them joined, or less of a mirror.

    The SDKs put a tool's return value both in the content blocks and in `structuredContent`, so
    a message's texts are often one run told twice: its document is D, a line break, D. Evidence
    counts once per pattern or rule however often it recurs, so all the second D adds is what
    runs across the seam between the two; it is read to the first whitespace past MIRROR_HEAD,
    not to its end. The exception is the homoglyph count, which counts recurrences: a text with
    such words is read whole.
    """
    half, odd = divmod(len(texts), 2)
    if odd or texts[:half] != texts[half:]:
        return _JOINER.join(texts)
    first = _JOINER.join(texts[:half])
    cut = _space().search(first, MIRROR_HEAD)
    if cut is None or any(s.name == HOMOGLYPHS for v in verdicts for s in v.signals):
        return _JOINER.join(texts)
    return first + _JOINER + first[: cut.start()]
