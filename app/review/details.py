"""Everything the detail pane shows for one queue row, read through the store API (no Textual, no SQL)."""

from dataclasses import dataclass, field

from lazaretto.proxy.classify import classify, untrusted_tool
from lazaretto.proxy.policy import Policy
from lazaretto.store.opening import StoreAPI

from .queue import QueueItem, listed_call_state


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


def taint_chain(store: StoreAPI, session: str | None) -> list[dict]:
    """The session's taint events, oldest first, cleared ones included (they are history)."""
    return store.review.taint_chain(session) if session else []


def _tool(store: StoreAPI, policy: Policy, server: str, tool: str | None) -> dict:
    """How the proxy classified the tool; else what the policy says of it (no proxy listed it yet)."""
    recorded = store.tools.get(server, tool) if tool else None
    if recorded is not None:
        return recorded
    entry = policy.server(server)
    if tool:
        return {**classify(entry, tool).as_row(), "from_policy": True}
    untrusted, reason = untrusted_tool(entry, None)
    return {"untrusted": untrusted, "untrusted_reason": reason, "from_policy": True}


def _of_record(
    store: StoreAPI, policy: Policy, item: QueueItem, record: dict | None
) -> Detail | None:
    """The detail of a row that names its session, server and tool; None if the row is gone."""
    if record is None:
        return None
    return Detail(
        item,
        record,
        taint_chain(store, record["session"]),
        _tool(store, policy, record["server"], record["tool"]),
    )


def load_withheld(store: StoreAPI, policy: Policy, item: QueueItem) -> Detail | None:
    """A withheld field in full, or None if its row is gone (as for every loader here)."""
    # The removals are in the row's own `removed` column: the stripped table has no index
    # on quarantine_id, and a scan of it would grow with every result ever cleaned.
    return _of_record(store, policy, item, store.quarantine.get(item.key))


def load_removal(store: StoreAPI, policy: Policy, item: QueueItem) -> Detail | None:
    """One logged removal of hidden content."""
    return _of_record(store, policy, item, store.review.stripped(int(item.key)))


def load_call(store: StoreAPI, policy: Policy, item: QueueItem) -> Detail | None:
    """A blocked call with its arguments."""
    return _of_record(store, policy, item, store.blocked.get(int(item.key)))


def load_session(store: StoreAPI, policy: Policy, item: QueueItem) -> Detail | None:
    """A session, its whole taint chain and its refused calls."""
    found = store.review.session(item.key)
    chain = taint_chain(store, item.key)
    if found["record"] is None and not chain:
        return None
    record = found["record"] or {"key": item.key, "created_at": item.at}
    now = store.now()
    # Listed as the Blocked tab lists them: expired, lapsed with the client, or reviewed once
    # dismissed.
    calls = [{**call, "state": listed_call_state(call, now)} for call in found["calls"]]
    return Detail(item, record, chain, None, calls)


def load_audit(store: StoreAPI, policy: Policy, item: QueueItem) -> Detail | None:
    """One audit row with its detail decoded."""
    record = store.review.audit_row(int(item.key))
    return None if record is None else Detail(item, record)


def load_drift(store: StoreAPI, policy: Policy, item: QueueItem) -> Detail | None:
    """A pin drift and what is pinned for its entry now."""
    record = store.pins.get(int(item.key))
    if record is None:
        return None
    # What is pinned now for the entry: after an accept it is the drift's new version.
    pinned = store.review.pinned(
        record["server"], record["command"], record["kind"], record["name"]
    )
    return Detail(item, record, related=pinned)
