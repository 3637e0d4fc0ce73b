"""What each decision puts to the person before it is taken, and how it is then taken.

No widgets here: the confirmation dialog (`screens/confirm.py`) shows an `Ask`'s request, and the
queue screen runs its `decide` once the person confirmed.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from textual.content import Content

from lazaretto.app.human import FRICTION_AFTER, Confirmation, hidden_payloads, release_effect
from lazaretto.proxy.policy import Policy
from lazaretto.store.opening import StoreAPI
from lazaretto.store.states import DriftChange, ReleasedAs

from .details import Detail
from .moments import Moments
from .queue import entry_label
from .widgets.detail_views import call_arguments, open_taint
from .widgets.field_view import revealed

WARNING_QUOTE = 40
"""How much of each hidden payload the release warning quotes (the original is shown whole)."""


@dataclass(frozen=True)
class ReleaseTexts:
    """What a release can give the agent, shown side by side, and what each choice does."""

    visible: Content
    original: Content
    hidden: str | None
    """The hidden content the original carries beyond the visible text, by kind; None: nothing
    to choose."""
    payloads: str | None
    """The same, each hidden payload quoted: the warning before the original is chosen."""
    effects: Mapping[ReleasedAs, str]


@dataclass(frozen=True)
class ClearanceRequest:
    """What the person is asked to confirm: the decision, what it does and clears, and why the
    item was stopped."""

    verb: str
    subject: str
    effect: str
    reason: str
    earlier: int = 0
    """Clearances people took within the friction window, before this one (counted on asking)."""
    clears: bool = True
    """False for a decision that keeps something stopped (reject): the code is asked, friction is not."""
    shows: Content | None = None
    """What the decision clears, in full: a call's arguments, every taint source."""
    shows_title: str = ""
    release: ReleaseTexts | None = None
    """For a release: the visible text and the original, to choose between."""

    @property
    def needs_note(self) -> bool:
        """Past a few clearances in the window, a note saying why is required too."""
        return self.clears and self.earlier >= FRICTION_AFTER


@dataclass(frozen=True)
class Confirmed:
    """The person confirmed (`confirmation`), and what they chose where the dialog offered a choice."""

    confirmation: Confirmation
    released_as: ReleasedAs = ReleasedAs.VISIBLE

    @property
    def note(self) -> str | None:
        """The note friction asked for, if it did."""
        return self.confirmation.note


def _no_options(confirmed: Confirmed) -> dict:
    return {}


@dataclass(frozen=True)
class Ask:
    """One decision put to the person: the dialog's request, the store's decision it takes once
    they confirmed, and what the app says after."""

    request: ClearanceRequest
    op: str
    """The store's decision, `decisions.approve`: a station is told it before the code is asked."""
    subject: object
    """What it acts on (the decision's first argument)."""
    done: Callable[[Confirmed], str]
    options: Callable[[Confirmed], dict] = field(default=_no_options)
    """Its other arguments, from what the person chose in the dialog."""

    def decide(self, store: StoreAPI, confirmed: Confirmed) -> object:
        """Take the decision through `store` (which carries the proof, with a station)."""
        namespace, _, method = self.op.partition(".")
        decision = getattr(getattr(store, namespace), method)
        return decision(self.subject, note=confirmed.note, **self.options(confirmed))


def _said(text: str) -> Callable[[Confirmed], str]:
    return lambda _: text


def release(detail: Detail, policy: Policy) -> Ask:
    """Let the agent read a withheld field: its visible text, or the original."""
    row = detail.record
    texts = ReleaseTexts(
        visible=revealed(row["cleaned"]),
        original=revealed(
            row["original"], excerpts=[s.get("excerpt") or "" for s in row["signals"]]
        ),
        hidden=hidden_payloads(row, quote=0),
        payloads=hidden_payloads(row, quote=WARNING_QUOTE),
        effects={what: release_effect(row, policy, what) for what in ReleasedAs},
    )
    return Ask(
        ClearanceRequest(
            "release",
            row["id"],
            texts.effects[ReleasedAs.VISIBLE],
            detail.item.reason,
            release=texts,
        ),
        "decisions.release",
        row["id"],
        lambda confirmed: (
            f"Released {row['id']}: the agent reads its {confirmed.released_as} text."
        ),
        lambda confirmed: {"released_as": confirmed.released_as},
    )


def approve(detail: Detail) -> Ask:
    """Let exactly this blocked call through once; the dialog repeats its arguments."""
    row = detail.record
    return Ask(
        ClearanceRequest(
            "approve",
            f"blocked call {row['id']} ({row['server']}/{row['tool']})",
            "The agent may make exactly this call, with these arguments, once, within the token's "
            "time window. Any other call stays refused and the session stays tainted.",
            row["reason"] or row["reason_code"] or "refused",
            shows=call_arguments(row),
            shows_title="The call it lets through",
        ),
        "decisions.approve",
        row["id"],
        _said(f"Approved blocked call {row['id']} once."),
    )


def untaint(detail: Detail, moments: Moments) -> Ask:
    """Clear the taint of the item's session; the dialog lists every source it clears."""
    session = detail.item.session
    assert session is not None  # the untaint rule applies only to an item of a tainted session
    sources = [event for event in detail.taint if event["cleared_at"] is None]
    # Only what the person was shown is cleared: a read arriving meanwhile keeps its taint.
    seen = max(event["id"] for event in sources)
    count = f"{len(sources)} source{'s' if len(sources) > 1 else ''}"
    return Ask(
        ClearanceRequest(
            "untaint",
            f"session {session}",
            "Outbound tools (write, send, post, delete) work again for this session until it reads "
            "untrusted content again. What it already read stays in its context.",
            f"it read untrusted content from {count}, listed above",
            shows=open_taint(detail, moments),
            shows_title=f"The taint it clears ({count})",
        ),
        "decisions.untaint",
        session,
        _said(f"Session {session} is no longer tainted."),
        lambda confirmed: {"seen_up_to": seen},
    )


def accept_drift(detail: Detail) -> Ask:
    """Pin the drifted entry as it is now: the agent sees it again and may call it."""
    row = detail.record
    label = entry_label(row["kind"], row["name"])
    effect = (
        f"The pin of {row['server']}'s {label} is dropped: the server no longer offers it."
        if row["change"] == DriftChange.REMOVED
        else f"{row['server']}'s {label} is pinned as it is now: the agent sees it in its next list "
        "and may call it. The words marked added become part of what the agent reads."
    )
    return Ask(
        ClearanceRequest(
            "accept",
            f"pin drift {row['id']} ({row['server']} {label})",
            effect,
            f"{detail.item.reason} since it was pinned",
        ),
        "decisions.accept_drift",
        row["id"],
        _said(f"Accepted pin drift {row['id']}: the new version of {label} is pinned."),
    )


def reject_drift(detail: Detail) -> Ask:
    """Keep the pinned version: the drifted entry stays hidden and refused."""
    row = detail.record
    label = entry_label(row["kind"], row["name"])
    return Ask(
        ClearanceRequest(
            "reject",
            f"pin drift {row['id']} ({row['server']} {label})",
            f"{row['server']}'s {label} stays hidden from the agent and calls to it stay refused "
            "(-32003), until the server offers the pinned version again.",
            f"{detail.item.reason} since it was pinned",
            clears=False,
        ),
        "decisions.reject_drift",
        row["id"],
        _said(f"Rejected pin drift {row['id']}: {label} stays hidden."),
    )


def review(key: str, reason: str, op: str, subject: object, *, dismissing: bool) -> Ask:
    """Dismiss an item (`key`), or take its dismissal back (`op` on `subject`): both keep it
    stopped. Embedded, it is taken at once (`z` undoes a dismissal); a station asks for a code,
    as for any decision."""
    if dismissing:
        request = ClearanceRequest(
            "dismiss",
            key,
            "It is marked reviewed and no longer counts as waiting; it stays withheld or refused.",
            reason,
            clears=False,
        )
        done = f"Marked {key} reviewed; it stays stopped. z takes it back."
    else:
        request = ClearanceRequest(
            "take back the dismissal of",
            key,
            "It waits for a decision again; it stays withheld or refused meanwhile.",
            reason,
            clears=False,
        )
        done = f"{key} waits for a decision again."
    return Ask(request, op, subject, _said(done))
