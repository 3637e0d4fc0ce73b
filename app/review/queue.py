"""The review queue's rows: paged, filtered, newest first, read through the store API (no Textual, no SQL)."""

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from lazaretto.store.opening import StoreAPI

PAGE_SIZE = 100
"""Rows fetched per query: the list grows by a page as the person scrolls, never all at once."""


@dataclass(frozen=True)
class QueueItem:
    """One row of the queue, enough to list it; the detail is loaded when it is selected."""

    kind: str
    key: str
    at: str
    order: int
    source: str
    reason: str
    state: str
    session: str | None = None


def _source(server: str | None, tool: str | None, method: str | None = None) -> str:
    return f"{server or '?'}/{tool or method or '?'}"


class Feed(ABC):
    """One kind of queue row, read newest first a page at a time."""

    kind: ClassVar[str]
    title: ClassVar[str]

    @abstractmethod
    def page(
        self,
        store: StoreAPI,
        *,
        after: QueueItem | None = None,
        text: str = "",
        limit: int = PAGE_SIZE,
    ) -> list[QueueItem]:
        """Up to `limit` rows older than `after`, matching `text`."""


class TableFeed(Feed):
    """A feed over one table, paged by the store (`store.review.page`) on indexed columns."""

    def page(
        self,
        store: StoreAPI,
        *,
        after: QueueItem | None = None,
        text: str = "",
        limit: int = PAGE_SIZE,
    ) -> list[QueueItem]:
        rows = store.review.page(
            self.kind,
            after_at=after.at if after else None,
            after_order=after.order if after else None,
            text=text,
            limit=limit,
        )
        return [self.item(row) for row in rows]

    @abstractmethod
    def item(self, row: dict) -> QueueItem:
        """The queue row for one database row."""


class WithheldFeed(TableFeed):
    """Fields the agent was kept from reading."""

    kind = "withheld"
    title = "Withheld"

    def item(self, row: dict) -> QueueItem:
        signals = json.loads(row["signals"]) if row["signals"] else []
        names = ", ".join(dict.fromkeys(signal["name"] for signal in signals)) or "hidden content"
        state = row["status"]
        if state == "withheld" and row["reviewed_at"]:
            state = "reviewed"
        return QueueItem(
            kind=self.kind,
            key=row["id"],
            at=row["created_at"],
            order=row["_order"],
            source=_source(row["server"], row["tool"], row["method"]),
            reason=f"{names} (score {row['score']:.2f}) in {row['path']}",
            state=state,
            session=row["session"],
        )


class StrippedFeed(TableFeed):
    """Hidden content removed from results, whether the result went through or was withheld."""

    kind = "stripped"
    title = "Stripped"

    def item(self, row: dict) -> QueueItem:
        fate = (
            f"withheld as {row['quarantine_id']}" if row["quarantine_id"] else "result went through"
        )
        return QueueItem(
            kind=self.kind,
            key=str(row["id"]),
            at=row["created_at"],
            order=row["_order"],
            source=_source(row["server"], row["tool"], row["method"]),
            reason=f"{row['kind']} ×{row['count']} removed from {row['path']}; {fate}",
            state="withheld" if row["quarantine_id"] else "stripped",
            session=row["session"],
        )


class BlockedFeed(TableFeed):
    """Outbound calls refused, each waiting for a person or decided."""

    kind = "blocked"
    title = "Blocked"

    def __init__(self, now: str = "") -> None:
        self.now = now

    def item(self, row: dict) -> QueueItem:
        state = row["status"]
        # Expiry is computed on read, as the store does.
        if state in ("pending", "approved") and self.now and row["expires_at"] <= self.now:
            state = "expired"
        if state == "pending" and row["reviewed_at"]:
            state = "reviewed"
        return QueueItem(
            kind=self.kind,
            key=str(row["id"]),
            at=row["created_at"],
            order=row["_order"],
            source=_source(row["server"], row["tool"]),
            reason=row["reason"] or row["reason_code"] or "refused",
            state=state,
            session=row["session"],
        )


class AuditFeed(TableFeed):
    """Every decision, automatic or human, from the hash-chained log."""

    kind = "audit"
    title = "Audit"

    def item(self, row: dict) -> QueueItem:
        return QueueItem(
            kind=self.kind,
            key=str(row["id"]),
            at=row["at"],
            order=row["_order"],
            source=f"{row['actor']} {row['action']}",
            reason=" ".join(part for part in (row["subject"], row["reason"]) if part)
            or row["action"],
            state=row["actor"],
            session=row["session"],
        )


class PinsFeed(TableFeed):
    """Drift of a pinned server surface: a changed, new or removed tool, prompt or instruction."""

    kind = "pins"
    title = "Pins"

    def item(self, row: dict) -> QueueItem:
        return QueueItem(
            kind=self.kind,
            key=str(row["id"]),
            at=row["created_at"],
            order=row["_order"],
            source="/".join(
                [
                    row["server"],
                    row["kind"],
                    *([row["name"]] if row["name"] not in ("", row["kind"]) else []),
                ]
            ),
            reason=f"{entry_label(row['kind'], row['name'])} {row['change']}",
            state=row["status"],
        )


def entry_label(kind: str, name: str) -> str:
    """`tool post_message`, `instructions`, `tool list`: a pinned entry as a person reads it."""
    words = kind.replace("_", " ")
    if name == kind:
        return words
    # The empty name is the marker pinned once per kind: that the kind was listed at all.
    return f"{words} {name}" if name else f"{words} list"


class SessionsFeed(Feed):
    """Agent sessions and their taint; few enough to read whole through the store's API."""

    kind = "sessions"
    title = "Sessions"

    def page(
        self,
        store: StoreAPI,
        *,
        after: QueueItem | None = None,
        text: str = "",
        limit: int = PAGE_SIZE,
    ) -> list[QueueItem]:
        if after is not None:
            return []
        items = [self.item(row) for row in store.sessions.all()]
        needle = text.strip().lower()
        if needle:
            items = [
                i for i in items if needle in f"{i.key} {i.source} {i.reason} {i.state}".lower()
            ]
        return items

    def item(self, row: dict) -> QueueItem:
        """The queue row for one session from `store.sessions.all()`."""
        reasons = row["reasons"]
        if reasons:
            first = reasons[0]
            more = f" (+{len(reasons) - 1} later reads)" if len(reasons) > 1 else ""
            source = _source(first["server"], first["tool"], first["method"])
            reason = f"tainted by {first['reason']}{more}"
        else:
            source, reason = row.get("client_name") or "agent client", "clean"
        return QueueItem(
            kind=self.kind,
            key=row["key"],
            at=row["created_at"],
            order=0,
            source=source,
            reason=reason,
            state="tainted" if row["tainted"] else "clean",
            session=row["key"],
        )


def feeds(now: str = "") -> dict[str, Feed]:
    """Every feed by kind, in the order the queue shows them; `now` decides blocked-call expiry."""
    return {
        feed.kind: feed
        for feed in (
            WithheldFeed(),
            StrippedFeed(),
            BlockedFeed(now),
            SessionsFeed(),
            PinsFeed(),
            AuditFeed(),
        )
    }
