"""Messages that carry store reads and decisions from thread workers back to the screen."""

from collections.abc import Callable
from dataclasses import dataclass

from textual.message import Message

from lazaretto.store.opening import StoreAPI

from .details import Detail
from .queue import QueueItem, TabKind
from .screens.confirm import ClearanceRequest
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
    """How many rows wait for a person, per feed, and the calls refused since the last look."""

    counts: dict[TabKind, int]
    new_blocked: list[dict]


@dataclass
class StoreChanged(Message):
    """Another process committed to the store (its data_version moved)."""


@dataclass
class DecisionTaken(Message):
    """A decision was written (ok) or refused by the store (not ok); `text` says which."""

    text: str
    ok: bool


@dataclass
class StoreFailed(Message):
    """The store could not be read; the screen says so and keeps polling."""

    text: str


@dataclass
class ClearanceCounted(Message):
    """Recent clearances were counted: the confirmation modal can open with the right friction."""

    request: ClearanceRequest
    decide: Callable[[StoreAPI, str | None], object]
    """Takes the decision through the store (with the passphrase, on a station) and the person's
    note; runs only after the person confirmed."""
    done: str


@dataclass
class AgesMoved(Message):
    """The selected item was described again at a later time: its ages moved on."""

    detail: Detail
    view: DetailView
