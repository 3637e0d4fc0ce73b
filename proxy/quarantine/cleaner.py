"""Field quarantine for one server: scan every text surface, withhold, strip, record, label.

The mediator calls a `FieldCleaner` for each result and each server request or notification.
Each field goes through `scan_text`; a withheld field is stored whole (nothing is lost) and
replaced by a notice with its quarantine id; a cleaned field gets one short line saying what
was removed; every removal is logged with its decoded text for the review app.
"""

from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import TYPE_CHECKING

from lazaretto.store import sha256_hex
from lazaretto.store.states import FieldStatus, ReleasedAs

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

from ..detect import Signal
from ..exposure import Exposure
from ..mcp.surfaces import BASE64_MARK, walk_surfaces
from ..policy import Policy
from .decision import withhold_at
from .document import judge_message
from .fingerprint import MIN_WORDS, payload_fingerprints
from .fingerprint_index import FingerprintIndex
from .labels import label_payload
from .model_methods import MODEL_TEXT_METHODS
from .model_text import own_names
from .notices import removal_notice, withheld_notice
from .scan import (
    FieldVerdict,
    ReadInMessage,
    ScanRules,
    Verdict,
    field_scanner,
    read_passages,
    signal_json,
)


def judge_payload(payload: dict, rules: ScanRules) -> dict[str, FieldVerdict]:
    """Every surface of `payload` with its verdict under `rules`, the message read whole (see
    `judge_message`): what the cleaner decides from, and nothing else."""
    return judge_message(payload, field_scanner(rules), rules)


REENTRY = "reentry"
_VERDICT = attrgetter("verdict")
_ALL_CLEAN = frozenset({Verdict.CLEAN})
_SHORTEST_WINDOW = 2 * MIN_WORDS - 1


def _all_clean(verdicts: dict[str, FieldVerdict]) -> bool:
    return set(map(_VERDICT, verdicts.values())) <= _ALL_CLEAN


@dataclass
class _Message:
    """What one message's fields turned into, keyed by surface path."""

    method: str
    tool: str | None
    request_id: str | None
    untrusted: bool
    withheld: dict[str, str] = field(default_factory=dict)  # content hash -> quarantine id
    reentry_possible: bool | None = None  # whether any payload is withheld; asked once per message
    # The plain line the message came in (see FieldCleaner), and the anchor words of withheld
    # windows in it (None: unknown), read once the message is judged and again after this message
    # withheld something.
    line: bytes | None = None
    line_anchors: set[str] | None = None
    line_read: bool = False


EARLIER_CACHE = 4096
"""Withheld payloads whose earlier row a cleaner remembers (it forgets them all past this many)."""


class FieldCleaner:
    """The cleaner a Mediator calls: `(method, tool, request_id, payload, untrusted, plain, line) -> payload | None`."""

    def __init__(
        self,
        store: "StoreAPI",
        policy: Policy,
        server: str,
        session: str,
        exposure: Exposure | None = None,
        index: FingerprintIndex | None = None,
    ) -> None:
        self.store = store
        self.policy = policy
        self.server = server
        self.session = session
        self.exposure = exposure or Exposure(store, session)
        self.index = index or FingerprintIndex(store)
        # The scan rules under this policy, by (untrusted, written for the model).
        self._rules = {
            (trust, for_model): ScanRules(
                untrusted=trust,
                allow_hosts=policy.allow_hosts,
                threshold=policy.threshold,
                for_the_model=for_model,
            )
            for trust in (False, True)
            for for_model in (False, True)
        }
        self._labelled = policy.labels(server)
        self._nonce: str | None = None
        # (content hash, tool) -> (the store's data_version then, the earlier withheld row or None):
        # a payload read again is judged without asking the store while nothing has changed there.
        self._earlier_seen: dict[tuple, tuple[int, dict | None]] = {}
        self.judged_clean = False
        """Whether the judge found every field of the last message, text for the model, clean
        (whatever the store then made of them: a field repeating a withheld payload is withheld)."""

    def __call__(
        self,
        method: str,
        tool: str | None,
        request_id: str | None,
        payload: dict,
        untrusted: bool,
        plain: bool = False,
        line: bytes | None = None,
    ):
        rules = self._rules[untrusted, method in MODEL_TEXT_METHODS]
        if rules.for_the_model:
            rules = replace(rules, own_tools=own_names(payload))
        if not untrusted and plain:
            # Trusted rules strip only invisible characters, and a plain ASCII line without \u escapes
            # has none: only a withheld payload coming back is left to look for, if any is withheld.
            # (DeferredCleaner gives these two answers too, before it has loaded this module.)
            if not self.index.active():
                return None
            anchors = None if line is None else self.index.anchors_in_line(line)
            if anchors is not None and not anchors:
                return None
            message = _Message(
                method,
                tool,
                request_id,
                untrusted,
                reentry_possible=True,
                line=line,
                line_anchors=anchors,
                line_read=line is not None,
            )

            def verdict_of(text: str, path: str, seen: ReadInMessage) -> FieldVerdict:
                return FieldVerdict(Verdict.CLEAN, 0.0, original=text, cleaned=text)

            verdicts = judge_message(payload, verdict_of, rules)
        else:
            message = None
            # Every field is judged, and the message read as one document, before any is
            # replaced: a part of a split instruction is withheld with the field that completes it.
            verdicts = judge_payload(payload, rules)
        # Asked of text for the model only (see `deferred`): other messages spare the walk.
        self.judged_clean = rules.for_the_model and _all_clean(verdicts)
        if message is None:
            reentry_possible = self.index.active()
            line_read = reentry_possible and line is not None
            anchors = self.index.anchors_in_line(line) if line_read and line is not None else None
        else:
            reentry_possible, line_read, anchors = True, message.line_read, message.line_anchors
        # No field can repeat a withheld payload when none is withheld, or when the plain line holds
        # no anchor word of any withheld window (see _may_repeat).
        ruled_out = not reentry_possible or (line_read and anchors is not None and not anchors)
        if ruled_out and _all_clean(verdicts):
            cleaned = None  # nothing to replace and nothing withheld to look for: no second walk
        else:
            if message is None:
                message = _Message(
                    method,
                    tool,
                    request_id,
                    untrusted,
                    reentry_possible=reentry_possible,
                    line=line,
                    line_anchors=anchors,
                    line_read=line_read,
                )
            judged = message
            cleaned = walk_surfaces(
                payload, lambda path, text: self._field(judged, path, text, verdicts[path])
            ).payload

        if untrusted and self._labelled:
            labelled = label_payload(
                method, cleaned or payload, self._label_nonce(), self._source(tool, method)
            )
            cleaned = labelled or cleaned
        return cleaned

    # -- one field ------------------------------------------------------------------------

    def _field(self, message: _Message, path: str, text: str, verdict: FieldVerdict) -> str | None:
        if message.reentry_possible is None:
            message.reentry_possible = self.index.active()
        if (
            verdict.verdict != Verdict.WITHHELD
            and message.reentry_possible
            and self._may_repeat(message, path, verdict, text)
        ):
            matches = self.index.matches(verdict.cleaned or text)
            if matches:
                matches = self._repeated_instructions(verdict, text, matches)
            # The database has the last word: the payload may have been released meanwhile.
            original = self.store.quarantine.withheld_by_fingerprint(matches) if matches else None
            if original is not None:
                return self._withhold(message, path, text, self._reentry(verdict, original))
        if verdict.verdict == Verdict.CLEAN:
            return None
        if verdict.verdict == Verdict.SANITIZED:
            self._log_removals(message, path, verdict)
            # One concatenation: a large field is copied once, not twice.
            return f"{verdict.cleaned}\n{removal_notice(verdict.removed)}"
        return self._withhold(message, path, text, verdict)

    def _may_repeat(self, message: _Message, path: str, verdict: FieldVerdict, text: str) -> bool:
        """Whether the field may hold a window of a withheld payload.

        A clean field of a plain line is one of the line's strings, so its words are among the
        line's, and a window it repeats holds an anchor word the line holds: a field without any of
        those is ruled out by a substring test (not the text a base64 payload spells, whose words
        the line does not show). (A sanitized field is not ruled out: a removal can
        join two words into a new one.) The line is read once per message, before the fields:
        a line without any anchor word rules out the whole message at once.
        """
        if len(text) < _SHORTEST_WINDOW:
            return False  # fewer characters than MIN_WORDS one-letter words and their gaps
        if verdict.verdict != Verdict.CLEAN or message.line is None or path.endswith(BASE64_MARK):
            return True
        if not message.line_read:
            # This message withheld a field since: its windows are anchors now.
            message.line_anchors, message.line_read = self.index.anchors_in_line(message.line), True
        if message.line_anchors is None:
            return True
        if not message.line_anchors:
            return False
        lowered = text.lower()
        return any(word in lowered for word in message.line_anchors)

    def _repeated_instructions(
        self, verdict: FieldVerdict, text: str, matches: list[int]
    ) -> list[int]:
        """Those of `matches` that lie in an instruction-shaped sentence of this field itself.

        A re-entry withholds what repeats a payload's instructions, not a field that merely shares
        words with one (a header, an address): the field's own sentences must read as instructions
        to the detector, at any score, where the repeated words are.
        """
        passages = verdict.passages or read_passages(
            [verdict.cleaned or text, *(d.text for d in verdict.decoded)]
        )
        own = {window.fingerprint for window in payload_fingerprints(passages)}
        return [fingerprint for fingerprint in matches if fingerprint in own]

    def _reentry(self, verdict: FieldVerdict, original: dict) -> FieldVerdict:
        """A field carrying a sentence of a still-withheld payload is withheld too, whatever it scores."""
        source = f"{original['server']}/{original['tool'] or '?'}"
        weight = max(verdict.score, withhold_at(self.policy.threshold))
        signal = Signal(
            REENTRY, weight, f"repeats withheld field {original['id']} from {source}", 0, 0
        )
        return FieldVerdict(
            Verdict.WITHHELD,
            weight,
            [signal, *verdict.signals],
            verdict.removed,
            verdict.decoded,
            verdict.original,
            verdict.cleaned,
            verdict.passages,
        )

    def _earlier(self, content_hash: str, tool: str | None) -> dict | None:
        """The earlier withheld row for this content (a person may have released it since)."""
        version = self.store.data_version()
        seen = self._earlier_seen.get((content_hash, tool))
        if seen is not None and seen[0] == version:
            return seen[1]
        row = self.store.quarantine.earlier(content_hash, self.server, tool)
        self._remember_earlier(content_hash, tool, row, version)
        return row

    def _remember_earlier(
        self, content_hash: str, tool: str | None, row: dict | None, version: int | None = None
    ) -> None:
        if len(self._earlier_seen) >= EARLIER_CACHE:
            self._earlier_seen.clear()
        self._earlier_seen[(content_hash, tool)] = (
            self.store.data_version() if version is None else version,
            row,
        )

    def _withhold(self, message: _Message, path: str, text: str, verdict: FieldVerdict) -> str:
        content_hash = sha256_hex(text)
        qid = message.withheld.get(content_hash)
        if qid is None:
            earlier = self._earlier(content_hash, message.tool)
            if earlier and earlier["status"] == FieldStatus.RELEASED:
                # Released by a person: the agent reads what they released, still tainting. The
                # visible text is this verdict's cleaned text, as the withheld row stored it.
                self._expose(message, f"released field {earlier['id']}")
                return text if earlier["released_as"] == ReleasedAs.ORIGINAL else verdict.cleaned
            if earlier:
                qid = earlier["id"]
            else:
                # The scan's own readings; a trusted field that repeats a payload was never scored.
                passages = verdict.passages or read_passages(
                    [verdict.cleaned, *(d.text for d in verdict.decoded)]
                )
                fingerprints = payload_fingerprints(passages)
                qid = self.store.quarantine.withhold(
                    session=self.session,
                    server=self.server,
                    tool=message.tool,
                    method=message.method,
                    request_id=message.request_id,
                    path=path,
                    content_hash=content_hash,
                    fingerprint=sha256_hex(verdict.cleaned),
                    payload_fingerprints=fingerprints,
                    original=text,
                    cleaned=verdict.cleaned,
                    score=verdict.score,
                    signals=[
                        {**signal_json(s), "start": s.start, "end": s.end} for s in verdict.signals
                    ],
                    decoded=[{"kind": d.kind, "text": d.text} for d in verdict.decoded],
                    removed=[{"kind": r.kind, "count": r.count} for r in verdict.removed],
                    stripped=self._removal_rows(message, path, verdict),
                )
                self.index.add(fingerprints)
                self._remember_earlier(
                    content_hash, message.tool, {"id": qid, "status": "withheld"}
                )
                # Later fields of this message may repeat it, and the line may hold its anchors.
                message.reentry_possible, message.line_read = True, False
            message.withheld[content_hash] = qid
            self._expose(message, f"withheld field {qid}")
        return withheld_notice(qid, self.server, message.tool, verdict.signal_names)

    # -- records --------------------------------------------------------------------------

    def _log_removals(self, message: _Message, path: str, verdict: FieldVerdict) -> None:
        self.store.quarantine.record_stripped(self._removal_rows(message, path, verdict))

    def _removal_rows(self, message: _Message, path: str, verdict: FieldVerdict) -> list[dict]:
        return [
            {
                "session": self.session,
                "server": self.server,
                "tool": message.tool,
                "method": message.method,
                "request_id": message.request_id,
                "path": path,
                "kind": removal.kind,
                "count": removal.count,
                "decoded": removal.decoded or None,
            }
            for removal in verdict.removed
        ]

    def _expose(self, message: _Message, what: str) -> None:
        # Reading a payload that was withheld (or a person released) taints, whatever the server's
        # trust and whatever the method: an untrusted tools/call result already did, and then this
        # finds the taint recorded.
        self.exposure.record(
            server=self.server,
            tool=message.tool,
            method=message.method,
            reason=f"{self._source(message.tool, message.method)} carried {what}",
            request_id=message.request_id,
        )

    def _source(self, tool: str | None, method: str) -> str:
        return f"{self.server}/{tool or method}"

    def _label_nonce(self) -> str:
        if self._nonce is None:
            self._nonce = self.store.sessions.label_nonce(self.session)
        return self._nonce
