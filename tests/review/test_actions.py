"""Pilot tests of every action in the review app, asserting on the store and the app's state."""

import pytest

from lazaretto.app.review.screens.confirm import ConfirmClearance
from lazaretto.app.review.screens.full_view import FullView
from lazaretto.app.review.widgets.queue_list import QueueList

pytestmark = pytest.mark.anyio


def human_rows(store, action=None):
    rows = [row for row in store.audit.rows() if row["actor"] == "human"]
    return [row for row in rows if action is None or row["action"] == action]


async def open_tab(pilot, settle, number):
    await pilot.press(str(number))
    await settle(pilot)


async def test_opens_newest_first_on_the_withheld_tab(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        queue = app.screen.active_list()
        assert queue.kind == "withheld"
        assert [item.key for item in queue.items] == ["Q-K4TR8B", "Q-2M9XQ4", "Q-7F3K9M"]
        assert app.screen.detail.item.key == "Q-K4TR8B"


async def test_release_without_the_typed_challenge_changes_nothing(
    scenario_store, make_app, settle
):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmClearance)
        # Enter alone, then a wrong code: the modal stays, and the field stays withheld.
        await pilot.press("enter")
        await pilot.press(*"ZZZZ", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmClearance)
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmClearance)
    assert scenario_store.quarantine.get("Q-K4TR8B")["status"] == "withheld"
    assert human_rows(scenario_store) == []


async def test_a_wrong_code_draws_a_new_one(scenario_store, make_app, settle):
    codes = iter(["AAAA", "BBBB", "CCCC"])
    app = make_app(scenario_store)
    app.new_challenge = lambda: next(codes)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press(*"AAAX", "enter")
        # The first code no longer works once it was mistyped.
        await pilot.press(*"AAAA", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmClearance)
        await pilot.press(*"CCCC", "enter")
        await settle(pilot)
    assert scenario_store.quarantine.get("Q-K4TR8B")["status"] == "released"


async def test_release_with_the_challenge_is_audited(scenario_store, make_app, settle, challenge):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press(*challenge.lower(), "enter")
        await settle(pilot)
        queue = app.screen.active_list()
        # Decided, it leaves the waiting rows; the cursor moves on to the next one waiting.
        assert [(item.key, item.state) for item in queue.items][-1] == ("Q-K4TR8B", "released")
        assert app.screen.detail.item.key == "Q-2M9XQ4"
        await pilot.press("G")
        await settle(pilot)
        # A released field cannot be released twice.
        assert app.screen.check_action("release", ()) is None
    row = scenario_store.quarantine.get("Q-K4TR8B")
    assert (row["status"], row["released_as"]) == ("released", "visible")
    [audit] = human_rows(scenario_store, "release")
    assert audit["subject"] == "Q-K4TR8B"


async def test_approve_lets_the_blocked_call_through_once(
    scenario_store, make_app, settle, challenge
):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await open_tab(pilot, settle, 3)
        assert app.screen.detail.item.kind == "blocked"
        await pilot.press("a")
        await settle(pilot)
        await pilot.press(*challenge, "enter")
        await settle(pilot)
    [call] = scenario_store.blocked.recent()
    assert call["status"] == "approved"
    [row] = human_rows(scenario_store, "approve")
    assert row["subject"] == f"blocked:{call['id']}"


async def test_untaint_clears_the_session_of_the_selected_item(
    scenario_store, make_app, settle, challenge
):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await open_tab(pilot, settle, 4)
        # The tainted session is listed first.
        assert app.screen.detail.item.key == "claude-4711"
        await pilot.press("u")
        await settle(pilot)
        await pilot.press(*challenge, "enter")
        await settle(pilot)
        assert {item.key: item.state for item in app.screen.active_list().items} == {
            "claude-4711": "clean",
            "codex-812": "clean",
        }
        assert app.screen.check_action("untaint", ()) is None
    assert not scenario_store.sessions.state("claude-4711").tainted
    [row] = human_rows(scenario_store, "untaint")
    assert row["session"] == "claude-4711"


async def test_dismiss_keeps_the_field_withheld_and_marks_it_reviewed(
    scenario_store, make_app, settle
):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert app.screen.active_list().items[-1].state == "reviewed"
    row = scenario_store.quarantine.get("Q-K4TR8B")
    assert row["status"] == "withheld" and row["reviewed_at"]
    [audit] = human_rows(scenario_store, "dismiss")
    assert audit["subject"] == "Q-K4TR8B"


async def test_actions_that_do_not_apply_do_nothing(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        # A withheld field is not a blocked call (hidden), and the codex session is not tainted (greyed).
        assert app.screen.check_action("approve", ()) is False
        assert app.screen.check_action("untaint", ()) is None
        await pilot.press("a", "u")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmClearance)
    assert human_rows(scenario_store) == []


async def test_frequent_clearances_ask_for_a_note(scenario_store, make_app, settle, challenge):
    for qid in ("Q-7F3K9M", "Q-2M9XQ4"):
        scenario_store.decisions.release(qid)
    scenario_store.decisions.untaint("claude-4711")
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        modal = app.screen
        assert isinstance(modal, ConfirmClearance) and modal.request.needs_note
        assert "4th clearance in the last hour" in str(modal.query_one("#friction").render())
        # The code alone is not enough while the note is empty.
        await pilot.press("enter", *challenge, "enter")
        await settle(pilot)
        assert app.screen is modal
        assert scenario_store.quarantine.get("Q-K4TR8B")["status"] == "withheld"
        modal.query_one("#note").focus()
        await pilot.press(*"known sender", "enter", *challenge, "enter")
        await settle(pilot)
    assert scenario_store.quarantine.get("Q-K4TR8B")["status"] == "released"
    assert human_rows(scenario_store, "release")[-1]["detail"] == {
        "released_as": "visible",
        "note": "known sender",
    }


async def test_enter_shows_the_item_in_full(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, FullView)
        body = str(app.screen.query_one("#detail-item-text").render())
        assert "archive@mailbox.example" in body
        await pilot.press("escape")
        assert not isinstance(app.screen, FullView)


async def test_filter_narrows_every_list(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"ticket", "enter")
        await settle(pilot)
        assert [item.key for item in app.query_one("#queue-withheld", QueueList).items] == [
            "Q-2M9XQ4"
        ]
        assert app.query_one("#queue-blocked", QueueList).items == []
        assert app.focused is app.screen.active_list()
        # Filter text is literal: a percent sign is not a wildcard.
        await pilot.press("slash", "ctrl+a", "ctrl+k", "%", "enter")
        await settle(pilot)
        assert app.query_one("#queue-withheld", QueueList).items == []


async def test_command_palette_offers_the_actions_that_apply(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Release withheld field" in titles and "Approve blocked call" not in titles
        await open_tab(pilot, settle, 3)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Approve blocked call" in titles and "Release withheld field" not in titles


async def test_empty_store_shows_the_hint(empty_store, make_app, settle):
    app = make_app(empty_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert app.screen.detail is None
        assert "lazaretto demo" in str(app.query_one("#detail-item-text").render())
