"""The review queue's rows: paged, filtered, waiting first and then newest first, read through the
store API (no Textual, no SQL)."""

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from lazaretto.store.blocked import call_status
from lazaretto.store.opening import StoreAPI
from lazaretto.store.sessions import session_state
from lazaretto.store.states import CallStatus, DriftStatus, FieldStatus, SessionState

PAGE_SIZE = 100
"""Rows fetched per query: the list grows by a page as the person scrolls, never all at once."""


class TabKind(StrEnum):
    """The kinds of queue row, one tab each."""

    WITHHELD = "withheld"
    STRIPPED = "stripped"
    BLOCKED = "blocked"
    SESSIONS = "sessions"
    PINS = "pins"
    AUDIT = "audit"


class ListedState(StrEnum):
    """Row states worked out for the list, beside the statuses the store records."""

    REVIEWED = "reviewed"
    """A person dismissed it: looked at, and kept stopped."""
    STRIPPED = "stripped"
    """Hidden content was removed and the rest of the result went through."""


@dataclass(frozen=True)
class QueueItem:
    """One row of the queue, enough to list it; the detail is loaded when it is selected."""

    kind: TabKind
    key: str
    at: str
    order: int
    source: str
    reason: str
    state: str
    session: str | None = None
    waiting: bool = False
    """It waits for a person's decision: listed first, counted in the header, reached with `n`."""


def _source(server: str | None, tool: str | None, method: str | None = None) -> str:
    return f"{server or '?'}/{tool or method or '?'}"


class Feed(ABC):
    """One kind of queue row, read a page at a time: the rows waiting for a person first, then
    the rest, each newest first."""

    kind: ClassVar[TabKind]
    title: ClassVar[str]
    waits: ClassVar[bool] = False
    """Whether its rows can wait for a person's decision (else none ever does)."""

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

    def attention(self, store: StoreAPI) -> int:
        """How many rows wait for a person (shown on the tab); 0 when the kind never does."""
        return 0


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
        if not self.waits:
            return self._read(store, after, text, limit, None)
        items: list[QueueItem] = []
        if after is None or after.waiting:
            items = self._read(store, after, text, limit, True)
            if len(items) == limit:
                return items
            after = None  # the waiting rows are all read: the others follow from their start
        return items + self._read(store, after, text, limit - len(items), False)

    def _read(
        self,
        store: StoreAPI,
        after: QueueItem | None,
        text: str,
        limit: int,
        waiting: bool | None,
    ) -> list[QueueItem]:
        now = store.now()
        rows = store.review.page(
            self.kind,
            after_at=after.at if after else None,
            after_order=after.order if after else None,
            text=text,
            limit=limit,
            waiting=waiting,
        )
        return [replace(self.item(row, now), waiting=bool(waiting)) for row in rows]

    @abstractmethod
    def item(self, row: dict, now: str) -> QueueItem:
        """The queue row for one database row, read at `now` (a store time stamp)."""


class WithheldFeed(TableFeed):
    """Fields the agent was kept from reading."""

    kind = TabKind.WITHHELD
    title = "Withheld"
    waits = True

    def attention(self, store: StoreAPI) -> int:
        # Counted on the (status, reviewed_at) index alone, so 100,000 rows stay cheap.
        return store.quarantine.waiting()

    def item(self, row: dict, now: str) -> QueueItem:
        signals = json.loads(row["signals"]) if row["signals"] else []
        names = ", ".join(dict.fromkeys(signal["name"] for signal in signals)) or "hidden content"
        return QueueItem(
            kind=self.kind,
            key=row["id"],
            at=row["created_at"],
            order=row["_order"],
            source=_source(row["server"], row["tool"], row["method"]),
            reason=f"{names} (score {row['score']:.2f}) in {row['path']}",
            state=field_state(row["status"], row["reviewed_at"]),
            session=row["session"],
        )


class StrippedFeed(TableFeed):
    """Hidden content removed from results, whether the result went through or was withheld."""

    kind = TabKind.STRIPPED
    title = "Stripped"

    def item(self, row: dict, now: str) -> QueueItem:
        qid = row["quarantine_id"]
        fate = f"withheld as {qid}" if qid else "result went through"
        return QueueItem(
            kind=self.kind,
            key=str(row["id"]),
            at=row["created_at"],
            order=row["_order"],
            source=_source(row["server"], row["tool"], row["method"]),
            reason=f"{row['kind']} ×{row['count']} removed from {row['path']}; {fate}",
            state=field_state(row["field_status"], row["field_reviewed_at"])
            if qid
            else ListedState.STRIPPED,
            session=row["session"],
        )


def field_state(status: str | None, reviewed_at: str | None) -> StrEnum:
    """A withheld field as listed: its status, reviewed once a person dismissed it."""
    # A removal whose field row is gone (a replaced store) still says what it was withheld as.
    state = FieldStatus(status or FieldStatus.WITHHELD)
    return ListedState.REVIEWED if state == FieldStatus.WITHHELD and reviewed_at else state


class BlockedFeed(TableFeed):
    """Outbound calls refused, each waiting for a person or decided."""

    kind = TabKind.BLOCKED
    title = "Blocked"
    waits = True

    def attention(self, store: StoreAPI) -> int:
        return len(store.blocked.pending())

    def item(self, row: dict, now: str) -> QueueItem:
        return QueueItem(
            kind=self.kind,
            key=str(row["id"]),
            at=row["created_at"],
            order=row["_order"],
            source=_source(row["server"], row["tool"]),
            reason=row["reason"] or row["reason_code"] or "refused",
            state=listed_call_state(row, now),
            session=row["session"],
        )


def listed_call_state(row: dict, now: str) -> StrEnum:
    """A blocked call as listed: its status as of `now` (expiry and lapse computed), reviewed once
    dismissed."""
    state = call_status(row["status"], row["expires_at"], now, row.get("session_ended", False))
    return ListedState.REVIEWED if state == CallStatus.PENDING and row["reviewed_at"] else state


class AuditFeed(TableFeed):
    """Every decision, automatic or human, from the hash-chained log."""

    kind = TabKind.AUDIT
    title = "Audit"

    def item(self, row: dict, now: str) -> QueueItem:
        return QueueItem(
            kind=self.kind,
            key=str(row["id"]),
            at=row["at"],
            order=row["_order"],
            # The actor is the row's state: the source names only what was done.
            source=row["action"],
            reason=" ".join(part for part in (row["subject"], row["reason"]) if part)
            or row["action"],
            state=row["actor"],
            session=row["session"],
        )


class PinsFeed(TableFeed):
    """Drift of a pinned server surface: a changed, new or removed tool, prompt or instruction."""

    kind = TabKind.PINS
    title = "Pins"
    waits = True

    def attention(self, store: StoreAPI) -> int:
        return store.pins.waiting()

    def item(self, row: dict, now: str) -> QueueItem:
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
            state=DriftStatus(row["status"]),
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

    kind = TabKind.SESSIONS
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
        # Tainted sessions first, as a person looks for them; each part newest first.
        return sorted(items, key=lambda item: item.state != SessionState.TAINTED)

    def attention(self, store: StoreAPI) -> int:
        return sum(1 for row in store.sessions.all() if session_state(row) is SessionState.TAINTED)

    def item(self, row: dict) -> QueueItem:
        """The queue row for one session from `store.sessions.all()`."""
        # Sessions go by the one label `lazaretto status` gives them, whatever tainted them.
        reasons = row["reasons"]
        if reasons:
            first = reasons[0]
            others = len(reasons) - 1
            more = f" (+{others} other source{'s' if others > 1 else ''})" if others else ""
            reason = f"tainted by {first['reason']}{more}"
        else:
            reason = "no open taint: outbound tools work"
        if row["ended"]:
            reason = f"its client exited; {reason}"
        return QueueItem(
            kind=self.kind,
            key=row["key"],
            at=row["created_at"],
            order=0,
            source=row["label"],
            reason=reason,
            state=session_state(row),
            session=row["key"],
        )
