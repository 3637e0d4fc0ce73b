"""Do the state tables and the audit log tell the same story? (`lazaretto log --verify`)

Every decision changes a state table and appends its audit row in one transaction. So a cleared
taint event without its untaint row, an approved call without its approve row, a released field
without its release row, an accepted pin without its accept row (and the other way round: a row
whose state is not there) was written by something other than the store's own code: in embedded
mode, any process of the user with SQLite. Each finding is one line naming what does not fit.
"""

import json
from collections import Counter
from datetime import timedelta
from typing import TYPE_CHECKING

from .clock import parse_stamp
from .states import Action, CallStatus, DirectoryStatus, DriftStatus, FieldStatus

if TYPE_CHECKING:
    from .store import Store

_SAME_MOMENT = timedelta(seconds=1)
"""A state row and its audit row take their times from two clock reads a moment apart."""


def cross_check(store: "Store") -> list[str]:
    """What the state tables and the audit log disagree on, one line each (empty when they agree)."""
    audit = store.query(
        "SELECT id, at, actor, action, session, subject, detail FROM audit ORDER BY id"
    )
    by_action: dict[str, list[dict]] = {}
    for row in audit:
        by_action.setdefault(row["action"], []).append(row)
    return [
        *_taint(store, by_action),
        *_calls(store, by_action),
        *_fields(store, by_action),
        *_drifts(store, by_action),
        *_directories(store, by_action),
    ]


def _subjects(by_action: dict[str, list[dict]], action: Action, prefix: str = "") -> Counter:
    return Counter(
        row["subject"][len(prefix) :]
        for row in by_action.get(action, [])
        if row["subject"] and row["subject"].startswith(prefix)
    )


def _taint(store: "Store", by_action: dict[str, list[dict]]) -> list[str]:
    found = []
    events = store.query("SELECT session, at, cleared_at, cleared_by FROM taint_events")
    cleared = Counter(
        (e["session"], e["cleared_at"], e["cleared_by"]) for e in events if e["cleared_at"]
    )
    untaints = [
        {**row, "events": (json.loads(row["detail"]) if row["detail"] else {}).get("events")}
        for row in by_action.get(Action.UNTAINT, [])
    ]
    matched: set[int] = set()
    for (session, at, actor), count in sorted(cleared.items()):
        moment = parse_stamp(at)
        logged = next(
            (
                row
                for row in untaints
                if row["id"] not in matched
                and row["session"] == session
                and row["actor"] == actor
                and abs(parse_stamp(row["at"]) - moment) <= _SAME_MOMENT
            ),
            None,
        )
        if logged is None:
            found.append(
                f"taint of session {session} cleared at {at} by {actor} ({count} event(s)) has no "
                "untaint row in the audit log"
            )
            continue
        matched.add(logged["id"])
        if logged["events"] != count:
            found.append(
                f"audit row {logged['id']} cleared {logged['events']} taint event(s) of session "
                f"{session}; the taint table has {count} cleared then"
            )
    for row in untaints:
        if row["id"] not in matched:
            found.append(
                f"audit row {row['id']} untainted session {row['session']} at {row['at']}, but no "
                "taint event of it is cleared then"
            )
    times: dict[str, list] = {}
    for event in events:
        times.setdefault(event["session"], []).append(parse_stamp(event["at"]))
    for row in by_action.get(Action.TAINT, []):
        at = parse_stamp(row["at"])
        if not any(abs(at - moment) <= _SAME_MOMENT for moment in times.get(row["session"], [])):
            found.append(
                f"audit row {row['id']} tainted session {row['session']} at {row['at']}, but that "
                "taint event is missing from the taint table"
            )
    return found


def _calls(store: "Store", by_action: dict[str, list[dict]]) -> list[str]:
    found = []
    calls = {
        str(row["id"]): row
        for row in store.query("SELECT id, status, reviewed_at FROM blocked_calls")
    }
    refused = _subjects(by_action, Action.REFUSE, "blocked:")
    approved = _subjects(by_action, Action.APPROVE, "blocked:")
    used = _subjects(by_action, Action.USE_APPROVAL, "blocked:")
    dismissed = _subjects(by_action, Action.DISMISS, "blocked:")
    for call_id in sorted(refused.keys() - calls.keys(), key=int):
        found.append(f"blocked call {call_id} was refused (audited) but is missing from its table")
    for call_id, call in sorted(calls.items(), key=lambda item: int(item[0])):
        status = call["status"]
        if call_id not in refused:
            found.append(f"blocked call {call_id} has no refuse row in the audit log")
        if status in (CallStatus.APPROVED, CallStatus.USED) and call_id not in approved:
            found.append(f"blocked call {call_id} is {status} without an approve row")
        if status == CallStatus.USED and call_id not in used:
            found.append(f"blocked call {call_id} is used without a use-approval row")
        if status == CallStatus.PENDING and call_id in approved:
            found.append(f"blocked call {call_id} was approved (audited) but is pending again")
        if call["reviewed_at"] and call_id not in dismissed:
            found.append(f"blocked call {call_id} is marked reviewed without a dismiss row")
    return found


def _fields(store: "Store", by_action: dict[str, list[dict]]) -> list[str]:
    found = []
    fields = {
        row["id"]: row
        for row in store.query("SELECT id, status, released_as, reviewed_at FROM quarantine")
    }
    withheld = _subjects(by_action, Action.WITHHOLD)
    released = _subjects(by_action, Action.RELEASE)
    dismissed = _subjects(by_action, Action.DISMISS)
    # What each release row says was released (rows from before the choice say nothing).
    released_as = {
        row["subject"]: (json.loads(row["detail"]) if row["detail"] else {}).get("released_as")
        for row in by_action.get(Action.RELEASE, [])
    }
    for qid in sorted(withheld.keys() - fields.keys()):
        found.append(f"withheld field {qid} was withheld (audited) but is missing from its table")
    for qid, field in sorted(fields.items()):
        if qid not in withheld:
            found.append(f"withheld field {qid} has no withhold row in the audit log")
        if field["status"] == FieldStatus.RELEASED and qid not in released:
            found.append(f"withheld field {qid} is released without a release row")
        said = released_as.get(qid)
        if said is not None and said != field["released_as"]:
            found.append(
                f"withheld field {qid} is released as {field['released_as']}, but its release row "
                f"says {said}"
            )
        if field["status"] == FieldStatus.WITHHELD and qid in released:
            found.append(f"withheld field {qid} was released (audited) but is withheld again")
        if field["reviewed_at"] and qid not in dismissed:
            found.append(f"withheld field {qid} is marked reviewed without a dismiss row")
    return found


def _drifts(store: "Store", by_action: dict[str, list[dict]]) -> list[str]:
    found = []
    drifts = {
        str(row["id"]): row
        for row in store.query(
            "SELECT id, server, command, kind, name, status, new_sha256 FROM pin_drift"
        )
    }
    recorded = _subjects(by_action, Action.PIN_DRIFT, "drift:")
    decided = {
        DriftStatus.ACCEPTED: _subjects(by_action, Action.ACCEPT_DRIFT, "drift:"),
        DriftStatus.REJECTED: _subjects(by_action, Action.REJECT_DRIFT, "drift:"),
    }
    for drift_id in sorted(recorded.keys() - drifts.keys(), key=int):
        found.append(f"pin drift {drift_id} was recorded (audited) but is missing from its table")
    for drift_id, drift in sorted(drifts.items(), key=lambda item: int(item[0])):
        status = drift["status"]
        if status in decided and drift_id not in decided[status]:
            found.append(f"pin drift {drift_id} is {status} without its audit row")
        if status == DriftStatus.PENDING and any(drift_id in rows for rows in decided.values()):
            found.append(f"pin drift {drift_id} was decided (audited) but is pending again")
    # What is pinned for an entry a person accepted a drift of must be what they accepted.
    newest: dict[tuple, dict] = {}
    for _, drift in sorted(drifts.items(), key=lambda item: int(item[0])):
        if drift["status"] == DriftStatus.ACCEPTED:
            newest[(drift["server"], drift["command"], drift["kind"], drift["name"])] = drift
    for key, drift in newest.items():
        rows = store.query(
            "SELECT sha256 FROM pins WHERE server = ? AND command = ? AND kind = ? AND name = ?",
            key,
        )
        pinned = rows[0]["sha256"] if rows else None
        if pinned != drift["new_sha256"]:
            found.append(
                f"the pin of {key[0]} {key[2]} {key[3]} is not the version accepted in pin drift "
                f"{drift['id']}"
            )
    return found


def _directories(store: "Store", by_action: dict[str, list[dict]]) -> list[str]:
    found = []
    trusted = _subjects(by_action, Action.TRUST)
    for row in store.query("SELECT path, status FROM directories"):
        if row["status"] == DirectoryStatus.TRUSTED and row["path"] not in trusted:
            found.append(f"directory {row['path']} is trusted without a trust row")
    return found
