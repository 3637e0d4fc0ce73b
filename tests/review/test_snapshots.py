"""Snapshots of the review app: fixed terminal sizes, fixed clock, checked-in scenario.

The sizes are a split beside the agent (80x24, 100x30, 120x40) and a whole wide terminal (200x50);
below 120 columns the queue sits above the detail.
"""

import pytest
from textual.widgets import Input

SIZES = [(80, 24), (100, 30), (120, 40), (200, 50)]
SPLIT = [(80, 24), (120, 40)]


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def run_before(settle, *keys):
    """Press `keys` once the app has read the store, then let it settle with no blinking cursor."""

    async def run(pilot):
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
        # A blinking cursor would make the picture depend on when it was taken.
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        await settle(pilot)

    return run


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_withheld_field_selected(snap_compare, scenario_store, make_app, settle, size):
    # The web page: hidden HTML, a zero-width space and tag characters revealed, the signals' excerpts marked.
    assert snap_compare(
        make_app(scenario_store), terminal_size=size, run_before=run_before(settle, "j", "j")
    )


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_blocked_call_selected(snap_compare, scenario_store, make_app, settle, size):
    assert snap_compare(
        make_app(scenario_store), terminal_size=size, run_before=run_before(settle, "3")
    )


@pytest.mark.parametrize("size", SPLIT, ids=size_id)
def test_approve_dialog_repeats_the_arguments(snap_compare, scenario_store, make_app, settle, size):
    assert snap_compare(
        make_app(scenario_store), terminal_size=size, run_before=run_before(settle, "3", "a")
    )


@pytest.mark.parametrize("size", SPLIT, ids=size_id)
def test_release_dialog_offers_the_visible_text_or_the_original(
    snap_compare, scenario_store, make_app, settle, size
):
    assert snap_compare(
        make_app(scenario_store), terminal_size=size, run_before=run_before(settle, "j", "j", "r")
    )


def test_untaint_dialog_lists_every_source(snap_compare, scenario_store, make_app, settle):
    assert snap_compare(
        make_app(scenario_store), terminal_size=(80, 24), run_before=run_before(settle, "4", "u")
    )


def test_full_view_shows_the_reason_first(snap_compare, scenario_store, make_app, settle):
    assert snap_compare(
        make_app(scenario_store),
        terminal_size=(80, 24),
        run_before=run_before(settle, "j", "j", "enter"),
    )


def test_pin_drift_selected(snap_compare, scenario_store, make_app, settle):
    # The rug pull: post_message's pinned description against the new one, word by word, hidden text revealed.
    assert snap_compare(
        make_app(scenario_store), terminal_size=(120, 40), run_before=run_before(settle, "5")
    )


def test_empty_store(snap_compare, empty_store, make_app, settle):
    assert snap_compare(
        make_app(empty_store), terminal_size=(80, 24), run_before=run_before(settle)
    )
