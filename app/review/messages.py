"""Messages that carry store reads and decisions from thread workers back to the screen."""

from dataclasses import dataclass

from textual.message import Message

from .asks import Ask
from .details import Detail
from .queue import QueueItem, TabKind
from .widgets.detail_views import DetailView


@dataclass
class PageLoaded(Message):
    """A page of one feed was read; `replace` means it starts the list afresh."""

    kind: TabKind
    items: list[QueueItem]
    replace: bool
    exhausted: bool
    generation: int
    """Which request this answers: an older request's page arriving late is dropped."""


@dataclass
class DetailLoaded(Message):
    """The selected item was read in full and rendered (None when it vanished meanwhile)."""

    item: QueueItem
    detail: Detail | None
    view: DetailView | None
    """Rendered in the worker too: highlighting and diffing a large item never holds up a frame."""


@dataclass
class CountsLoaded(Message):
    """How many rows wait for a person, per feed, and what was stopped since the last look."""

    counts: dict[TabKind, int]
    new_blocked: list[dict]
    """Calls refused since the last look, oldest first."""
    new_withheld: list[dict]
    """Fields withheld since the last look, oldest first."""


@dataclass
class StoreChanged(Message):
    """Another process committed to the store (its data_version moved)."""


@dataclass(frozen=True)
class Cursor:
    """Where a list's cursor goes once it is read again after a decision on one of its rows."""

    kind: TabKind
    key: str
    index: int
    """Where the row was when it was decided."""
    onto: bool = False
    """Onto the row itself (it waits again); else past it to the next row still waiting."""


@dataclass(frozen=True)
class After:
    """What follows a decision once it is written."""

    cursor: Cursor | None = None
    """Where the decided row's list puts its cursor next."""
    undoable: tuple[TabKind, str] | None = None
    """The dismissal `z` can take back now (the last decision, if it was one)."""


@dataclass
class DecisionTaken(Message):
    """A decision was written (ok) or refused by the store (not ok); `text` says which."""

    text: str
    ok: bool
    after: After = After()


@dataclass
class StoreFailed(Message):
    """The store could not be read; the screen says so and keeps polling."""

    text: str


@dataclass
class ClearanceCounted(Message):
    """Recent clearances were counted: the confirmation modal can open with the right friction."""

    ask: Ask
    """The decision, its request carrying the count; `decide` runs only after the person confirmed."""
    after: After
    decision: str | None
    """With a station: the id it gave the decision begun, which the code must come with."""


@dataclass
class AgesMoved(Message):
    """The selected item was described again at a later time: its ages moved on."""

    detail: Detail
    view: DetailView
