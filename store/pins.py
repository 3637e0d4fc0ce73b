"""Pinned server surfaces (tools, prompts, resource templates, instructions) and their drift."""

import sqlite3
from typing import TYPE_CHECKING

from .connection import StoreUnavailable
from .states import Action, Actor, DriftChange, DriftStatus

if TYPE_CHECKING:
    from .store import Store


FIRST_USE = ""
"""The name of the entry that pins a kind as listed once: a first listing carries it."""


class Pins:
    """The accepted surface of each server, keyed by server id and command, and drift from it."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def baseline(self, server: str, command: str) -> tuple[str, dict[tuple[str, str], dict]]:
        """The pins to compare with, and how they were found.

        An exact (server, command) match first; else the same server id under another command,
        else the same command under another id: a renamed entry or a changed command is compared
        with what was pinned before, never given a fresh first use.
        """
        for how, where, params in (
            ("exact", "server = ? AND command = ?", (server, command)),
            ("same server id", "server = ?", (server,)),
            ("same command", "command = ?", (command,)),
        ):
            rows = self._store.query(
                f"SELECT * FROM pins WHERE {where} ORDER BY pinned_at DESC", params
            )
            if rows:
                # Under a partial match several keys may exist: the newest pin of each entry wins.
                entries: dict[tuple[str, str], dict] = {}
                for row in rows:
                    entries.setdefault((row["kind"], row["name"]), row)
                return how, entries
        return "first use", {}

    def pin(self, server: str, command: str, entries: list[dict], *, reason: str) -> None:
        """Pin entries (kind, name, canonical, sha256) under (server, command), audited.

        Only entries not pinned yet: changing a pin is a person's decision (`accept_drift`). And
        only entries a pin can vouch for: the first listing of a kind (the batch holds the kind's
        `FIRST_USE` marker and nothing of that kind is pinned under this key yet), or an entry
        pinned already, the same, under this server id or this command (carried over). A pin for
        a name a kind's first listing did not hold would make its later appearance known with
        no one having looked at it: such entries are left out and the audit row names them.
        """
        if not entries:
            return
        now = self._store.now()
        with self._store.write() as conn:
            admitted, refused = _admissible(conn, server, command, entries)
            conn.executemany(
                "INSERT INTO pins (server, command, kind, name, canonical, sha256, pinned_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(server, command, kind, name) DO NOTHING",
                [
                    (server, command, e["kind"], e["name"], e["canonical"], e["sha256"], now)
                    for e in admitted
                ],
            )
            detail: dict = {"entries": sorted(f"{e['kind']}:{e['name']}" for e in admitted)}
            if refused:
                detail["refused"] = sorted(f"{e['kind']}:{e['name']}" for e in refused)
                reason += (
                    f"; {len(refused)} left unpinned: neither a kind's first listing nor"
                    " carried over from a pin"
                )
            self._store.audit.append(
                conn, Actor.PROXY, Action.PIN, subject=server, reason=reason, detail=detail
            )

    def drift(
        self, server: str, command: str, entry: dict, change: DriftChange, old: dict | None
    ) -> dict:
        """Record a drift (or return the one already recorded for the same new content)."""
        new_sha = entry.get("sha256")
        found = self._store.query(
            "SELECT * FROM pin_drift WHERE server = ? AND command = ? AND kind = ? AND name = ?"
            " AND new_sha256 IS ? ORDER BY id DESC LIMIT 1",
            (server, command, entry["kind"], entry["name"], new_sha),
        )
        if found:
            return _typed(found[0])
        with self._store.write() as conn:
            cursor = conn.execute(
                "INSERT INTO pin_drift (server, command, kind, name, change, old_canonical, new_canonical,"
                " old_sha256, new_sha256, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    server,
                    command,
                    entry["kind"],
                    entry["name"],
                    change,
                    old["canonical"] if old else None,
                    entry.get("canonical"),
                    old["sha256"] if old else None,
                    new_sha,
                    DriftStatus.PENDING,
                    self._store.now(),
                ),
            )
            self._store.audit.append(
                conn,
                Actor.PROXY,
                Action.PIN_DRIFT,
                subject=f"drift:{cursor.lastrowid}",
                reason=f"{server}: {entry['kind']} {entry['name']} {change}",
            )
        recorded = self.get(cursor.lastrowid) if cursor.lastrowid is not None else None
        if recorded is None:
            # The store file was replaced between the write and this read: refuse, never guess.
            raise StoreUnavailable(
                f"the pin drift just recorded is not in the store at {self._store.path}"
            )
        return recorded

    def get(self, drift_id: int) -> dict | None:
        """One drift by id."""
        rows = self._store.query("SELECT * FROM pin_drift WHERE id = ?", (drift_id,))
        return _typed(rows[0]) if rows else None

    def undecided(self, server: str, command: str, kind: str, name: str) -> dict | None:
        """The newest drift of one entry, unless a person accepted it: what refuses its calls."""
        rows = self._store.query(
            "SELECT * FROM pin_drift WHERE server = ? AND command = ? AND kind = ? AND name = ?"
            " ORDER BY id DESC LIMIT 1",
            (server, command, kind, name),
        )
        if not rows or rows[0]["status"] == DriftStatus.ACCEPTED:
            return None
        return _typed(rows[0])

    def pending(self) -> list[dict]:
        """Drifts waiting for a person, newest first."""
        rows = self._store.query(
            "SELECT * FROM pin_drift WHERE status = ? ORDER BY id DESC", (DriftStatus.PENDING,)
        )
        return [_typed(row) for row in rows]

    def waiting(self) -> int:
        """How many drifts wait for a person (counted on the (status, created_at) index)."""
        return self._store.query(
            "SELECT count(*) AS n FROM pin_drift WHERE status = ?", (DriftStatus.PENDING,)
        )[0]["n"]

    def export(self, server: str | None = None) -> list[dict]:
        """Every pin (of one server), sorted, for a lock file."""
        where, params = ("WHERE server = ?", (server,)) if server else ("", ())
        return self._store.query(
            f"SELECT * FROM pins {where} ORDER BY server, command, kind, name", params
        )


def _admissible(
    conn: sqlite3.Connection, server: str, command: str, entries: list[dict]
) -> tuple[list[dict], list[dict]]:
    """(entries a pin may record, entries it may not) under the rule `Pins.pin` states."""
    pinned_kinds = {
        row[0]
        for row in conn.execute(
            "SELECT DISTINCT kind FROM pins WHERE server = ? AND command = ?", (server, command)
        )
    }
    first_listings = {e["kind"] for e in entries if e["name"] == FIRST_USE} - pinned_kinds
    admitted, refused = [], []
    for e in entries:
        known = (
            e["kind"] in first_listings
            or conn.execute(
                "SELECT 1 FROM pins WHERE (server = ? OR command = ?) AND kind = ? AND name = ?"
                " AND sha256 = ? LIMIT 1",
                (server, command, e["kind"], e["name"], e["sha256"]),
            ).fetchone()
        )
        (admitted if known else refused).append(e)
    return admitted, refused


def _typed(row: dict) -> dict:
    row["status"], row["change"] = DriftStatus(row["status"]), DriftChange(row["change"])
    return row
