"""The queue's tabs: one object per kind of row carries its feed, detail, view, actions and styles.

Adding a kind of row means writing its feed, loader and view, and one `Tab` here.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from textual.content import Content

from lazaretto.proxy.policy import Policy
from lazaretto.store.opening import StoreAPI
from lazaretto.store.states import CallStatus, DriftStatus, FieldStatus

from .details import (
    Detail,
    load_audit,
    load_call,
    load_drift,
    load_removal,
    load_session,
    load_withheld,
)
from .moments import Moments
from .queue import (
    AuditFeed,
    BlockedFeed,
    Feed,
    PinsFeed,
    QueueItem,
    SessionsFeed,
    StrippedFeed,
    TabKind,
    WithheldFeed,
)
from .widgets.detail_views import (
    AUDIT_STYLES,
    CALL_STYLES,
    DRIFT_STYLES,
    FIELD_STYLES,
    REMOVAL_STYLES,
    SESSION_STYLES,
    DetailView,
    StateStyles,
    audit_view,
    call_view,
    drift_view,
    removal_in_full,
    removal_view,
    session_view,
    withheld_in_full,
    withheld_view,
)

Rule = Callable[[Detail], str | None]
"""Whether an action applies to a selected item: None if it does, else a sentence saying why not."""


def _untaint(detail: Detail) -> str | None:
    if detail.tainted:
        return None
    session = detail.item.session
    return f"session {session} is not tainted" if session else "this item belongs to no session"


def _while(status: StrEnum, name: Callable[[dict], str]) -> Rule:
    """An action that applies while the item's record has `status` (`name` says which item)."""

    def rule(detail: Detail) -> str | None:
        row = detail.record
        if row["status"] == status:
            return None
        return f"{name(row)} is {row['status']}, not {status}"

    return rule


def _unreviewed(rule: Rule, name: Callable[[dict], str]) -> Rule:
    """`rule`, once: an item a person dismissed is not dismissed again."""

    def unreviewed(detail: Detail) -> str | None:
        if detail.record["reviewed_at"]:
            return f"{name(detail.record)} was already reviewed"
        return rule(detail)

    return unreviewed


def _field(row: dict) -> str:
    return row["id"]


def _call(row: dict) -> str:
    return f"blocked call {row['id']}"


def _drift(row: dict) -> str:
    return f"pin drift {row['id']}"


_RELEASE = _while(FieldStatus.WITHHELD, _field)
_APPROVE = _while(CallStatus.PENDING, _call)
_DECIDE_DRIFT = _while(DriftStatus.PENDING, _drift)


@dataclass(frozen=True)
class Dismissal:
    """How a kind of row is marked reviewed, and how that is taken back (both keep it stopped):
    the store's two decisions, and the row's key as they take it."""

    dismiss: str
    undo: str
    subject: Callable[[str], object]


_FIELD_DISMISSAL = Dismissal("decisions.dismiss_field", "decisions.undismiss_field", str)
_CALL_DISMISSAL = Dismissal("decisions.dismiss_call", "decisions.undismiss_call", int)


@dataclass(frozen=True)
class Tab:
    """One kind of queue row: how it is listed, read, shown, styled and decided on."""

    feed: Feed
    load: Callable[[StoreAPI, Policy, QueueItem], Detail | None]
    """The selected row in full, or None if it vanished meanwhile."""
    view: Callable[[Detail, Moments], DetailView]
    """The detail pane's content for a loaded row, its times said as the given `Moments` say them."""
    styles: StateStyles
    empty: str
    """What the tab would list, said when it lists nothing."""
    actions: Mapping[str, Rule] = field(default_factory=dict)
    """The item actions (screen action names) this kind offers, each with when it applies."""
    in_full: Callable[[Detail], Content | None] | None = None
    """The item for `enter`, uncut; None (or a None result) shows the detail's own body."""
    dismissal: Dismissal | None = None
    """For the `dismiss_item` action and its undo; None where nothing is dismissed."""

    @property
    def kind(self) -> TabKind:
        """The kind of row, also the tab's id."""
        return self.feed.kind

    @property
    def title(self) -> str:
        """The tab's label (before its count)."""
        return self.feed.title


TABS = (
    Tab(
        WithheldFeed(),
        load_withheld,
        withheld_view,
        FIELD_STYLES,
        "No withheld field. A field that reads like instructions to the agent is withheld here;"
        " the rest of its result still reaches the agent.",
        {
            "release": _RELEASE,
            "dismiss_item": _unreviewed(_RELEASE, _field),
            "untaint": _untaint,
        },
        in_full=withheld_in_full,
        dismissal=_FIELD_DISMISSAL,
    ),
    Tab(
        StrippedFeed(),
        load_removal,
        removal_view,
        REMOVAL_STYLES,
        "No hidden content removed yet. Invisible characters, hidden HTML, encoded runs and the like"
        " are stripped from results and logged here, decoded.",
        {"untaint": _untaint},
        in_full=removal_in_full,
    ),
    Tab(
        BlockedFeed(),
        load_call,
        call_view,
        CALL_STYLES,
        "No blocked call. Once a session has read untrusted content, its outbound calls wait here"
        " for a person.",
        {
            "approve": _APPROVE,
            "dismiss_item": _unreviewed(_APPROVE, _call),
            "untaint": _untaint,
        },
        dismissal=_CALL_DISMISSAL,
    ),
    Tab(
        SessionsFeed(),
        load_session,
        session_view,
        SESSION_STYLES,
        "No session yet. Each agent client that runs a proxy or a hook shows here, with its taint.",
        {"untaint": _untaint},
    ),
    Tab(
        PinsFeed(),
        load_drift,
        drift_view,
        DRIFT_STYLES,
        "No pin drift: every pinned server surface is as it was first seen.",
        {"accept_pin": _DECIDE_DRIFT, "reject_pin": _DECIDE_DRIFT},
    ),
    Tab(
        AuditFeed(),
        load_audit,
        audit_view,
        AUDIT_STYLES,
        "The audit log is empty: every decision, automatic or a person's, is recorded here.",
    ),
)
"""Every tab, in the order the queue shows them (keys 1 to 6)."""

_BY_KIND = {tab.kind: tab for tab in TABS}

ITEM_ACTIONS = frozenset(action for tab in TABS for action in tab.actions)
"""Actions that act on the selected item: each applies only where its tab offers it."""


def tab_for(kind: str) -> Tab:
    """The tab of a kind of row."""
    return _BY_KIND[TabKind(kind)]
