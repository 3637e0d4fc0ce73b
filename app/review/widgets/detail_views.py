"""What the detail pane says about each kind of queue row: the item itself, and why it is there."""

import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePath

from textual.content import Content

from lazaretto.app.human import ago, until, visible
from lazaretto.proxy.detect import detect
from lazaretto.store.clock import parse_stamp

from ..details import Detail
from ..queue import entry_label
from .field_view import EXCERPT_STYLE, highlighted_json, revealed
from .pin_diff import ADDED_STYLE, REMOVED_STYLE, surface_text, word_diff

STATE_STYLES = {
    "withheld": "bold $text-warning",
    "pending": "bold $text-error",
    "tainted": "bold $text-error",
    "released": "$text-success",
    "approved": "$text-success",
    "clean": "$text-success",
    "used": "$text-muted",
    "expired": "$text-muted",
    "reviewed": "$text-muted",
    "stripped": "$text-secondary",
    "human": "bold $text-accent",
    "accepted": "$text-success",
    "rejected": "$text-muted",
}
"""The colour of each row state, shared by the queue and the detail header."""

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


def describe(detail: Detail, now: datetime) -> DetailView:
    """The view of one loaded queue row, with ages relative to `now`."""
    return _VIEWS[detail.item.kind](detail, now)


def full_body(detail: Detail, view: DetailView) -> Content:
    """The item in full for `enter`: a withheld or removed text without the preview's cut."""
    row = detail.record
    if detail.item.kind == "withheld":
        return revealed(
            row["original"],
            excerpts=[s.get("excerpt") or "" for s in row["signals"]],
            limit=FULL_CHARS,
        )
    if detail.item.kind == "stripped" and row["decoded"]:
        return revealed(row["decoded"], limit=FULL_CHARS)
    return view.body


def state_badge(state: str) -> Content:
    """`● withheld` in the state's colour."""
    return Content.styled(f"● {state}", STATE_STYLES.get(state, ""))


def _age(now: datetime, at: str | None) -> str:
    return ago(now - parse_stamp(at)) if at else "unknown time"


def _heading(text: str) -> Content:
    return Content.styled(text, HEADING_STYLE)


def _lines(*parts: Content | str) -> Content:
    return Content("\n").join(parts)


def _provenance(detail: Detail, now: datetime) -> tuple[Content | str, ...]:
    """Why the source counted as untrusted, and which read tainted the session: shared by field views."""
    return (
        _heading("Policy"),
        _policy(detail, "untrusted"),
        "",
        _heading("Taint chain"),
        _chain(detail, now),
    )


def _header(kind: str, key: str, state: str, *rest: str) -> Content:
    return Content.assemble(
        (f"{kind} {visible(key)}", "bold"),
        "  ",
        state_badge(state),
        *(f"  {visible(part)}" for part in rest if part),
    )


def _chain(detail: Detail, now: datetime) -> Content:
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
                mark, f"  {source}  {_age(now, event['at'])}{first}\n    {visible(event['reason'])}"
            )
        )
    return _lines(*lines)


def _policy(detail: Detail, aspect: str) -> Content:
    """How the proxy classified the item's tool: `untrusted` (its results) or `outbound` (its calls)."""
    tool = detail.tool
    name = f"{visible(detail.record['server'])}/{visible(detail.record.get('tool') or '?')}"
    if tool is None:
        return Content(f"{name}: no classification recorded; an unknown tool counts as {aspect}")
    verdict = aspect if tool[aspect] else f"not {aspect}"
    return Content(
        f"{name} counts as {verdict}: {visible(tool[f'{aspect}_reason'] or 'no reason recorded')}"
    )


def _withheld(detail: Detail, now: datetime) -> DetailView:
    row = detail.record
    state = detail.item.state
    title = _header(
        "withheld",
        row["id"],
        state,
        f"{row['server']}/{row['tool'] or row['method']}",
        row["path"],
        _age(now, row["created_at"]),
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
        decided.append(f"{state} by a person {_age(now, row['decided_at'])}")
    if row["reviewed_at"]:
        decided.append(f"reviewed {_age(now, row['reviewed_at'])}; kept withheld")
    side = _lines(
        _heading("Hidden payloads, decoded"),
        *payloads,
        "",
        _heading(f"Why withheld (score {row['score']:.2f})"),
        *signal_lines,
        f"hidden content removed: {removed}",
        *decided,
        "",
        *_provenance(detail, now),
    )
    return DetailView(title, "As received", body, "Why", side)


def _stripped(detail: Detail, now: datetime) -> DetailView:
    row = detail.record
    title = _header(
        "removal",
        str(row["id"]),
        detail.item.state,
        f"{row['server']}/{row['tool'] or row['method']}",
        row["path"],
        _age(now, row["created_at"]),
    )
    body = (
        revealed(row["decoded"])
        if row["decoded"]
        else Content.styled(
            "nothing readable: the removed characters carried no text", "$text-muted"
        )
    )
    fate = (
        f"The field was withheld as {row['quarantine_id']} (see the Withheld tab)."
        if row["quarantine_id"]
        else "The rest of the result went through to the agent without it."
    )
    side = _lines(
        _heading("What was removed"),
        f"{visible(row['kind'])} ×{row['count']} from {visible(row['path'])}",
        fate,
        "",
        *_provenance(detail, now),
    )
    return DetailView(title, "Hidden content, decoded", body, "Why", side)


def _blocked(detail: Detail, now: datetime) -> DetailView:
    row = detail.record
    expiry = until(parse_stamp(row["expires_at"]) - now) if row["expires_at"] else ""
    title = _header(
        "blocked call",
        str(row["id"]),
        detail.item.state,
        f"{row['server']}/{row['tool']}",
        _age(now, row["created_at"]),
        f"token {row['token_hint']}",
        f"expires {expiry}" if expiry else "",
    )
    body = _lines(
        Content.styled(f"{visible(row['server'])} → {visible(row['tool'])}", "bold"),
        highlighted_json(row["arguments"]),
    )
    hosts = ", ".join(visible(host) for host in row["hosts"]) or "none named in the arguments"
    outbound = (
        Content(visible(row["outbound_reason"]))
        if row["outbound_reason"]
        else _policy(detail, "outbound")
    )
    side = _lines(
        _heading("Why refused"),
        Content.assemble(
            (f"[{visible(row['reason_code'] or 'refused')}] ", "$text-error"),
            visible(row["reason"] or ""),
        ),
        "",
        _heading("Hosts in the arguments"),
        hosts,
        "",
        _heading("Why the tool counts as outbound"),
        outbound,
        "",
        _heading("Taint"),
        visible(row["taint_reason"] or "the session was not tainted when the call was refused"),
        _chain(detail, now),
    )
    return DetailView(title, "Call", body, "Why", side)


def _session(detail: Detail, now: datetime) -> DetailView:
    row = detail.record
    client = " ".join(
        str(part)
        for part in (row.get("client_name"), row.get("client_pid") and f"pid {row['client_pid']}")
        if part
    )
    title = _header(
        "session", row["key"], detail.item.state, client, f"since {_age(now, row['created_at'])}"
    )
    calls = [
        Content.assemble(
            state_badge(call["status"]),
            f"  #{call['id']} {visible(call['server'])}/{visible(call['tool'])}  {_age(now, call['created_at'])}",
        )
        for call in detail.related
    ] or [Content.styled("no call refused in this session", "$text-muted")]
    side = _lines(_heading("Refused calls, newest first"), *calls)
    return DetailView(title, "Taint chain", _chain(detail, now), "Blocked calls", side)


def _audit(detail: Detail, now: datetime) -> DetailView:
    row = detail.record
    title = _header(
        "audit",
        str(row["id"]),
        row["actor"],
        row["action"],
        row["subject"] or "",
        _age(now, row["at"]),
    )
    entry = {
        key: row[key] for key in ("at", "actor", "action", "session", "subject", "reason", "detail")
    }
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


def _pin(detail: Detail, now: datetime) -> DetailView:
    row = detail.record
    label = entry_label(row["kind"], row["name"])
    title = _header(
        "pin drift",
        str(row["id"]),
        detail.item.state,
        row["server"],
        f"{label} {row['change']}",
        _age(now, row["created_at"]),
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
    found = detect(new) if new else None
    signals = [
        Content.assemble(
            (f"{s.weight:>5.2f}  ", "$text-warning"),
            (visible(s.name), "bold"),
            ("\n       “", ""),
            (visible(s.excerpt), EXCERPT_STYLE),
            "”",
        )
        for s in (found.signals if found else [])
    ] or [Content.styled("no detector signal in the new version", "$text-muted")]
    pinned = detail.related[0]["sha256"] if detail.related else None
    now_pinned = (
        "the new version is pinned"
        if pinned and pinned == row["new_sha256"]
        else "the pinned version is still the old one"
        if pinned
        else "nothing is pinned for it now"
    )
    decided = (
        [f"{detail.item.state} by a person {_age(now, row['decided_at'])}"]
        if row["decided_at"]
        else []
    )
    accept = (
        "unpins it"
        if row["change"] == "removed"
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


_VIEWS: dict[str, Callable[[Detail, datetime], DetailView]] = {
    "withheld": _withheld,
    "stripped": _stripped,
    "blocked": _blocked,
    "sessions": _session,
    "pins": _pin,
    "audit": _audit,
}
