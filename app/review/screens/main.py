"""The review screen: the queue on the left, the selected item and its reasons on the right."""

import threading
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Input, TabbedContent, TabPane

from lazaretto.app.human import FRICTION_WINDOW, Confirmation, release_effect, visible
from lazaretto.store import StoreUnavailable
from lazaretto.store.api import Mode
from lazaretto.store.decisions import DecisionError
from lazaretto.store.states import DriftChange
from lazaretto.store.station.protocol import ProofError

from ..details import Detail
from ..messages import (
    AgesMoved,
    ClearanceCounted,
    CountsLoaded,
    DecisionTaken,
    DetailLoaded,
    PageLoaded,
    StoreChanged,
    StoreFailed,
)
from ..queue import PAGE_SIZE, QueueItem, TabKind, entry_label
from ..tabs import ITEM_ACTIONS, TABS, Tab, tab_for
from ..widgets.detail_pane import DetailPane
from ..widgets.detail_views import DetailView
from ..widgets.queue_list import PREFETCH_ROWS, ROW_LINES, QueueList
from .confirm import ClearanceRequest, ConfirmClearance, UnlockDialog
from .full_view import FullView

if TYPE_CHECKING:
    from ..app import ReviewApp

FILTER_DELAY = 0.3
"""Seconds of quiet typing before the filter runs."""

RELOAD_LIMIT = 1000
"""A live reload re-reads at most this many rows per feed; further rows load again on scroll."""


_ITEM_BINDINGS = [
    Binding(
        "r",
        "release",
        "Release",
        tooltip="Let the agent read this withheld field (typed confirmation).",
    ),
    Binding(
        "a",
        "approve",
        "Approve",
        tooltip="Let this blocked call through once (typed confirmation).",
    ),
    Binding(
        "u",
        "untaint",
        "Untaint",
        tooltip="Clear the taint of this item's session (typed confirmation).",
    ),
    Binding(
        "d", "dismiss_item", "Dismiss", tooltip="Mark it reviewed; it stays withheld or refused."
    ),
    Binding(
        "p",
        "accept_pin",
        "Accept pin",
        tooltip="Pin the drifted entry's new version (typed confirmation).",
    ),
    Binding("x", "reject_pin", "Reject pin", tooltip="Keep the drifted entry hidden and refused."),
]
_ITEM_KEYS = {binding.key: binding for binding in _ITEM_BINDINGS}


class MainScreen(Screen):
    """Lists what the agents were kept from, and takes the person's decisions on it."""

    BINDINGS = [
        Binding("enter", "show_full", "Show in full", tooltip="Open the selected item uncut."),
        *_ITEM_BINDINGS,
        Binding(
            "o",
            "unlock",
            "Unlock withheld",
            tooltip="With a station: read withheld content in this review session (passphrase).",
        ),
        Binding("slash", "filter", "Filter", tooltip="Show only rows matching some text."),
        *(
            Binding(str(n), f"show_tab({n - 1})", show=False, tooltip=f"Show the {tab.title} tab.")
            for n, tab in enumerate(TABS, 1)
        ),
    ]
    """Keyboard first: every action is here, in the footer and in the command palette."""

    app: "ReviewApp"

    def __init__(self) -> None:
        super().__init__()
        self.detail: Detail | None = None
        self.view: DetailView | None = None
        self._reading: QueueItem | None = None
        """The row whose detail is being read, so the same row is not read twice at once."""
        self._started = False
        """Set once the first page and its detail are shown: what the first frame can do without is read after."""
        self._filter = ""
        self._filter_timer: Timer | None = None
        self._generations: dict[TabKind, int] = {}
        self._version: int | None = None
        self._last_blocked_id: int | None = None
        self._blocked_lock = threading.Lock()

    # -- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="⚓")
        with Horizontal(id="main"):
            with Vertical(id="queue-pane"):
                yield Input(placeholder="/ filter: server, tool, path, signal, id", id="filter")
                with TabbedContent(id="queue"):
                    for tab in TABS:
                        with TabPane(tab.title, id=f"tab-{tab.kind}"):
                            yield QueueList(tab, id=f"queue-{tab.kind}")
            yield DetailPane(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        # Only the visible tab is read before the first frame; the counts follow it, and every
        # other tab is read when it is first shown, so opening costs the same on any store.
        self._load_page(self.active_list().kind, after=None, limit=self.first_page())
        self.set_interval(self.app.poll_interval, self._poll)
        self.set_interval(self.app.age_interval, self._move_ages)
        self.active_list().focus()

    def active_list(self) -> QueueList:
        """The list on the visible tab."""
        pane = self.query_one("#queue", TabbedContent).active_pane
        assert pane is not None
        return pane.query_one(QueueList)

    def lists(self) -> list[QueueList]:
        """Every feed's list."""
        return list(self.query(QueueList))

    def first_page(self) -> int:
        """Rows that fill a list plus the prefetch margin: the first read of a list is no bigger."""
        return min(PAGE_SIZE, self.app.size.height // ROW_LINES + PREFETCH_ROWS)

    # -- reading the store (thread workers that only post messages) ------------------

    def reload(self) -> None:
        """Re-read the rows of every list read so far, and the counts."""
        for queue in self.lists():
            if queue.kind in self._generations:
                limit = min(max(self.first_page(), len(queue.items)), RELOAD_LIMIT)
                self._load_page(queue.kind, after=None, limit=limit)
        self._run(self._read_counts, "counts", False)

    def _load_page(self, kind: TabKind, *, after: QueueItem | None, limit: int = PAGE_SIZE) -> None:
        generation = self._generations.get(kind, 0) + (1 if after is None else 0)
        self._generations[kind] = generation
        self._run(self._read_page, f"page-{kind}", kind, after, self._filter, limit, generation)

    def _run(self, work: Callable, group: str, *args: object) -> None:
        self.run_worker(partial(work, *args), thread=True, group=group, exit_on_error=False)

    def _read_page(
        self, kind: TabKind, after: QueueItem | None, text: str, limit: int, generation: int
    ) -> None:
        store = self.app.store
        try:
            items = tab_for(kind).feed.page(store, after=after, text=text, limit=limit)
        except StoreUnavailable as exc:
            self.post_message(StoreFailed(str(exc)))
            return
        self.post_message(PageLoaded(kind, items, after is None, len(items) < limit, generation))

    def _read_counts(self, initial: bool) -> None:
        store = self.app.store
        # Two reloads close together must not announce the same refused call twice.
        with self._blocked_lock:
            try:
                counts = {tab.kind: tab.feed.attention(store) for tab in TABS}
                newest = store.review.newest_blocked()
                new_blocked = []
                if (
                    not initial
                    and self._last_blocked_id is not None
                    and newest > self._last_blocked_id
                ):
                    new_blocked = store.review.blocked_since(self._last_blocked_id)
                self._last_blocked_id = newest
            except StoreUnavailable as exc:
                self.post_message(StoreFailed(str(exc)))
                return
        self.post_message(CountsLoaded(counts, new_blocked))

    def _read_detail(self, item: QueueItem) -> None:
        store = self.app.store
        tab = tab_for(item.kind)
        try:
            detail = tab.load(store, self.app.policy, item)
        except StoreUnavailable as exc:
            self.post_message(StoreFailed(str(exc)))
            return
        view = tab.view(detail, store.clock()) if detail is not None else None
        self.post_message(DetailLoaded(item, detail, view))

    def _poll(self) -> None:
        self._run(self._read_version, "poll")

    def _move_ages(self) -> None:
        # Ages follow the clock, not the store: without this they stand still until new data arrives.
        now = self.app.store.clock()
        self.active_list().move_ages(now)
        if self.detail is not None:
            self._run(self._describe_again, "ages", self.detail, now)

    def _describe_again(self, detail: Detail, now: datetime) -> None:
        self.post_message(AgesMoved(detail, tab_for(detail.item.kind).view(detail, now)))

    def _read_version(self) -> None:
        try:
            version = self.app.store.data_version()
        except StoreUnavailable:
            # The next poll tries again; a store that stays away shows up on the next read.
            return
        if self._version is not None and version != self._version:
            self.post_message(StoreChanged())
        self._version = version

    # -- messages up from the lists and the workers -----------------------------------

    @on(PageLoaded)
    def page_loaded(self, message: PageLoaded) -> None:
        """Put a page into its list, unless a newer request superseded it."""
        if message.generation != self._generations.get(message.kind):
            return
        queue = self.query_one(f"#queue-{message.kind}", QueueList)
        queue.show_items(
            message.items,
            now=self.app.store.clock(),
            replace=message.replace,
            exhausted=message.exhausted,
        )
        if message.replace and queue is self.active_list():
            if queue.current is None:
                self._show(None, None)
                self._first_frame_shown()
            else:
                self._follow(queue.current)

    def _first_frame_shown(self) -> None:
        # The counts scan an index as long as the table: read them once the first frame is up.
        if not self._started:
            self._started = True
            self.call_after_refresh(self._run, self._read_counts, "counts", True)

    @on(CountsLoaded)
    def counts_loaded(self, message: CountsLoaded) -> None:
        """Show waiting counts on the tabs, and announce newly refused calls."""
        tabs = self.query_one("#queue", TabbedContent)
        for tab in TABS:
            count = message.counts.get(tab.kind, 0)
            tabs.get_tab(f"tab-{tab.kind}").label = f"{tab.title} {count}" if count else tab.title
        for call in message.new_blocked:
            self.notify(
                f"{visible(call['server'])}/{visible(call['tool'])}: {visible(call['reason'] or 'refused')}\n"
                "See the Blocked tab; `a` approves it once.",
                title="A call was blocked",
                severity="warning",
                timeout=10,
                markup=False,
            )

    @on(AgesMoved)
    def ages_moved(self, message: AgesMoved) -> None:
        """Show the selected item with its ages moved on, where it is still selected and changed."""
        if message.detail is self.detail and message.view != self.view:
            self.view = message.view
            self.query_one(DetailPane).show(message.view, keep_scroll=True)

    @on(StoreChanged)
    def store_changed(self) -> None:
        """Another process wrote: re-read what is shown."""
        self.reload()

    @on(StoreFailed)
    def store_failed(self, message: StoreFailed) -> None:
        """Say the store is away; polling keeps trying."""
        # A detail read that failed will not answer: the next look at that row must read it again.
        self._reading = None
        self.notify(message.text, title="Store unavailable", severity="error", markup=False)

    @on(QueueList.MoreWanted)
    def more_wanted(self, message: QueueList.MoreWanted) -> None:
        """Load the page after the last row of that list."""
        self._load_page(message.queue.kind, after=message.queue.items[-1])

    @on(QueueList.ItemHighlighted)
    def item_highlighted(self, message: QueueList.ItemHighlighted) -> None:
        """The detail pane follows the cursor of the visible list."""
        if message.queue is self.active_list():
            self._follow(message.item)

    @on(TabbedContent.TabActivated)
    def tab_activated(self) -> None:
        """A new tab: read its first page if it never was, else show its current row; focus its list."""
        queue = self.active_list()
        queue.focus()
        queue.move_ages(self.app.store.clock())
        if queue.kind not in self._generations:
            self._load_page(queue.kind, after=None, limit=self.first_page())
        elif queue.current is None:
            self._show(None, None)
        else:
            self._follow(queue.current)

    @on(QueueList.OptionSelected)
    def option_selected(self) -> None:
        """Enter (or a click) on a row shows it in full."""
        self.action_show_full()

    def _follow(self, item: QueueItem) -> None:
        # A page that moves the cursor asks twice for the same row (highlight, then page): read it once.
        if item == self._reading:
            return
        self._reading = item
        self._run(self._read_detail, "detail", item)

    @on(DetailLoaded)
    def detail_loaded(self, message: DetailLoaded) -> None:
        """Show the loaded item if it is still the one under the cursor."""
        if message.item == self._reading:
            self._reading = None
        current = self.active_list().current
        if (
            current is not None
            and current.kind == message.item.kind
            and current.key == message.item.key
        ):
            self._show(message.detail, message.view)
            self._first_frame_shown()

    def _show(self, detail: Detail | None, view: DetailView | None) -> None:
        self.detail = detail
        self.view = view
        self.query_one(DetailPane).show(view, empty=self._empty_hint())
        self.refresh_bindings()

    def _empty_hint(self) -> str:
        """What the pane says when the visible list has nothing to select."""
        if self._filter.strip():
            return f"Nothing on this tab matches the filter {visible(self._filter.strip())!r}."
        hint = self.active_tab().empty
        if self.app.demo:
            return hint
        return f"{hint}\n\nTry `lazaretto demo` for an example."

    # -- filter -----------------------------------------------------------------------

    @on(Input.Changed, "#filter")
    def filter_changed(self) -> None:
        """Filter once typing pauses: a rare word scans the whole table, so not at every key."""
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_DELAY, self._apply_filter)

    @on(Input.Submitted, "#filter")
    def filter_submitted(self) -> None:
        """Enter filters at once and goes back to the list."""
        self._apply_filter()
        self.active_list().focus()

    def _apply_filter(self) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
            self._filter_timer = None
        text = self.query_one("#filter", Input).value
        if text == self._filter:
            return
        # Every list shows only the rows matching the filter text; one never read yet reads with it when shown.
        self._filter = text
        for queue in self.lists():
            if queue.kind in self._generations:
                self._load_page(queue.kind, after=None, limit=self.first_page())

    def action_filter(self) -> None:
        """Focus the filter box."""
        self.query_one("#filter", Input).focus()

    def action_show_tab(self, index: int) -> None:
        """Switch to the queue tab at `index`."""
        self.query_one("#queue", TabbedContent).active = f"tab-{TABS[index].kind}"

    # -- actions ----------------------------------------------------------------------

    def active_tab(self) -> Tab:
        """The tab on show."""
        return self.active_list().tab

    def why_not(self, action: str) -> str | None:
        """Why an item action does not apply to the selected item now; None when it does."""
        tab = self.active_tab()
        rule = tab.actions.get(action)
        if rule is None:
            where = " or ".join(f"the {t.title} tab" for t in TABS if action in t.actions)
            return f"it acts on {where}, not on {tab.title}"
        detail = self.detail
        if detail is None or detail.item.kind != tab.kind:
            return f"nothing is selected on the {tab.title} tab"
        return rule(detail)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Textual's rule: True shows a key, None shows it greyed out, False hides it.

        An item action the visible tab never offers is hidden; one it offers that does not
        apply to the selected item is greyed out (its key says why, see `on_key`).
        """
        if action == "show_full":
            return True if self.detail is not None else None
        if action == "unlock":
            if self.app.store.mode is not Mode.STATION:
                return False  # embedded mode has nothing to unlock: not even offered
            return True if self.detail is not None and self.detail.record.get("redacted") else None
        if action in ITEM_ACTIONS:
            if action not in self.active_tab().actions:
                return False
            return True if self.why_not(action) is None else None
        return True

    def on_key(self, event: events.Key) -> None:
        """A key whose action does not apply says why, instead of doing nothing."""
        binding = _ITEM_KEYS.get(event.key)
        if binding is None or self.check_action(binding.action, ()):
            return
        event.stop()
        self.notify(
            f"{binding.key_display or binding.key} ({binding.description}) does not apply: "
            f"{self.why_not(binding.action)}.",
            title=binding.description,
            severity="warning",
            markup=False,
        )

    def action_show_full(self) -> None:
        """Show the selected item in full."""
        detail, view = self.detail, self.view
        if detail is None or view is None:
            return
        tab = tab_for(detail.item.kind)
        body = tab.in_full(detail) if tab.in_full else None
        self.app.push_screen(FullView(view.title, body or view.body))

    def action_release(self) -> None:
        """Ask, then let the agent see this withheld field on its next read of the same content."""
        detail = self.detail
        if detail is None or self.why_not("release") is not None:
            return
        row = detail.record
        self._ask(
            "release",
            row["id"],
            release_effect(row, self.app.policy),
            detail.item.reason,
            lambda store, note: store.decisions.release(row["id"], note=note),
            f"Released {row['id']}.",
        )

    def action_approve(self) -> None:
        """Ask, then let exactly this blocked call through once."""
        detail = self.detail
        if detail is None or self.why_not("approve") is not None:
            return
        row = detail.record
        self._ask(
            "approve",
            f"blocked call {row['id']} ({row['server']}/{row['tool']})",
            "The agent may make exactly this call, with these arguments, once, within the token's time "
            "window. Any other call stays refused and the session stays tainted.",
            row["reason"] or row["reason_code"] or "refused",
            lambda store, note: store.decisions.approve(row["id"], note=note),
            f"Approved blocked call {row['id']} once.",
        )

    def action_untaint(self) -> None:
        """Ask, then clear the taint of the selected item's session."""
        detail = self.detail
        if detail is None or self.why_not("untaint") is not None or detail.item.session is None:
            return
        session = detail.item.session
        first = next(event for event in detail.taint if event["cleared_at"] is None)
        self._ask(
            "untaint",
            f"session {session}",
            "Outbound tools (write, send, post, delete) work again for this session until it reads "
            "untrusted content again. What it already read stays in its context.",
            f"tainted by {first['server']}/{first['tool'] or first['method']}: {first['reason']}",
            lambda store, note: store.decisions.untaint(session, note=note),
            f"Session {session} is no longer tainted.",
        )

    def action_accept_pin(self) -> None:
        """Ask, then pin the drifted entry as it is now: the agent sees it again and may call it."""
        detail = self.detail
        if detail is None or self.why_not("accept_pin") is not None:
            return
        row = detail.record
        label = entry_label(row["kind"], row["name"])
        effect = (
            f"The pin of {row['server']}'s {label} is dropped: the server no longer offers it."
            if row["change"] == DriftChange.REMOVED
            else f"{row['server']}'s {label} is pinned as it is now: the agent sees it in its next list and may "
            "call it. The words marked added become part of what the agent reads."
        )
        self._ask(
            "accept",
            f"pin drift {row['id']} ({row['server']} {label})",
            effect,
            f"{detail.item.reason} since it was pinned",
            lambda store, note: store.decisions.accept_drift(row["id"], note=note),
            f"Accepted pin drift {row['id']}: the new version of {label} is pinned.",
        )

    def action_reject_pin(self) -> None:
        """Ask, then keep the pinned version: the drifted entry stays hidden and refused."""
        detail = self.detail
        if detail is None or self.why_not("reject_pin") is not None:
            return
        row = detail.record
        label = entry_label(row["kind"], row["name"])
        self._ask(
            "reject",
            f"pin drift {row['id']} ({row['server']} {label})",
            f"{row['server']}'s {label} stays hidden from the agent and calls to it stay refused (-32003), "
            "until the server offers the pinned version again.",
            f"{detail.item.reason} since it was pinned",
            lambda store, note: store.decisions.reject_drift(row["id"], note=note),
            f"Rejected pin drift {row['id']}: {label} stays hidden.",
            clears=False,
        )

    def action_dismiss_item(self) -> None:
        """Mark the selected item reviewed; it stays withheld or refused."""
        detail = self.detail
        dismiss = tab_for(detail.item.kind).dismiss if detail else None
        if detail is None or dismiss is None or self.why_not("dismiss_item") is not None:
            return
        done = f"Marked {detail.item.key} reviewed; it stays stopped."
        if self.app.store.mode is Mode.STATION:
            # With a station every decision is a person's, proven: dismissing too.
            self._ask(
                "dismiss",
                detail.item.key,
                "It is marked reviewed and no longer counts as waiting; it stays withheld or refused.",
                detail.item.reason,
                lambda store, note: dismiss(store, detail, note),
                done,
                clears=False,
            )
            return
        self._decide(partial(dismiss, self.app.store, detail, None), done)

    def _ask(
        self,
        verb: str,
        subject: str,
        effect: str,
        reason: str,
        decide: Callable,
        done: str,
        *,
        clears: bool = True,
    ) -> None:
        """Count recent clearances, then open the confirmation modal (see `clearance_counted`).

        `clears` is False for a decision that keeps something stopped: it asks for the code, never a note.
        """
        request = partial(ClearanceRequest, verb, subject, effect, reason, clears=clears)
        self._run(self._read_clearances, "ask", request, decide, done)

    def _read_clearances(
        self, request: Callable[[int], ClearanceRequest], decide: Callable, done: str
    ) -> None:
        try:
            earlier = self.app.store.decisions.clearances(within=FRICTION_WINDOW)
        except StoreUnavailable as exc:
            self.post_message(StoreFailed(str(exc)))
            return
        self.post_message(ClearanceCounted(request(earlier), decide, done))

    @on(ClearanceCounted)
    def clearance_counted(self, message: ClearanceCounted) -> None:
        """Open the modal; only a confirmation leads to `decide(store, note)`.

        With a station the confirmation is the passphrase, sent with the decision and checked there.
        """
        verb = message.request.verb

        def confirmed(confirmation: Confirmation | None) -> None:
            if confirmation is None:
                self.notify("Nothing was changed.", title=verb.capitalize(), markup=False)
                return
            store = confirmation.on(self.app.store)
            self._decide(partial(message.decide, store, confirmation.note), message.done)

        self.app.push_screen(
            ConfirmClearance(
                message.request,
                self.app.new_challenge,
                passphrase=self.app.store.mode is Mode.STATION,
            ),
            confirmed,
        )

    def _decide(self, decide: Callable, done: str) -> None:
        self._run(self._write_decision, "decide", decide, done)

    def _write_decision(self, decide: Callable, done: str) -> None:
        try:
            decide()
        except (DecisionError, StoreUnavailable, ProofError) as exc:
            self.post_message(DecisionTaken(f"{exc}. Nothing was changed.", False))
            return
        self.post_message(DecisionTaken(done, True))

    # -- unlocking withheld content (with a station) ------------------------------------

    def action_unlock(self) -> None:
        """Ask for the passphrase, once per review session, to read withheld content."""

        def typed(passphrase: str | None) -> None:
            if passphrase:
                self._run(self._unlock, "unlock", passphrase)

        self.app.push_screen(UnlockDialog(), typed)

    def _unlock(self, passphrase: str) -> None:
        try:
            self.app.store.unlock(passphrase)
        except (StoreUnavailable, ProofError) as exc:
            self.post_message(DecisionTaken(f"{exc}. Withheld content stays hidden.", False))
            return
        self.post_message(
            DecisionTaken("Withheld content is readable in this review session.", True)
        )

    @on(DecisionTaken)
    def decision_taken(self, message: DecisionTaken) -> None:
        """Say what happened, and re-read (our own writes do not move data_version)."""
        self.notify(message.text, severity="information" if message.ok else "error", markup=False)
        self._reading = None  # an unlock changes what the selected row shows
        self.reload()
