"""Everything the detail pane shows for one queue row, read through the store API (no Textual, no SQL)."""

from dataclasses import dataclass, field

from lazaretto.store.opening import StoreAPI

from .queue import QueueItem


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


def load_detail(store: StoreAPI, item: QueueItem) -> Detail | None:
    """The detail for `item`, or None if its row is gone."""
    loader = _LOADERS[item.kind]
    return loader(store, item)


def taint_chain(store: StoreAPI, session: str | None) -> list[dict]:
    """The session's taint events, oldest first, cleared ones included (they are history)."""
    return store.review.taint_chain(session) if session else []


def _tool(store: StoreAPI, server: str, tool: str | None) -> dict | None:
    return store.tools.get(server, tool) if tool else None


def _withheld(store: StoreAPI, item: QueueItem) -> Detail | None:
    record = store.quarantine.get(item.key)
    if record is None:
        return None
    # The removals are in the row's own `removed` column: the stripped table has no index
    # on quarantine_id, and a scan of it would grow with every result ever cleaned.
    return Detail(
        item,
        record,
        taint_chain(store, record["session"]),
        _tool(store, record["server"], record["tool"]),
    )


def _stripped(store: StoreAPI, item: QueueItem) -> Detail | None:
    record = store.review.stripped(int(item.key))
    if record is None:
        return None
    return Detail(
        item,
        record,
        taint_chain(store, record["session"]),
        _tool(store, record["server"], record["tool"]),
    )


def _blocked(store: StoreAPI, item: QueueItem) -> Detail | None:
    record = store.blocked.get(int(item.key))
    if record is None:
        return None
    return Detail(
        item,
        record,
        taint_chain(store, record["session"]),
        _tool(store, record["server"], record["tool"]),
    )


def _session(store: StoreAPI, item: QueueItem) -> Detail | None:
    found = store.review.session(item.key)
    chain = taint_chain(store, item.key)
    if found["record"] is None and not chain:
        return None
    record = found["record"] or {"key": item.key, "created_at": item.at}
    return Detail(item, record, chain, None, found["calls"])


def _audit(store: StoreAPI, item: QueueItem) -> Detail | None:
    record = store.review.audit_row(int(item.key))
    return None if record is None else Detail(item, record)


def _pin(store: StoreAPI, item: QueueItem) -> Detail | None:
    record = store.pins.get(int(item.key))
    if record is None:
        return None
    # What is pinned now for the entry: after an accept it is the drift's new version.
    pinned = store.review.pinned(
        record["server"], record["command"], record["kind"], record["name"]
    )
    return Detail(item, record, related=pinned)


_LOADERS = {
    "withheld": _withheld,
    "stripped": _stripped,
    "blocked": _blocked,
    "sessions": _session,
    "pins": _pin,
    "audit": _audit,
}
