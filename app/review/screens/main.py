"""The review screen: the queue and the selected item with its reasons, side by side or stacked."""

import threading
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Tabs
from textual.widgets import Tab as TabLabel

from lazaretto.app.human import FRICTION_WINDOW, Confirmation, visible
from lazaretto.store import StoreUnavailable
from lazaretto.store.decisions import DecisionError
from lazaretto.store.modes import Mode
from lazaretto.store.station.protocol import ProofError

from .. import asks, desktop
from ..details import Detail
from ..keys import DECISIONS
from ..messages import (
    After,
    AgesMoved,
    ClearanceCounted,
    CountsLoaded,
    Cursor,
    DecisionTaken,
    DetailLoaded,
    PageLoaded,
    StoreChanged,
    StoreFailed,
)
from ..moments import Moments
from ..queue import PAGE_SIZE, QueueItem, TabKind
from ..tabs import ITEM_ACTIONS, TABS, Tab, tab_for
from ..widgets.detail_pane import DetailPane
from ..widgets.detail_views import DetailView
from ..widgets.filter_line import FilterLine
from ..widgets.footer import ReviewFooter
from ..widgets.queue_list import PREFETCH_ROWS, QueueList
from ..widgets.top_bar import TopBar, protection
from .confirm import ConfirmClearance, UnlockDialog
from .full_view import FullView

if TYPE_CHECKING:
    from ..app import ReviewApp

RELOAD_LIMIT = 1000
"""A live reload re-reads at most this many rows per feed; further rows load again on scroll."""

SIDE_BY_SIDE_FROM = 120
"""Screen columns from which the queue sits beside the detail; below, it sits above it."""

ANNOUNCED = 5
"""Newly stopped items announced one by one at a poll; more are counted in the tabs."""

_ITEM_KEYS = {binding.key: binding for binding in DECISIONS}


class MainScreen(Screen):
    """Lists what the agents were kept from, and takes the person's decisions on it."""

    BINDINGS = [
        Binding("enter", "show_full", "Full view", tooltip="Open the selected item uncut."),
        *DECISIONS,
        Binding(
            "z",
            "undo_dismiss",
            "Undo dismiss",
            tooltip="Take back the last dismissal made here: the item waits again.",
        ),
        Binding("n", "next_waiting", "Next", tooltip="The next item waiting for you, on any tab."),
        Binding(
            "N",
            "next_waiting(-1)",
            "Previous",
            show=False,
            tooltip="The previous item waiting for you, on any tab.",
        ),
        Binding(
            "o",
            "unlock",
            "Unlock withheld",
            tooltip="With a station: read withheld content in this review session (passphrase).",
        ),
        Binding("slash", "filter", "Filter", tooltip="Show only rows matching some text."),
        Binding(
            "t",
            "toggle_times",
            "Times",
            show=False,
            tooltip="Show times as their UTC time, or as their age again.",
        ),
        *(
            Binding(str(n), f"show_tab({n - 1})", show=False, tooltip=f"Show the {tab.title} tab.")
            for n, tab in enumerate(TABS, 1)
        ),
    ]
    """Keyboard first: every action is here, in the footer (where it applies) and in the palette."""

    app: "ReviewApp"

    def __init__(self) -> None:
        super().__init__()
        self.detail: Detail | None = None
        self.view: DetailView | None = None
        self.absolute_times = False
        """Times are shown as their UTC time (`t`), else as their age."""
        self._reading: QueueItem | None = None
        """The row whose detail is being read, so the same row is not read twice at once."""
        self._started = False
        """Set once the first page and its detail are shown: what the first frame can do without is read after."""
        self._generations: dict[TabKind, int] = {}
        self._version: int | None = None
        self._counts: dict[TabKind, int] = {}
        self._newest: tuple[int, int] | None = None
        """The newest refused call's id and withheld field's rowid seen, to announce what follows."""
        self._newest_lock = threading.Lock()
        self._cursor: Cursor | None = None
        """Where a list's cursor goes once it is read again (after a decision, or `n` to a new tab)."""
        self._dismissed: tuple[TabKind, str] | None = None
        """The last decision made here, when it was a dismissal: what `z` takes back."""

    # -- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(protection(self.app.store), notice=self.app.notice, id="top")
        yield Tabs(*(TabLabel(tab.title, id=f"tab-{tab.kind}") for tab in TABS), id="tabs")
        yield FilterLine(id="filter")
        with Container(id="main"):
            with ContentSwitcher(id="queue", initial=f"queue-{TABS[0].kind}"):
                for tab in TABS:
                    yield QueueList(tab, id=f"queue-{tab.kind}")
            yield DetailPane(id="detail")
        yield ReviewFooter()

    def on_mount(self) -> None:
        # Only the visible tab is read before the first frame; the counts follow it, and every
        # other tab is read when it is first shown, so opening costs the same on any store.
        self._load_page(self.active_list().kind, after=None, limit=self.first_page())
        self.set_interval(self.app.poll_interval, self._poll)
        self.set_interval(self.app.age_interval, self._move_ages)
        self.active_list().focus()

    def on_resize(self, event: events.Resize) -> None:
        """Below a width the queue sits above the detail, one line per row, so neither is cramped."""
        stacked = event.size.width < SIDE_BY_SIDE_FROM
        self.set_class(stacked, "-stacked")
        for queue in self.lists():
            queue.set_one_line(stacked)

    def active_list(self) -> QueueList:
        """The list on the visible tab."""
        current = self.query_one("#queue", ContentSwitcher).current
        return self.query_one(f"#{current}", QueueList)

    def lists(self) -> list[QueueList]:
        """Every feed's list."""
        return list(self.query(QueueList))

    def first_page(self) -> int:
        """Rows that fill a list plus the prefetch margin: the first read of a list is no bigger."""
        return min(PAGE_SIZE, self.app.size.height + PREFETCH_ROWS)

    def moments(self) -> Moments:
        """How times are said now: as ages at the store's clock, or as UTC times."""
        return Moments(self.app.store.clock(), self.absolute_times)

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
        text = self.query_one(FilterLine).applied
        self._run(self._read_page, f"page-{kind}", kind, after, text, limit, generation)

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
        # Two reloads close together must not announce the same item twice.
        with self._newest_lock:
            try:
                counts = {tab.kind: tab.feed.attention(store) for tab in TABS}
                newest = (store.review.newest_blocked(), store.review.newest_withheld())
                seen = self._newest
                new_blocked, new_withheld = [], []
                if not initial and seen is not None:
                    if newest[0] > seen[0]:
                        new_blocked = store.review.blocked_since(seen[0], ANNOUNCED)
                    if newest[1] > seen[1]:
                        new_withheld = store.review.withheld_since(seen[1], ANNOUNCED)
                self._newest = newest
            except StoreUnavailable as exc:
                self.post_message(StoreFailed(str(exc)))
                return
        self.post_message(CountsLoaded(counts, new_blocked, new_withheld))

    def _read_detail(self, item: QueueItem) -> None:
        store = self.app.store
        tab = tab_for(item.kind)
        try:
            detail = tab.load(store, self.app.policy, item)
        except StoreUnavailable as exc:
            self.post_message(StoreFailed(str(exc)))
            return
        view = tab.view(detail, self.moments()) if detail is not None else None
        self.post_message(DetailLoaded(item, detail, view))

    def _poll(self) -> None:
        self._run(self._read_version, "poll")

    def _move_ages(self) -> None:
        # Ages follow the clock, not the store: without this they stand still until new data arrives.
        moments = self.moments()
        self.active_list().move_ages(moments)
        if self.detail is not None:
            self._run(self._describe_again, "ages", self.detail, moments)

    def _describe_again(self, detail: Detail, moments: Moments) -> None:
        self.post_message(AgesMoved(detail, tab_for(detail.item.kind).view(detail, moments)))

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
            moments=self.moments(),
            replace=message.replace,
            exhausted=message.exhausted,
        )
        if not message.replace:
            return
        if self._cursor is not None and self._cursor.kind == queue.kind:
            self._place_cursor(queue, self._cursor)
            self._cursor = None
        if queue is self.active_list():
            if queue.current is None:
                self._show(None, None)
                self._first_frame_shown()
            else:
                self._follow(queue.current)

    def _place_cursor(self, queue: QueueList, cursor: Cursor) -> None:
        """After a decision: past the decided row to the next one waiting, or onto a row."""
        if cursor.onto:
            queue.select_key(cursor.key)
            return
        current = queue.current
        waiting = queue.waiting_indexes()
        if current is not None and current.key == cursor.key and not current.waiting and waiting:
            # The decided row left the waiting rows: the one that took its place comes next.
            queue.highlighted = min(cursor.index, waiting[-1])

    def _first_frame_shown(self) -> None:
        # The counts scan an index as long as the table: read them once the first frame is up.
        if not self._started:
            self._started = True
            self.call_after_refresh(self._run, self._read_counts, "counts", True)

    @on(CountsLoaded)
    def counts_loaded(self, message: CountsLoaded) -> None:
        """Show waiting counts on the tabs and in the top line; announce what was newly stopped."""
        self._counts = message.counts
        tabs = self.query_one("#tabs", Tabs)
        for tab in TABS:
            count = message.counts.get(tab.kind, 0)
            label = tabs.query_one(f"#tab-{tab.kind}", TabLabel)
            label.label = f"{tab.title} {count}" if count else tab.title
        self.query_one(TopBar).waiting = self.waiting_count()
        moments = self.moments()
        announcements = [
            (
                "A call was blocked",
                f"{visible(call['server'])}/{visible(call['tool'])}: "
                f"{visible(moments.in_text(call['reason'] or 'refused'))}\n"
                "See the Blocked tab; `a` approves it once.",
            )
            for call in message.new_blocked
        ] + [
            (
                "A field was withheld",
                f"{visible(field['server'])}/{visible(field['tool'] or field['method'])}: "
                f"{visible(field['id'])} in {visible(field['path'])}\nSee the Withheld tab; `r` "
                "releases it after you read why.",
            )
            for field in message.new_withheld
        ]
        if not announcements:
            return
        # The person may be looking at the agent's pane: a bell reaches them there.
        self.app.bell()
        for title, text in announcements:
            self.notify(text, title=title, severity="warning", timeout=10, markup=False)
        if self.app.desktop_notifications:
            self._run(self._notify_desktop, "desktop", announcements)

    def _notify_desktop(self, announcements: list[tuple[str, str]]) -> None:
        for title, text in announcements:
            desktop.notify(f"Lazaretto: {title.lower()}", text.partition("\n")[0])

    def waiting_count(self) -> int:
        """Items waiting for a decision over every tab whose rows can wait."""
        return sum(self._counts.get(tab.kind, 0) for tab in TABS if tab.feed.waits)

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

    @on(Tabs.TabActivated, "#tabs")
    def tab_activated(self, event: Tabs.TabActivated) -> None:
        """A new tab: read its first page if it never was, else show its current row; focus its list."""
        if event.tab.id is None:
            return
        self.query_one("#queue", ContentSwitcher).current = event.tab.id.replace("tab-", "queue-")
        queue = self.active_list()
        queue.focus()
        queue.move_ages(self.moments())
        if queue.kind not in self._generations:
            self._load_page(queue.kind, after=None, limit=self.first_page())
            return
        if self._cursor is not None and self._cursor.kind == queue.kind:
            self._place_cursor(queue, self._cursor)
            self._cursor = None
        if queue.current is None:
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
        text = self.query_one(FilterLine).applied.strip()
        if text:
            return f"Nothing on this tab matches the filter {visible(text)!r}."
        hint = self.active_tab().empty
        if self.app.demo:
            return hint
        return f"{hint}\n\nTry `lazaretto demo` for an example."

    # -- moving around ------------------------------------------------------------------

    def action_next_waiting(self, step: int = 1) -> None:
        """The next (or, with -1, previous) item waiting for a decision: on this tab, then on the
        next tab where something waits, round to the start."""
        queue = self.active_list()
        here = queue.highlighted if queue.highlighted is not None else -1
        waiting = queue.waiting_indexes()
        ahead = [i for i in waiting if i > here] if step > 0 else [i for i in waiting if i < here]
        if ahead:
            queue.highlighted = ahead[0] if step > 0 else ahead[-1]
            return
        position = next(n for n, tab in enumerate(TABS) if tab.kind == queue.kind)
        for offset in range(1, len(TABS) + 1):
            tab = TABS[(position + offset * step) % len(TABS)]
            if not tab.feed.waits or not self._counts.get(tab.kind):
                continue
            if tab.kind == queue.kind:
                if waiting:  # round to the start of this tab's waiting rows
                    queue.highlighted = waiting[0] if step > 0 else waiting[-1]
                return
            target = self.query_one(f"#queue-{tab.kind}", QueueList)
            ends = target.waiting_indexes()
            key = target.items[ends[0] if step > 0 else ends[-1]].key if ends else ""
            # Onto its first (or last) waiting row; a tab never read opens on its first row,
            # which waits (the waiting rows come first).
            self._cursor = Cursor(tab.kind, key, 0, onto=True)
            self.query_one("#tabs", Tabs).active = f"tab-{tab.kind}"
            return
        self.notify("Nothing waits for a decision.", markup=False)

    def action_show_tab(self, index: int) -> None:
        """Switch to the queue tab at `index`."""
        self.query_one("#tabs", Tabs).active = f"tab-{TABS[index].kind}"

    def action_toggle_times(self) -> None:
        """Show every time as its UTC time, or as its age again."""
        self.absolute_times = not self.absolute_times
        self._move_ages()

    # -- filter -----------------------------------------------------------------------

    @on(FilterLine.Applied)
    def filter_applied(self, message: FilterLine.Applied) -> None:
        """Every list read so far shows only the rows matching the filter; the others read with it
        when first shown."""
        for queue in self.lists():
            if queue.kind in self._generations:
                self._load_page(queue.kind, after=None, limit=self.first_page())
        if message.done:
            self.active_list().focus()

    def action_filter(self) -> None:
        """Show the filter line and type into it."""
        self.query_one(FilterLine).open()

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
        if action == "undo_dismiss":
            return self._dismissed is not None
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
        """Show the selected item uncut beside its reasons; a decision key there closes it and decides."""
        detail, view = self.detail, self.view
        if detail is None or view is None:
            return
        tab = tab_for(detail.item.kind)
        body = tab.in_full(detail) if tab.in_full else None
        offered = {action: self.check_action(action, ()) for action in tab.actions}

        def picked(action: str | None) -> None:
            if action is not None:
                self.call_later(self.run_action, action)

        self.app.push_screen(FullView(replace(view, body=body or view.body), offered), picked)

    def _cursor_past(self, detail: Detail) -> Cursor:
        """After a decision on this item: the list moves on to the next item waiting."""
        queue = self.active_list()
        index = queue.highlighted if queue.highlighted is not None else 0
        return Cursor(detail.item.kind, detail.item.key, index)

    def _put(
        self, action: str, ask: Callable[[Detail], asks.Ask], *, moves_on: bool = True
    ) -> None:
        """Put the selected item's decision to the person, if it applies; once it is taken, the
        list moves on to the next item waiting (`moves_on`)."""
        detail = self.detail
        if detail is None or self.why_not(action) is not None:
            return
        self._ask(ask(detail), After(self._cursor_past(detail) if moves_on else None))

    def action_release(self) -> None:
        """Ask, then let the agent read this withheld field: its visible text or the original."""
        self._put("release", lambda detail: asks.release(detail, self.app.policy))

    def action_approve(self) -> None:
        """Ask, then let exactly this blocked call through once."""
        self._put("approve", asks.approve)

    def action_untaint(self) -> None:
        """Ask, then clear the taint of the selected item's session, every source listed."""
        self._put("untaint", lambda detail: asks.untaint(detail, self.moments()), moves_on=False)

    def action_accept_pin(self) -> None:
        """Ask, then pin the drifted entry as it is now: the agent sees it again and may call it."""
        self._put("accept_pin", asks.accept_drift)

    def action_reject_pin(self) -> None:
        """Ask, then keep the pinned version: the drifted entry stays hidden and refused."""
        self._put("reject_pin", asks.reject_drift)

    def action_dismiss_item(self) -> None:
        """Mark the selected item reviewed at once; it stays withheld or refused, and `z` undoes it."""
        detail = self.detail
        dismissal = tab_for(detail.item.kind).dismissal if detail else None
        if detail is None or dismissal is None or self.why_not("dismiss_item") is not None:
            return
        item = detail.item
        self._review(
            asks.review(
                item.key,
                item.reason,
                dismissal.dismiss,
                dismissal.subject(item.key),
                dismissing=True,
            ),
            After(self._cursor_past(detail), undoable=(item.kind, item.key)),
        )

    def action_undo_dismiss(self) -> None:
        """Take back the last dismissal made here: the item waits for a decision again."""
        if self._dismissed is None:
            return
        kind, key = self._dismissed
        dismissal = tab_for(kind).dismissal
        assert dismissal is not None  # only a tab with dismissals made it undoable
        self._review(
            asks.review(
                key,
                "you dismissed it here",
                dismissal.undo,
                dismissal.subject(key),
                dismissing=False,
            ),
            After(Cursor(kind, key, 0, onto=True)),
        )

    def _review(self, ask: asks.Ask, after: After) -> None:
        """Dismiss or take a dismissal back: at once embedded; asking for a code with a station,
        where every decision is a person's, proven."""
        if self.app.store.mode is Mode.STATION:
            self._ask(ask, after)
            return
        confirmed = asks.Confirmed(Confirmation(None))
        self._decide(partial(ask.decide, self.app.store, confirmed), ask.done(confirmed), after)

    def _ask(self, ask: asks.Ask, after: After) -> None:
        """Count recent clearances, then open the confirmation modal (see `clearance_counted`)."""
        self._run(self._read_clearances, "ask", ask, after)

    def _read_clearances(self, ask: asks.Ask, after: After) -> None:
        store = self.app.store
        try:
            earlier = store.decisions.clearances(within=FRICTION_WINDOW)
            # With a station the decision is begun before the dialog asks for its code.
            decision = store.begin(ask.op, ask.subject)
        except StoreUnavailable as exc:
            self.post_message(StoreFailed(str(exc)))
            return
        counted = replace(ask, request=replace(ask.request, earlier=earlier))
        self.post_message(ClearanceCounted(counted, after, decision))

    @on(ClearanceCounted)
    def clearance_counted(self, message: ClearanceCounted) -> None:
        """Open the modal; only a confirmation leads to `decide(store, confirmed)`.

        With a station the confirmation is a code for the decision begun, sent with it and checked
        there; cancelling withdraws it.
        """
        ask = message.ask

        def confirmed(result: asks.Confirmed | None) -> None:
            if result is None:
                if message.decision is not None:
                    self._run(self._withdraw, "decide")
                self.notify(
                    "Nothing was changed.", title=ask.request.verb.capitalize(), markup=False
                )
                return
            store = result.confirmation.on(self.app.store)
            self._decide(partial(ask.decide, store, result), ask.done(result), message.after)

        self.app.push_screen(
            ConfirmClearance(ask.request, self.app.new_challenge, decision=message.decision),
            confirmed,
        )

    def _decide(self, decide: Callable, done: str, after: After) -> None:
        self._run(self._write_decision, "decide", decide, done, after)

    def _withdraw(self) -> None:
        try:
            self.app.store.withdraw()
        except StoreUnavailable:
            pass  # its connection is gone: the station ended the decision with it

    def _write_decision(self, decide: Callable, done: str, after: After) -> None:
        try:
            decide()
        except (DecisionError, StoreUnavailable, ProofError) as exc:
            self.post_message(DecisionTaken(f"{exc}. Nothing was changed.", False))
            return
        self.post_message(DecisionTaken(done, True, after))

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
        if message.ok:
            self._cursor = message.after.cursor
            self._dismissed = message.after.undoable
        self._reading = None  # an unlock changes what the selected row shows
        self.reload()
