"""The review screen: the queue on the left, the selected item and its reasons on the right."""

import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Input, TabbedContent, TabPane

from lazaretto.app.human import FRICTION_WINDOW, Confirmation, visible
from lazaretto.store import StoreUnavailable
from lazaretto.store.api import Mode
from lazaretto.store.decisions import DecisionError
from lazaretto.store.station.protocol import ProofError

from ..details import Detail, load_detail
from ..messages import (
    ClearanceCounted,
    CountsLoaded,
    DecisionTaken,
    DetailLoaded,
    PageLoaded,
    StoreChanged,
    StoreFailed,
)
from ..queue import PAGE_SIZE, QueueItem, entry_label, feeds
from ..widgets.detail_pane import DetailPane
from ..widgets.detail_views import DetailView, describe, full_body
from ..widgets.queue_list import PREFETCH_ROWS, ROW_LINES, QueueList
from .confirm import ClearanceRequest, ConfirmClearance, UnlockDialog
from .full_view import FullView

if TYPE_CHECKING:
    from ..app import ReviewApp

FILTER_DELAY = 0.3
"""Seconds of quiet typing before the filter runs."""

RELOAD_LIMIT = 1000
"""A live reload re-reads at most this many rows per feed; further rows load again on scroll."""


class MainScreen(Screen):
    """Lists what the agents were kept from, and takes the person's decisions on it."""

    BINDINGS = [
        Binding("enter", "show_full", "Show in full"),
        Binding("r", "release", "Release"),
        Binding("a", "approve", "Approve"),
        Binding("u", "untaint", "Untaint"),
        Binding("d", "dismiss_item", "Dismiss"),
        Binding("p", "accept_pin", "Accept pin"),
        Binding("x", "reject_pin", "Reject pin"),
        Binding("o", "unlock", "Unlock withheld"),
        Binding("slash", "filter", "Filter"),
        *(Binding(str(n), f"show_tab({n - 1})", show=False) for n in range(1, len(feeds()) + 1)),
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
        self._generations: dict[str, int] = {}
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
                    for feed in feeds().values():
                        with TabPane(feed.title, id=f"tab-{feed.kind}"):
                            yield QueueList(feed.kind, id=f"queue-{feed.kind}")
            yield DetailPane(id="detail")
        yield Footer()

    def on_mount(self) -> None:
        # Only the visible tab is read before the first frame; the counts follow it, and every
        # other tab is read when it is first shown, so opening costs the same on any store.
        self._load_page(self.active_list().kind, after=None, limit=self.first_page())
        self.set_interval(self.app.poll_interval, self._poll)
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

    def _load_page(self, kind: str, *, after: QueueItem | None, limit: int = PAGE_SIZE) -> None:
        generation = self._generations.get(kind, 0) + (1 if after is None else 0)
        self._generations[kind] = generation
        self._run(self._read_page, f"page-{kind}", kind, after, self._filter, limit, generation)

    def _run(self, work: Callable, group: str, *args: object) -> None:
        self.run_worker(partial(work, *args), thread=True, group=group, exit_on_error=False)

    def _read_page(
        self, kind: str, after: QueueItem | None, text: str, limit: int, generation: int
    ) -> None:
        store = self.app.store
        try:
            items = feeds(store.now())[kind].page(store, after=after, text=text, limit=limit)
        except StoreUnavailable as exc:
            self.post_message(StoreFailed(str(exc)))
            return
        self.post_message(PageLoaded(kind, items, after is None, len(items) < limit, generation))

    def _read_counts(self, initial: bool) -> None:
        store = self.app.store
        # Two reloads close together must not announce the same refused call twice.
        with self._blocked_lock:
            try:
                counts = store.review.attention()
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
        try:
            detail = load_detail(store, item)
        except StoreUnavailable as exc:
            self.post_message(StoreFailed(str(exc)))
            return
        view = describe(detail, store.clock()) if detail is not None else None
        self.post_message(DetailLoaded(item, detail, view))

    def _poll(self) -> None:
        self._run(self._read_version, "poll")

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
        for kind, feed in feeds().items():
            count = message.counts.get(kind, 0)
            tabs.get_tab(f"tab-{kind}").label = f"{feed.title} {count}" if count else feed.title
        for call in message.new_blocked:
            self.notify(
                f"{visible(call['server'])}/{visible(call['tool'])}: {visible(call['reason'] or 'refused')}\n"
                "See the Blocked tab; `a` approves it once.",
                title="A call was blocked",
                severity="warning",
                timeout=10,
                markup=False,
            )

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
        self.query_one(DetailPane).show(view)
        self.refresh_bindings()

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
        kinds = list(feeds())
        self.query_one("#queue", TabbedContent).active = f"tab-{kinds[index]}"

    # -- actions ----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Actions that do not apply to the selected item are shown disabled."""
        detail = self.detail
        kind = detail.item.kind if detail else None
        state = detail.item.state if detail else None
        applies = {
            "release": kind == "withheld" and state in ("withheld", "reviewed"),
            "approve": kind == "blocked" and state in ("pending", "reviewed"),
            "untaint": detail is not None and detail.tainted,
            "dismiss_item": kind in ("withheld", "blocked") and state in ("withheld", "pending"),
            "accept_pin": kind == "pins" and state == "pending",
            "reject_pin": kind == "pins" and state == "pending",
            "show_full": detail is not None,
            "unlock": detail is not None and bool(detail.record.get("redacted")),
        }
        if action == "unlock" and self.app.store.mode is not Mode.STATION:
            return False  # embedded mode has nothing to unlock: not even offered
        if action in applies:
            return True if applies[action] else None
        return True

    def action_show_full(self) -> None:
        """Show the selected item in full."""
        if self.detail is not None and self.view is not None:
            self.app.push_screen(FullView(self.view.title, full_body(self.detail, self.view)))

    def action_release(self) -> None:
        """Ask, then let the agent see this withheld field on its next read of the same content."""
        detail = self.detail
        if detail is None or not self.check_action("release", ()):
            return
        row = detail.record
        self._ask(
            "release",
            row["id"],
            "The agent will see this field's original text, hidden content removed, the next time it reads "
            f"the same content from {row['server']}/{row['tool'] or row['method']}. It stays in the store.",
            detail.item.reason,
            lambda store, note: store.decisions.release(row["id"], note=note),
            f"Released {row['id']}.",
        )

    def action_approve(self) -> None:
        """Ask, then let exactly this blocked call through once."""
        detail = self.detail
        if detail is None or not self.check_action("approve", ()):
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
        if detail is None or not detail.tainted or detail.item.session is None:
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
        if detail is None or not self.check_action("accept_pin", ()):
            return
        row = detail.record
        label = entry_label(row["kind"], row["name"])
        effect = (
            f"The pin of {row['server']}'s {label} is dropped: the server no longer offers it."
            if row["change"] == "removed"
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
        if detail is None or not self.check_action("reject_pin", ()):
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
        if detail is None or not self.check_action("dismiss_item", ()):
            return
        kind = "quarantine" if detail.item.kind == "withheld" else "blocked"
        key = detail.record["id"]
        done = f"Marked {detail.item.key} reviewed; it stays stopped."
        if self.app.store.mode is Mode.STATION:
            # With a station every decision is a person's, proven: dismissing too.
            self._ask(
                "dismiss",
                detail.item.key,
                "It is marked reviewed and no longer counts as waiting; it stays withheld or refused.",
                detail.item.reason,
                lambda store, note: store.decisions.dismiss(kind, key, note=note),
                done,
                clears=False,
            )
            return
        self._decide(lambda: self.app.store.decisions.dismiss(kind, key), done)

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
