"""Everything the detail pane shows for one queue row, read through the store (no Textual here)."""

import json
from dataclasses import dataclass, field

from lazaretto.proxy.classify import classify, untrusted_tool
from lazaretto.proxy.policy import Policy
from lazaretto.store import Store

from .queue import QueueItem, listed_call_state

CHAIN_LIMIT = 50
"""Taint events and related rows shown per item; a session that read thousands needs no more."""


@dataclass(frozen=True)
class Detail:
    """One queue row in full: its record, its session's taint chain, and how its tool was classified."""

    item: QueueItem
    record: dict
    taint: list[dict] = field(default_factory=list)
    tool: dict | None = None
    related: list[dict] = field(default_factory=list)

    @property
    def tainted(self) -> bool:
        """Whether the item's session still has open taint (so `u` applies)."""
        return any(event["cleared_at"] is None for event in self.taint)


def taint_chain(store: Store, session: str | None) -> list[dict]:
    """The session's taint events, oldest first, cleared ones included (they are history)."""
    if not session:
        return []
    return store.query(
        "SELECT id, server, tool, method, reason, at, cleared_at, cleared_by FROM taint_events"
        " WHERE session = ? ORDER BY id LIMIT ?",
        (session, CHAIN_LIMIT),
    )


def _tool(store: Store, policy: Policy, server: str, tool: str | None) -> dict:
    """How the proxy classified the tool; else what the policy says of it (no proxy listed it yet)."""
    recorded = store.tools.get(server, tool) if tool else None
    if recorded is not None:
        return recorded
    entry = policy.server(server)
    if tool:
        return {**classify(entry, tool).as_row(), "from_policy": True}
    untrusted, reason = untrusted_tool(entry, None)
    return {"untrusted": untrusted, "untrusted_reason": reason, "from_policy": True}


def load_withheld(store: Store, policy: Policy, item: QueueItem) -> Detail | None:
    """A withheld field in full, or None if its row is gone (as for every loader here)."""
    record = store.quarantine.get(item.key)
    if record is None:
        return None
    # The removals are in the row's own `removed` column: the stripped table has no index
    # on quarantine_id, and a scan of it would grow with every result ever cleaned.
    return Detail(
        item,
        record,
        taint_chain(store, record["session"]),
        _tool(store, policy, record["server"], record["tool"]),
    )


def load_removal(store: Store, policy: Policy, item: QueueItem) -> Detail | None:
    """One logged removal of hidden content."""
    rows = store.query("SELECT * FROM stripped WHERE id = ?", (int(item.key),))
    if not rows:
        return None
    record = rows[0]
    return Detail(
        item,
        record,
        taint_chain(store, record["session"]),
        _tool(store, policy, record["server"], record["tool"]),
    )


def load_call(store: Store, policy: Policy, item: QueueItem) -> Detail | None:
    """A blocked call with its arguments."""
    record = store.blocked.get(int(item.key))
    if record is None:
        return None
    return Detail(
        item,
        record,
        taint_chain(store, record["session"]),
        _tool(store, policy, record["server"], record["tool"]),
    )


def load_session(store: Store, policy: Policy, item: QueueItem) -> Detail | None:
    """A session, its whole taint chain and its refused calls."""
    rows = store.query("SELECT * FROM sessions WHERE key = ?", (item.key,))
    chain = taint_chain(store, item.key)
    if not rows and not chain:
        return None
    record = rows[0] if rows else {"key": item.key, "created_at": item.at}
    # The session's refused calls, newest first (the blocked_calls index starts with session).
    calls = store.query(
        "SELECT id, server, tool, status, reason, created_at, expires_at, reviewed_at FROM blocked_calls"
        " WHERE session = ? ORDER BY id DESC LIMIT ?",
        (item.key, CHAIN_LIMIT),
    )
    now = store.now()
    # Listed as the Blocked tab lists them: expired, or reviewed once dismissed.
    calls = [{**call, "state": listed_call_state(call, now)} for call in calls]
    return Detail(item, record, chain, None, calls)


def load_audit(store: Store, policy: Policy, item: QueueItem) -> Detail | None:
    """One audit row with its detail decoded."""
    rows = store.query("SELECT * FROM audit WHERE id = ?", (int(item.key),))
    if not rows:
        return None
    record = rows[0]
    record["detail"] = json.loads(record["detail"]) if record["detail"] else None
    return Detail(item, record)


def load_drift(store: Store, policy: Policy, item: QueueItem) -> Detail | None:
    """A pin drift and what is pinned for its entry now."""
    record = store.pins.get(int(item.key))
    if record is None:
        return None
    # What is pinned now for the entry: after an accept it is the drift's new version.
    pinned = store.query(
        "SELECT sha256, pinned_at FROM pins WHERE server = ? AND command = ? AND kind = ? AND name = ?",
        (record["server"], record["command"], record["kind"], record["name"]),
    )
    return Detail(item, record, related=pinned)
