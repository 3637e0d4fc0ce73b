"""The review app on a station: locked withheld content, the passphrase that unlocks it, the
clearance dialog's one-time code, the header's mode."""

from datetime import UTC, datetime

import pytest
from support.authenticator import wrong
from support.review_scenario import FixedClock, load_scenario
from support.settling import settle
from support.stationkit import PASSPHRASE
from textual.geometry import Region
from textual.notifications import Notify

from lazaretto.app.review.app import ReviewApp
from lazaretto.app.review.details import Detail
from lazaretto.app.review.screens.confirm import ConfirmClearance, UnlockDialog
from lazaretto.app.review.screens.main import MainScreen
from lazaretto.app.review.widgets.top_bar import TopBar
from lazaretto.store import Store
from lazaretto.store.api import REDACTED
from lazaretto.store.station.client import StationStore
from lazaretto.store.station.marker import Marker

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def clock() -> FixedClock:
    """The station keeps the scenario's time, so its refused calls are still waiting."""
    return FixedClock(datetime(2026, 11, 30, 9, 20, tzinfo=UTC))


@pytest.fixture
def scenario_client(station, clock):
    """The review scenario in the station's store, and a client of the station."""
    seeding = Store(station.settings.store, clock=clock)
    load_scenario(seeding, clock)
    seeding.close()
    client = StationStore(Marker(path=None, socket=str(station.settings.socket)), clock=clock)
    yield client
    client.close()


def main(app: ReviewApp) -> MainScreen:
    """The review screen (the test has closed any dialog before it looks)."""
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


def shown(app: ReviewApp) -> Detail:
    """The item the review screen shows."""
    detail = main(app).detail
    assert detail is not None
    return detail


async def type_into(pilot, text: str) -> None:
    await pilot.press(*text, "enter")
    await settle(pilot)


async def test_withheld_content_is_locked_until_the_passphrase_unlocks_it(scenario_client):
    app = ReviewApp(scenario_client, poll_interval=3600)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        top = str(app.screen.query_one(TopBar).render())
        assert top.endswith("station: every decision needs a code from your authenticator")
        detail = shown(app)
        assert detail.record["redacted"] and detail.record["original"] == REDACTED
        assert main(app).check_action("unlock", ()) is True
        await pilot.press("o")
        await settle(pilot)
        assert isinstance(app.screen, UnlockDialog)
        await type_into(pilot, "not the passphrase")
        assert shown(app).record["original"] == REDACTED
        await pilot.press("o")
        await settle(pilot)
        await type_into(pilot, PASSPHRASE)
        assert "redacted" not in shown(app).record
        assert shown(app).record["original"] != REDACTED
        assert main(app).check_action("unlock", ()) is None


@pytest.mark.slow
async def test_a_clearance_takes_a_code_in_the_dialog_and_a_wrong_one_changes_nothing(
    scenario_client, authenticator
):
    app = ReviewApp(scenario_client, poll_interval=3600)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        key = shown(app).item.key
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmClearance) and app.screen.decision is not None
        assert "Type the code from your authenticator app to release" in str(
            app.screen.query_one("#challenge-prompt").render()
        )
        await type_into(pilot, wrong(authenticator.shown()))
        assert scenario_client.quarantine.get(key)["status"] == "withheld"
        # The passphrase is not a decision's proof either.
        await pilot.press("r")
        await settle(pilot)
        await type_into(pilot, PASSPHRASE)
        assert scenario_client.quarantine.get(key)["status"] == "withheld"
        await pilot.press("r")
        await settle(pilot)
        await type_into(pilot, authenticator.shown())
        assert scenario_client.quarantine.get(key)["status"] == "released"
        # Dismissing is a person's decision too: it asks, and a wrong code does nothing.
        await pilot.press("1", "down")
        await settle(pilot)
        other = shown(app).item.key
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmClearance)
        await type_into(pilot, wrong(authenticator.shown(1)))
        assert scenario_client.quarantine.get(other)["reviewed_at"] is None
        # Escape withdraws the decision begun: the station no longer waits for its code.
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert scenario_client.quarantine.get(other)["reviewed_at"] is None
    refused = [row for row in scenario_client.audit.rows() if row["action"] == "refuse-request"]
    assert [(row["subject"], row["detail"]["code"]) for row in refused] == [
        ("decisions.release", "wrong_code"),
        ("decisions.release", "wrong_code"),
        ("decisions.dismiss_field", "wrong_code"),
    ]


@pytest.mark.slow
async def test_after_five_wrong_codes_the_app_says_clearances_are_locked(
    scenario_client, authenticator
):
    notes: list[Notify] = []

    def hook(message) -> None:
        if isinstance(message, Notify):
            notes.append(message)

    app = ReviewApp(scenario_client, poll_interval=3600)
    async with app.run_test(size=(140, 40), message_hook=hook) as pilot:
        await settle(pilot)
        key = shown(app).item.key
        for guess in range(6):
            await pilot.press("r")
            await settle(pilot)
            assert isinstance(app.screen, ConfirmClearance)
            # The sixth is the right code: the lock holds against it too.
            await type_into(pilot, authenticator.shown() if guess == 5 else f"00000{guess}")
    said = [note.notification.message for note in notes]
    assert any("wrong code (5 in a row): clearances are locked until" in text for text in said)
    assert "clearances are locked until" in said[-1] and "Nothing was changed" in said[-1]
    assert scenario_client.quarantine.get(key)["status"] == "withheld"
    refused = [row for row in scenario_client.audit.rows() if row["action"] == "refuse-request"]
    assert [row["detail"]["code"] for row in refused] == ["wrong_code"] * 4 + ["locked"] * 2


async def test_at_80x24_the_code_dialog_keeps_its_prompt_and_input_in_view(scenario_client):
    app = ReviewApp(scenario_client, poll_interval=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        top = str(app.screen.query_one(TopBar).render()).rstrip()
        assert top.endswith("station: decisions need a code") and len(top) <= 78
        for tab, key, verb in (("1", "r", "release"), ("3", "a", "approve")):
            await pilot.press(tab)
            await settle(pilot)
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, ConfirmClearance)
            screen = app.screen.region
            view = Region(0, 0, screen.width, screen.height - 1)
            for part in ("#challenge-prompt", "#challenge"):
                assert view.contains_region(app.screen.query_one(part).region), (verb, part)
            prompt = str(app.screen.query_one("#challenge-prompt").render())
            assert f"authenticator app to {verb}" in " ".join(prompt.split())
            await pilot.press("escape")
            await settle(pilot)
