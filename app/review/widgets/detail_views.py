"""What the detail pane says about each kind of queue row: the item itself, and why it is there."""

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath

from textual.content import Content

from lazaretto.app.human import visible
from lazaretto.proxy.detect import SignalFlood, detect
from lazaretto.store.claims import claim_note
from lazaretto.store.sessions import session_label
from lazaretto.store.states import (
    Actor,
    CallStatus,
    DriftChange,
    DriftStatus,
    FieldStatus,
    SessionState,
)

from ..details import Detail
from ..moments import Moments
from ..queue import ListedState, entry_label
from .field_view import EXCERPT_STYLE, highlighted_json, revealed
from .pin_diff import ADDED_STYLE, REMOVED_STYLE, surface_text, word_diff

StateStyles = Mapping[str, str]
"""The colour of each state a kind of row can be in, shared by its list rows and detail header."""

WAITING_STYLE = "bold $text-error"
CLEARED_STYLE = "$text-success"
SETTLED_STYLE = "$text-muted"

FIELD_STYLES: StateStyles = {
    FieldStatus.WITHHELD: "bold $text-warning",
    FieldStatus.RELEASED: CLEARED_STYLE,
    ListedState.REVIEWED: SETTLED_STYLE,
}
REMOVAL_STYLES: StateStyles = {
    **FIELD_STYLES,
    ListedState.STRIPPED: "$text-secondary",
}
"""A removal is styled as the field it was withheld with, or as stripped when the result went through."""
CALL_STYLES: StateStyles = {
    CallStatus.PENDING: WAITING_STYLE,
    CallStatus.APPROVED: CLEARED_STYLE,
    CallStatus.USED: SETTLED_STYLE,
    CallStatus.EXPIRED: SETTLED_STYLE,
    CallStatus.LAPSED: SETTLED_STYLE,
    ListedState.REVIEWED: SETTLED_STYLE,
}
SESSION_STYLES: StateStyles = {
    SessionState.TAINTED: WAITING_STYLE,
    SessionState.CLEAN: CLEARED_STYLE,
    SessionState.ENDED: SETTLED_STYLE,
}
DRIFT_STYLES: StateStyles = {
    DriftStatus.PENDING: WAITING_STYLE,
    DriftStatus.ACCEPTED: CLEARED_STYLE,
    DriftStatus.REJECTED: SETTLED_STYLE,
}
AUDIT_STYLES: StateStyles = {
    Actor.HUMAN: "bold $text-accent",
    Actor.PROXY: SETTLED_STYLE,
    Actor.HOOK: SETTLED_STYLE,
    Actor.IDLE_EXPIRY: SETTLED_STYLE,
}
"""An audit row is styled by who acted: a person's decisions stand out from the automatic ones."""

HEADING_STYLE = "bold $text-accent"

FULL_CHARS = 200_000
"""Even "in full" stops somewhere: a multi-megabyte field would stall the terminal, and the store keeps it all."""


@dataclass(frozen=True)
class DetailView:
    """The detail pane's content: a header, the item itself (left), and the reasons (right)."""

    title: Content
    body_title: str
    body: Content
    side_title: str
    side: Content


def withheld_in_full(detail: Detail) -> Content | None:
    """A withheld field for `enter`, without the preview's cut."""
    row = detail.record
    return revealed(
        row["original"],
        excerpts=[s.get("excerpt") or "" for s in row["signals"]],
        limit=FULL_CHARS,
    )


def removal_in_full(detail: Detail) -> Content | None:
    """Removed hidden content for `enter`, decoded, without the preview's cut (None: nothing readable)."""
    decoded = detail.record["decoded"]
    return revealed(decoded, limit=FULL_CHARS) if decoded else None


def state_badge(state: str, styles: StateStyles) -> Content:
    """`● withheld` in the state's colour."""
    return Content.styled(f"● {state}", styles.get(state, ""))


def _heading(text: str) -> Content:
    return Content.styled(text, HEADING_STYLE)


def _lines(*parts: Content | str) -> Content:
    return Content("\n").join(parts)


def _provenance(detail: Detail, times: Moments) -> tuple[Content | str, ...]:
    """Why the source counted as untrusted, and which read tainted the session: shared by field views."""
    return (
        _heading("Policy"),
        _policy(detail, "untrusted"),
        "",
        _heading("Taint chain"),
        _chain(detail, times),
    )


def _header(kind: str, key: str, state: Content, *rest: str) -> Content:
    return Content.assemble(
        (f"{kind} {visible(key)}", "bold"),
        "  ",
        state,
        *(f"  {visible(part)}" for part in rest if part),
    )


def _chain(detail: Detail, times: Moments) -> Content:
    """Which reads tainted the item's session and when, oldest first; cleared ones marked."""
    if not detail.taint:
        return Content.styled("no untrusted read recorded for this session", "$text-muted")
    lines = []
    open_events = [event for event in detail.taint if event["cleared_at"] is None]
    for event in detail.taint:
        source = f"{visible(event['server'])}/{visible(event['tool'] or event['method'] or '?')}"
        mark = ("✓ cleared", "$text-muted") if event["cleared_at"] else ("● open", "$text-error")
        first = " (tainted the session)" if open_events and event is open_events[0] else ""
        lines.append(
            Content.assemble(
                mark,
                f"  {source}  {times.at(event['at'])}{first}\n"
                f"    {visible(times.in_text(event['reason']))}",
            )
        )
    return _lines(*lines)


def _policy(detail: Detail, aspect: str) -> Content:
    """How the proxy classified the item's tool: `untrusted` (its results) or `outbound` (its calls)."""
    tool = detail.tool
    name = f"{visible(detail.record['server'])}/{visible(detail.record.get('tool') or '?')}"
    if tool is None or aspect not in tool:
        return Content(f"{name}: no classification recorded; an unknown tool counts as {aspect}")
    verdict = aspect if tool[aspect] else f"not {aspect}"
    line = (
        f"{name} counts as {verdict}: {visible(tool[f'{aspect}_reason'] or 'no reason recorded')}"
    )
    if tool.get("from_policy"):
        return Content.assemble(
            line,
            (
                "\n(read from the policy: no proxy has recorded a classification of it)",
                "$text-muted",
            ),
        )
    return Content(line)


def withheld_view(detail: Detail, times: Moments) -> DetailView:
    """A withheld field as received, beside its decoded payloads, signals and provenance."""
    row = detail.record
    state = detail.item.state
    title = _header(
        "withheld",
        row["id"],
        state_badge(state, FIELD_STYLES),
        f"{row['server']}/{row['tool'] or row['method']}",
        row["path"],
        times.at(row["created_at"]),
    )
    signals = row["signals"]
    body = revealed(row["original"], excerpts=[s.get("excerpt") or "" for s in signals])
    payloads = [
        Content.assemble(
            (f"{visible(p.get('kind', '?'))}: ", "bold"), revealed(p.get("text", ""), limit=1000)
        )
        for p in row["decoded"]
    ] or [Content.styled("none decoded", "$text-muted")]
    removed = (
        ", ".join(f"{visible(r.get('kind', '?'))} ×{r.get('count', 1)}" for r in row["removed"])
        or "nothing"
    )
    signal_lines = [
        Content.assemble(
            (f"{s.get('weight', 0):>5.2f}  ", "$text-warning"),
            (visible(s.get("name", "?")), "bold"),
            ("\n       “", ""),
            (visible(s.get("excerpt") or ""), EXCERPT_STYLE),
            "”",
        )
        if s.get("excerpt")
        else Content.assemble(
            (f"{s.get('weight', 0):>5.2f}  ", "$text-warning"),
            (visible(s.get("name", "?")), "bold"),
        )
        for s in signals
    ] or [Content.styled("no detector signal: withheld for its hidden content", "$text-muted")]
    decided = []
    if row["decided_at"]:
        what = f" ({row['released_as']} text)" if row.get("released_as") else ""
        decided.append(f"{state}{what} by a person {times.at(row['decided_at'])}")
    if row["reviewed_at"]:
        decided.append(f"reviewed {times.at(row['reviewed_at'])}; kept withheld")
    side = _lines(
        _heading(f"Why withheld (score {row['score']:.2f})"),
        *signal_lines,
        f"hidden content removed: {removed}",
        *decided,
        "",
        _heading("Hidden payloads, decoded"),
        *payloads,
        "",
        *_provenance(detail, times),
    )
    return DetailView(title, "As received", body, "Why", side)


def removal_view(detail: Detail, times: Moments) -> DetailView:
    """Hidden content removed from a result, decoded, and what became of the field."""
    row = detail.record
    title = _header(
        "removal",
        str(row["id"]),
        state_badge(detail.item.state, REMOVAL_STYLES),
        f"{row['server']}/{row['tool'] or row['method']}",
        row["path"],
        times.at(row["created_at"]),
    )
    body = (
        revealed(row["decoded"])
        if row["decoded"]
        else Content.styled(
            "nothing readable: the removed characters carried no text", "$text-muted"
        )
    )
    fate = (
        f"The field was withheld as {row['quarantine_id']} (see the Withheld tab); "
        f"{_field_now(row, times)}."
        if row["quarantine_id"]
        else "The rest of the result went through to the agent without it."
    )
    side = _lines(
        _heading("What was removed"),
        f"{visible(row['kind'])} ×{row['count']} from {visible(row['path'])}",
        fate,
        "",
        *_provenance(detail, times),
    )
    return DetailView(title, "Hidden content, decoded", body, "Why", side)


def _field_now(row: dict, times: Moments) -> str:
    """What became of the field a removal was withheld with, as of now."""
    if row.get("field_status") == FieldStatus.RELEASED:
        return f"a person released its {row['field_released_as']} text"
    if row.get("field_reviewed_at"):
        return f"a person reviewed it {times.at(row['field_reviewed_at'])} and kept it withheld"
    return "it is still withheld" if row.get("field_status") else "its row is gone"


def call_view(detail: Detail, times: Moments) -> DetailView:
    """A refused call's exact arguments beside why it was refused."""
    row = detail.record
    expiry = times.until(row["expires_at"]) if row["expires_at"] else ""
    title = _header(
        "blocked call",
        str(row["id"]),
        state_badge(detail.item.state, CALL_STYLES),
        f"{row['server']}/{row['tool']}",
        times.at(row["created_at"]),
        f"token {row['token_hint']}",
        f"expires {expiry}" if expiry else "",
    )
    body = call_arguments(row)
    hosts = ", ".join(visible(host) for host in row["hosts"]) or "none named in the arguments"
    outbound = (
        Content(visible(row["outbound_reason"]))
        if row["outbound_reason"]
        else _policy(detail, "outbound")
    )
    note = claim_note(row)
    side = _lines(
        *((Content.styled(f"A client's claim: {note}", "$text-warning"), "") if note else ()),
        _heading("Why refused"),
        Content.assemble(
            (f"[{visible(row['reason_code'] or 'refused')}] ", "$text-error"),
            visible(times.in_text(row["reason"] or "")),
        ),
        "",
        _heading("Hosts in the arguments"),
        hosts,
        "",
        _heading("Why the tool counts as outbound"),
        outbound,
        "",
        _heading("Taint"),
        visible(
            times.in_text(row["taint_reason"])
            if row["taint_reason"]
            else "the session was not tainted when the call was refused"
        ),
        _chain(detail, times),
    )
    return DetailView(title, "Call", body, "Why", side)


def call_arguments(row: dict) -> Content:
    """A refused call's server, tool and exact arguments, as the call view and its approval show them."""
    return _lines(
        Content.styled(f"{visible(row['server'])} → {visible(row['tool'])}", "bold"),
        highlighted_json(row["arguments"]),
    )


def open_taint(detail: Detail, times: Moments) -> Content:
    """Every read that still taints the item's session, oldest first: what an untaint clears."""
    lines = [
        Content.assemble(
            ("● ", "$text-error"),
            (
                f"{visible(event['server'])}/{visible(event['tool'] or event['method'] or '?')}",
                "bold",
            ),
            f"  {times.at(event['at'])}\n    {visible(times.in_text(event['reason']))}",
        )
        for event in detail.taint
        if event["cleared_at"] is None
    ]
    return _lines(*lines) if lines else Content.styled("no open taint", "$text-muted")


def session_view(detail: Detail, times: Moments) -> DetailView:
    """A session's taint chain beside the calls refused in it."""
    row = detail.record
    client = session_label(row)
    title = _header(
        "session",
        row["key"],
        state_badge(detail.item.state, SESSION_STYLES),
        client,
        _session_since(detail, times),
    )
    calls = [
        Content.assemble(
            state_badge(call["state"], CALL_STYLES),
            f"  #{call['id']} {visible(call['server'])}/{visible(call['tool'])}  {times.at(call['created_at'])}",
        )
        for call in detail.related
    ] or [Content.styled("no call refused in this session", "$text-muted")]
    side = _lines(_heading("Refused calls, newest first"), *calls)
    return DetailView(title, "Taint chain", _chain(detail, times), "Blocked calls", side)


def _session_since(detail: Detail, times: Moments) -> str:
    """Since when the session is in its state: the read that tainted it, the clearance, or its start."""
    open_events = [event for event in detail.taint if event["cleared_at"] is None]
    if open_events:
        return f"tainted {times.at(open_events[0]['at'])}"
    cleared = [event["cleared_at"] for event in detail.taint if event["cleared_at"]]
    if cleared:
        return f"cleared {times.at(max(cleared))}"
    return f"started {times.at(detail.record['created_at'])}, no untrusted read"


def audit_view(detail: Detail, times: Moments) -> DetailView:
    """One audit entry beside its links in the hash chain."""
    row = detail.record
    title = _header(
        "audit",
        str(row["id"]),
        state_badge(row["actor"], AUDIT_STYLES),
        row["action"],
        row["subject"] or "",
        times.at(row["at"]),
    )
    # Its time is in the header, in the style of every other time (`t` shows the UTC time).
    entry = {key: row[key] for key in ("actor", "action", "session", "subject", "reason", "detail")}
    side = _lines(
        _heading("Hash chain"),
        f"previous  {row['prev_hash'][:16]}…",
        f"this row  {row['hash'][:16]}…",
        Content.styled("`lazaretto log --verify` checks the whole chain", "$text-muted"),
    )
    return DetailView(title, "Entry", highlighted_json(entry), "Chain", side)


def _command_line(canonical: str) -> str:
    """The pinned server's command as a shell line, its program by name (the lock file has the full path)."""
    argv = json.loads(canonical)
    if not (isinstance(argv, list) and argv and all(isinstance(arg, str) for arg in argv)):
        return canonical
    return shlex.join([PurePath(argv[0]).name, *argv[1:]])


def drift_view(detail: Detail, times: Moments) -> DetailView:
    """A pin drift as a word diff beside the detector's reading of the new version."""
    row = detail.record
    label = entry_label(row["kind"], row["name"])
    title = _header(
        "pin drift",
        str(row["id"]),
        state_badge(detail.item.state, DRIFT_STYLES),
        row["server"],
        f"{label} {row['change']}",
        times.at(row["created_at"]),
    )
    old, new = surface_text(row["old_canonical"]), surface_text(row["new_canonical"])
    diff = word_diff(old, new)
    legend = Content.assemble(
        ("removed", REMOVED_STYLE),
        " from the pinned version, ",
        ("added", ADDED_STYLE),
        " in the new one",
        "" if old else "; nothing was pinned before",
        "" if new else "; the server no longer offers it",
    )
    body = _lines(legend, "", diff.content)
    try:
        found = detect(new) if new else None
    except SignalFlood as flood:
        found, flooded = None, [Content.styled(str(flood), "$text-warning")]
    else:
        flooded = []
    signals = (
        flooded
        or [
            Content.assemble(
                (f"{s.weight:>5.2f}  ", "$text-warning"),
                (visible(s.name), "bold"),
                ("\n       “", ""),
                (visible(s.excerpt), EXCERPT_STYLE),
                "”",
            )
            for s in (found.signals if found else [])
        ]
        or [Content.styled("no detector signal in the new version", "$text-muted")]
    )
    pinned = detail.related[0]["sha256"] if detail.related else None
    now_pinned = (
        "the new version is pinned"
        if pinned and pinned == row["new_sha256"]
        else "the pinned version is still the old one"
        if pinned
        else "nothing is pinned for it now"
    )
    decided = (
        [f"{detail.item.state} by a person {times.at(row['decided_at'])}"]
        if row["decided_at"]
        else []
    )
    accept = (
        "unpins it"
        if row["change"] == DriftChange.REMOVED
        else "pins the new version: the agent sees it and may call it"
    )
    side = _lines(
        _heading("What changed"),
        f"{visible(label)} {row['change']} on {visible(row['server'])}",
        f"command {visible(_command_line(row['command']))}",
        f"sha256 {(row['old_sha256'] or 'none')[:12]} → {(row['new_sha256'] or 'none')[:12]}",
        f"+{diff.added} words, −{diff.removed} words",
        "",
        _heading(f"Detector on the new version (score {found.score:.2f})" if found else "Detector"),
        *signals,
        "",
        _heading("Your decision"),
        f"p (accept) {accept}.",
        "x (reject) keeps it hidden from the agent; calls to it are refused (-32003).",
        *decided,
        now_pinned,
    )
    return DetailView(title, "Pinned → new, word by word", body, "Why", side)
