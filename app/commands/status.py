"""`lazaretto status`: each session's taint and the blocked calls waiting for a person."""

import argparse
import json
from datetime import datetime

from lazaretto.app import human
from lazaretto.app.human import ago, clip, table, until, visible
from lazaretto.store.clock import parse_stamp
from lazaretto.store.opening import StoreAPI
from lazaretto.store.sessions import session_state

REASON_WIDTH = 60


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto status`."""
    human.add_store_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object for scripts")


def run(args: argparse.Namespace) -> int:
    """Print the status; exit 1 if the store cannot be read."""
    return human.with_store(args, "status", lambda store: _status(store, args.json))


def _status(store: StoreAPI, as_json: bool) -> int:
    now = store.clock()
    report = {**collect(store, now), "policy": policy_state()}
    print(json.dumps(report, indent=2) if as_json else render(report, now))
    return 0


def policy_state() -> dict:
    """The policy the proxies read by default: where, and what is wrong with it (the headline
    is what `render` shows when it is broken)."""
    from lazaretto.app.policy_report import check_policy

    report = check_policy()
    return {
        "path": str(report.path),
        "exists": report.exists,
        "broken": report.broken,
        "problems": [problem.as_json() for problem in report.problems],
        "headline": report.headline(),
    }


def collect(store: StoreAPI, now: datetime) -> dict:
    """Sessions and pending blocked calls, without withheld content or call arguments."""
    sessions = [
        {
            "key": row["key"],
            "label": row["label"],
            "state": session_state(row),
            "ended": row["ended"],
            "tainted": row["tainted"],
            "reasons": [
                {name: event[name] for name in ("server", "tool", "method", "reason", "at")}
                for event in row["reasons"]
            ],
        }
        for row in store.sessions.all()
    ]
    from lazaretto.app.station.protection import protection_line

    blocked = [
        {
            "id": row["id"],
            # Tokens are stored hashed: the hint is all there is to show.
            "token": row["token_hint"],
            "session": row["session"],
            "server": row["server"],
            "tool": row["tool"],
            "status": row["status"],
            "reason_code": row["reason_code"],
            "created_at": row["created_at"],
            "expires_at": row["expires_at"],
            "age_seconds": max(0, int((now - parse_stamp(row["created_at"])).total_seconds())),
        }
        for row in store.blocked.pending()
    ]
    return {
        "mode": str(store.mode),
        "decisions": protection_line(store),
        "sessions": sessions,
        "blocked": blocked,
    }


def render(report: dict, now: datetime) -> str:
    """The compact human form of `collect`'s report."""
    out = [f"Decisions: {report['decisions']}"]
    if report["policy"]["broken"]:
        out.append(f"Policy: {visible(report['policy']['headline'])}")
    out += ["", "Sessions"]
    if report["sessions"]:
        rows = []
        for session in report["sessions"]:
            label = visible(session["label"])
            if not session["tainted"]:
                rows.append([label, session["state"], "", "", "", ""])
                continue
            first = session["reasons"][0]
            rows.append(
                [
                    label,
                    session["state"],
                    f"{first['server']}/{first['tool'] or first['method']}",
                    ago(now - parse_stamp(first["at"])),
                    len(session["reasons"]),
                    clip(visible(first["reason"]), REASON_WIDTH),
                ]
            )
        # One taint event is kept per untrusted source (server and tool), not per read.
        out.append(table(["SESSION", "STATE", "TAINTED BY", "SINCE", "SOURCES", "REASON"], rows))
    else:
        out.append("  none yet")
    out.append("")
    out.append("Blocked calls waiting for a person")
    if report["blocked"]:
        labels = {session["key"]: session["label"] for session in report["sessions"]}
        rows = [
            [
                call["token"],
                call["server"],
                call["tool"],
                visible(labels.get(call["session"], call["session"])),
                ago(now - parse_stamp(call["created_at"])),
                until(parse_stamp(call["expires_at"]) - now),
                call["reason_code"] or "",
            ]
            for call in report["blocked"]
        ]
        out.append(table(["TOKEN", "SERVER", "TOOL", "SESSION", "AGE", "EXPIRES", "WHY"], rows))
        out.append("")
        out.append(
            "At a terminal: `lazaretto approve TOKEN` (the full token is in the agent's refusal notice)."
        )
    else:
        out.append("  none")
    return "\n".join(out)
