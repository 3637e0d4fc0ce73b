"""The store API: every read and decision the app, CLI, proxy and hooks make, and who may make it.

Embedded mode calls these methods on `Store`'s repositories in process; a station serves the same
methods over its socket (`lazaretto.store.station`), by the names listed here. A method that is not
listed does not exist for a client: the station refuses it. Each entry says what a caller must prove:

- `RECORD`: add a record (exposure, a withheld field, a refusal, a pin, a classification). No proof.
- `VERDICT`: ask (is this session tainted, this call approved, this field released) or list. No
  proof; withheld content (originals, decoded payloads, matched excerpts, drifted surfaces) is
  left out of the answer unless the connection was unlocked with the reviewer passphrase.
- `DECISION`: a person's decision. A one-time code from the reviewer's authenticator app travels
  with the request, for the decision its connection began (`station.begin`), and is used up.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from typing import Any

from .audit import AuditLog, Verification
from .blocked import BlockedCalls
from .decisions import Decisions
from .directories import Directories
from .pins import Pins
from .proxies import RunningProxies
from .quarantine import Quarantine
from .review import Review
from .sessions import Sessions, TaintState
from .tools import ToolClassifications

PROTOCOL_VERSION = 1
"""The station protocol's version: a station answers only requests of its own version."""


class Access(StrEnum):
    """What a caller must prove to use an operation."""

    RECORD = "record"
    VERDICT = "verdict"
    DECISION = "decision"


REDACTED = "[withheld content: unlock the review session with the reviewer passphrase to read it]"
"""What stands in for withheld content in an answer to a connection that was not unlocked."""


_TEXT_KEYS = ("original", "cleaned")

# Path steps that only name where in an MCP message a field sits (protocol keys and indices).
# Any other step is an object key a server chose, and a withheld key is withheld content: in a
# path it reads as "[key]" (its own record's path, and every path beneath it, spells it).
_PROTOCOL_STEPS = frozenset(
    "content text structuredContent resource resources contents tools prompts resourceTemplates"
    " description name title inputSchema outputSchema properties messages arguments uri"
    " uriTemplate mimeType blob data _meta annotations instructions items params result error"
    " message type default enum required role isError base64".split()
)
_PATH_STEP = re.compile(r"([/#@])")


def redact(value: Any) -> Any:
    """`value` with every piece of withheld content replaced, at any depth of dicts and lists.

    Withheld content is what the agent was kept from reading: a withheld field's original and
    cleaned text, the hidden payloads decoded from it (or from a removal), the excerpts the
    detector matched, and the new surface of a drifted pin.
    """
    if isinstance(value, list):
        return [redact(item) for item in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    hidden = False
    for key, item in value.items():
        if key in _TEXT_KEYS and isinstance(item, str):
            out[key] = REDACTED
        elif key == "decoded" and isinstance(item, list) and item:
            out[key] = [{**d, "text": REDACTED} if isinstance(d, dict) else REDACTED for d in item]
        elif key == "decoded" and isinstance(item, str):
            out[key] = REDACTED
        elif key == "signals" and isinstance(item, list) and item:
            out[key] = [{**s, "excerpt": ""} if isinstance(s, dict) else s for s in item]
        elif key == "signals" and isinstance(item, str):
            out[key] = _signal_names(item)
        elif key == "new_canonical" and item is not None:
            out[key] = None
        elif key == "path" and isinstance(item, str) and redact_path(item) != item:
            out[key] = redact_path(item)
        else:
            out[key] = redact(item)
            continue
        hidden = True
    if hidden:
        out["redacted"] = True
    return out


def redact_path(path: str) -> str:
    """A surface path with every object key a server chose shown as "[key]"."""
    parts = _PATH_STEP.split(path)
    out = []
    for index, part in enumerate(parts):
        keep = (
            index % 2 == 1  # a separator
            or not part
            or part.isdigit()
            or part in _PROTOCOL_STEPS
            or (index > 0 and parts[index - 1] == "@")  # the "key" of "…@key"
        )
        out.append(part if keep else "[key]")
    return "".join(out)


def _signal_names(text: str) -> str:
    """A stored signals column (JSON text) with the matched excerpts left out."""
    try:
        signals = json.loads(text)
    except ValueError:
        return "[]"
    if not isinstance(signals, list):
        return "[]"
    return json.dumps([{**s, "excerpt": ""} if isinstance(s, dict) else s for s in signals])


def _taint_state_to_wire(state: TaintState) -> dict:
    return {"tainted": state.tainted, "reasons": state.reasons}


def _taint_state_from_wire(value: dict) -> TaintState:
    return TaintState(bool(value["tainted"]), list(value["reasons"]))


def _verification_to_wire(result: Verification) -> dict:
    return {
        "ok": result.ok,
        "rows": result.rows,
        "first_bad_id": result.first_bad_id,
        "problem": result.problem,
        "findings": list(result.findings),
    }


def _verification_from_wire(value: dict) -> Verification:
    return Verification(
        value["ok"],
        value["rows"],
        value["first_bad_id"],
        value["problem"],
        tuple(value.get("findings", ())),
    )


def _baseline_to_wire(value: tuple[str, dict]) -> dict:
    how, entries = value
    return {"how": how, "entries": list(entries.values())}


def _baseline_from_wire(value: dict) -> tuple[str, dict]:
    return value["how"], {(row["kind"], row["name"]): row for row in value["entries"]}


def _seconds(value: timedelta) -> float:
    return value.total_seconds()


def _timedelta(value: float) -> timedelta:
    return timedelta(seconds=float(value))


def _identity(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Operation:
    """One method of the API as the station serves it."""

    access: Access
    content: bool = False
    """The answer may hold withheld content: hidden from a connection that was not unlocked."""
    unlocked: str | None = None
    """An argument the station fills with whether the connection was unlocked (a search that
    looks into withheld content would otherwise tell what it says)."""
    settings: tuple[str, ...] = ()
    """Arguments the station fills from its own settings, whatever the client sent."""
    caller_pid: str | None = None
    """An argument the station fills with the connected process's id, as the kernel reports it
    (a client may record only itself)."""
    to_wire: Callable[[Any], Any] = _identity
    from_wire: Callable[[Any], Any] = _identity
    arguments: tuple[tuple[str, Callable[[Any], Any], Callable[[Any], Any]], ...] = ()
    """(name, encode, decode) for arguments JSON cannot carry as they are."""


_R, _V, _D = Access.RECORD, Access.VERDICT, Access.DECISION

OPERATIONS: dict[str, Operation] = {
    # sessions and taint
    "sessions.ensure": Operation(_R),
    "sessions.label_nonce": Operation(_R),
    "sessions.taint": Operation(_R),
    "sessions.has_open_taint": Operation(_V),
    # The idle expiry clears taint: from a client it would be a clearance without proof.
    "sessions.state": Operation(
        _V,
        settings=("idle_expiry_minutes",),
        to_wire=_taint_state_to_wire,
        from_wire=_taint_state_from_wire,
    ),
    "sessions.all": Operation(_V),
    # running proxies: each records itself, and only itself
    "proxies.register": Operation(_R, caller_pid="pid"),
    "proxies.unregister": Operation(_R, caller_pid="pid"),
    "proxies.of_session": Operation(_V),
    # tool classifications
    "tools.record_many": Operation(_R),
    "tools.get": Operation(_V),
    # refused calls; the approval window is the station's too, or a client could stretch it
    "blocked.record": Operation(_R, settings=("ttl_minutes",)),
    "blocked.consume_approved": Operation(_R),
    "blocked.by_token": Operation(_V),
    "blocked.get": Operation(_V),
    "blocked.pending": Operation(_V),
    "blocked.recent": Operation(_V),
    # withheld fields and removals
    "quarantine.withhold": Operation(_R),
    "quarantine.record_stripped": Operation(_R),
    "quarantine.get": Operation(_V, content=True),
    "quarantine.waiting": Operation(_V),
    "quarantine.earlier": Operation(_V),
    # The anchor words of withheld windows are withheld content (see fingerprints_since).
    "quarantine.fingerprints_since": Operation(_V, unlocked="unlocked"),
    "quarantine.withheld_by_fingerprint": Operation(_V),
    "quarantine.recent": Operation(_V, content=True),
    "quarantine.stripped_for": Operation(_V, content=True),
    # pinned surfaces
    "pins.baseline": Operation(_V, to_wire=_baseline_to_wire, from_wire=_baseline_from_wire),
    "pins.pin": Operation(_R),
    "pins.drift": Operation(_R, content=True),
    "pins.get": Operation(_V, content=True),
    "pins.undecided": Operation(_V, content=True),
    "pins.pending": Operation(_V, content=True),
    "pins.waiting": Operation(_V),
    "pins.export": Operation(_V),
    # cloned directories
    "directories.mark_untrusted": Operation(_R),
    "directories.untrusted_for": Operation(_V),
    "directories.untrusted": Operation(_V),
    "directories.trust": Operation(_D),
    # the audit log
    "audit.rows": Operation(_V, content=True),
    "audit.verify": Operation(_V, to_wire=_verification_to_wire, from_wire=_verification_from_wire),
    # a person's decisions
    "decisions.approve": Operation(_D),
    "decisions.untaint": Operation(_D),
    "decisions.release": Operation(_D, content=True),
    "decisions.accept_drift": Operation(_D, content=True),
    "decisions.reject_drift": Operation(_D, content=True),
    "decisions.dismiss_field": Operation(_D),
    "decisions.dismiss_call": Operation(_D),
    "decisions.undismiss_field": Operation(_D),
    "decisions.undismiss_call": Operation(_D),
    "decisions.clearances": Operation(_V, arguments=(("within", _seconds, _timedelta),)),
    # what the review app lists and shows
    "review.page": Operation(_V, content=True, unlocked="unlocked"),
    "review.newest_blocked": Operation(_V),
    "review.blocked_since": Operation(_V),
    "review.newest_withheld": Operation(_V),
    "review.withheld_since": Operation(_V, content=True),
    "review.taint_chain": Operation(_V),
    "review.stripped": Operation(_V, content=True),
    "review.session": Operation(_V),
    "review.audit_row": Operation(_V, content=True),
    "review.pinned": Operation(_V),
    "review.stripped_count": Operation(_V),
}
"""Every store method a client may call, by `namespace.method`."""

NAMESPACES = tuple(dict.fromkeys(name.partition(".")[0] for name in OPERATIONS))
"""The repositories of `Store` that the API exposes."""

REPOSITORIES = {
    "sessions": Sessions,
    "tools": ToolClassifications,
    "blocked": BlockedCalls,
    "quarantine": Quarantine,
    "pins": Pins,
    "directories": Directories,
    "audit": AuditLog,
    "decisions": Decisions,
    "review": Review,
    "proxies": RunningProxies,
}
"""The repositories the store API is made of, by the name a station client calls them."""
