"""Builds a review store from the checked-in worm scenario (app/data/scenario.json), with a fixed clock."""

import json
from datetime import datetime, timedelta
from pathlib import Path

from lazaretto.proxy.pins.guard import entry, listed_marker
from lazaretto.store import Store, canonical_json, sha256_hex
from lazaretto.store.blocked import arguments_hash
from lazaretto.store.clock import parse_stamp, stamp
from lazaretto.store.tokens import hash_token, token_hint

SCENARIO = Path(__file__).resolve().parent.parent / "review" / "data" / "scenario.json"


class FixedClock:
    """A clock that stands still until a test moves it: ages and expiries come out the same every run."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment

    def set_minute(self, start: datetime, minute: float) -> None:
        """Stand at `minute` minutes after `start`."""
        self.moment = start + timedelta(minutes=minute)


def load_scenario(store: Store, clock: FixedClock, path: Path = SCENARIO) -> None:
    """Write the scenario through the store's API, then leave the clock at the scenario's `now`.

    The chat server's tools are pinned first; post_message drifts near the end (a rug pull).
    Withheld fields and blocked calls are written with their checked-in ids and token, so
    screenshots and snapshots show the same ids every run; each still gets its audit row.
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    start = parse_stamp(data["start"])
    pins = data["pins"]
    command = canonical_json(pins["command"])
    clock.set_minute(start, pins["minute"])
    pinned = [entry(row["kind"], row["name"], row["surface"]) for row in pins["entries"]]
    markers = [listed_marker(kind) for kind in dict.fromkeys(e["kind"] for e in pinned)]
    store.pins.pin(pins["server"], command, [*markers, *pinned], reason="first use (tool)")
    for row in data["sessions"]:
        clock.set_minute(start, row["minute"])
        # No client process is recorded (as for a LAZARETTO_SESSION key): the scenario's sessions
        # never end, whatever runs on the machine that replays it.
        store.sessions.ensure(row["key"], client_name=row["client_name"])
    for row in data["taint"]:
        clock.set_minute(start, row["minute"])
        store.sessions.taint(
            row["session"],
            server=row["server"],
            tool=row["tool"],
            method="tools/call",
            reason=row["reason"],
        )
    store.tools.record_many("web", [t for t in data["tools"] if t["server"] == "web"])
    store.tools.record_many("chat", [t for t in data["tools"] if t["server"] == "chat"])
    for row in data["withheld"]:
        clock.set_minute(start, row["minute"])
        _withhold(store, row)
    for row in data["stripped"]:
        clock.set_minute(start, row["minute"])
        fields = {
            key: row[key]
            for key in (
                "session",
                "server",
                "tool",
                "path",
                "kind",
                "count",
                "decoded",
                "quarantine_id",
            )
        }
        store.quarantine.record_stripped([{**fields, "method": "tools/call", "request_id": None}])
    for row in data["blocked"]:
        clock.set_minute(start, row["minute"])
        _block(store, row)
    for row in pins["drift"]:
        clock.set_minute(start, row["minute"])
        old = next(
            item for item in pinned if (item["kind"], item["name"]) == (row["kind"], row["name"])
        )
        store.pins.drift(
            pins["server"],
            command,
            entry(row["kind"], row["name"], row["surface"]),
            row["change"],
            old,
        )
    clock.set_minute(start, data["now_minutes"])


def _withhold(store: Store, row: dict) -> None:
    with store.write() as conn:
        conn.execute(
            "INSERT INTO quarantine (id, session, server, tool, method, request_id, path, content_hash, fingerprint,"
            " original, cleaned, score, signals, decoded, removed, status, created_at)"
            " VALUES (?, ?, ?, ?, 'tools/call', NULL, ?, ?, NULL, ?, ?, ?, ?, ?, ?, 'withheld', ?)",
            (
                row["id"],
                row["session"],
                row["server"],
                row["tool"],
                row["path"],
                sha256_hex(row["original"]),
                row["original"],
                row["cleaned"],
                row["score"],
                canonical_json(row["signals"]),
                canonical_json(row["decoded"]),
                canonical_json(row["removed"]),
                store.now(),
            ),
        )
        names = ", ".join(sorted(s["name"] for s in row["signals"]))
        store.audit.append(
            conn,
            "proxy",
            "withhold",
            session=row["session"],
            subject=row["id"],
            reason=f"{row['server']}/{row['tool']}: {names}",
            detail={"score": row["score"], "path": row["path"]},
        )


def _block(store: Store, row: dict) -> None:
    now = store.clock()
    with store.write() as conn:
        cursor = conn.execute(
            "INSERT INTO blocked_calls (session, server, tool, arguments, args_hash, reason_code, reason, hosts,"
            " outbound_reason, taint_reason, token_hash, token_hint, status, created_at, expires_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
            (
                row["session"],
                row["server"],
                row["tool"],
                canonical_json(row["arguments"]),
                arguments_hash(row["arguments"]),
                row["reason_code"],
                row["reason"],
                json.dumps(row["hosts"]),
                row["outbound_reason"],
                row["taint_reason"],
                hash_token(row["token"]),
                token_hint(row["token"]),
                stamp(now),
                stamp(now + timedelta(minutes=row["ttl_minutes"])),
            ),
        )
        store.audit.append(
            conn,
            "proxy",
            "refuse",
            session=row["session"],
            subject=f"blocked:{cursor.lastrowid}",
            reason=row["reason"],
            detail={"server": row["server"], "tool": row["tool"], "code": row["reason_code"]},
        )
