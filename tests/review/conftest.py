"""Fixtures for the review app: the checked-in scenario in a store with a fixed clock, and settling helpers."""

from datetime import UTC, datetime

import pytest
from support.review_scenario import FixedClock, load_scenario
from support.settling import settle as settle_app

from lazaretto.app.review.app import ReviewApp
from lazaretto.store import Store

CHALLENGE = "7QF2"
"""The code the confirmation modal shows in tests, so snapshots and key presses are fixed."""


@pytest.fixture
def anyio_backend() -> str:
    """Pilot tests run on asyncio, the loop Textual uses."""
    return "asyncio"


@pytest.fixture
def challenge() -> str:
    """The code every test app's confirmation modal asks for."""
    return CHALLENGE


@pytest.fixture
def clock() -> FixedClock:
    """A clock that moves only when a test moves it."""
    return FixedClock(datetime(2026, 11, 30, 9, 20, tzinfo=UTC))


@pytest.fixture
def scenario_store(store_path, clock):
    """The worm scenario on disk, the clock left at its `now`."""
    store = Store(store_path, clock=clock)
    load_scenario(store, clock)
    yield store
    store.close()


@pytest.fixture
def empty_store(store_path, clock):
    """A fresh store on disk with the fixed clock."""
    store = Store(store_path, clock=clock)
    yield store
    store.close()


@pytest.fixture
def make_app():
    """Builds the real app with a fixed challenge; polling is slow unless a test watches live updates."""

    def make(store: Store, *, poll_interval: float = 3600) -> ReviewApp:
        return ReviewApp(store, challenge=lambda: CHALLENGE, poll_interval=poll_interval)

    return make


@pytest.fixture
def settle():
    """Awaitable: wait until the thread workers, the messages they post and the work left for the
    next frame have all been handled (see `support.settling`)."""
    return settle_app


def _tab_label(app, kind: str) -> str:
    return str(app.screen.query_one(f"#tab-{kind}").label)


@pytest.fixture
def tab_label():
    """The label of one tab of the queue, its waiting count included: `tab_label(app, "blocked")`."""
    return _tab_label
