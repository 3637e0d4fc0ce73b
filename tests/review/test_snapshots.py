"""Snapshots of the review app's main states: fixed terminal size, fixed clock, checked-in scenario."""

from textual.widgets import Input

SIZE = (140, 40)


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


def test_withheld_field_selected(snap_compare, scenario_store, make_app, settle):
    # The web page: hidden HTML, a zero-width space and tag characters revealed, the signals' excerpts marked.
    assert snap_compare(
        make_app(scenario_store), terminal_size=SIZE, run_before=run_before(settle, "down", "down")
    )


def test_blocked_call_selected(snap_compare, scenario_store, make_app, settle):
    assert snap_compare(
        make_app(scenario_store), terminal_size=SIZE, run_before=run_before(settle, "3")
    )


def test_confirmation_modal(snap_compare, scenario_store, make_app, settle):
    assert snap_compare(
        make_app(scenario_store), terminal_size=SIZE, run_before=run_before(settle, "3", "a")
    )


def test_pin_drift_selected(snap_compare, scenario_store, make_app, settle):
    # The rug pull: post_message's pinned description against the new one, word by word, hidden text revealed.
    assert snap_compare(
        make_app(scenario_store), terminal_size=SIZE, run_before=run_before(settle, "5")
    )


def test_empty_store(snap_compare, empty_store, make_app, settle):
    assert snap_compare(make_app(empty_store), terminal_size=SIZE, run_before=run_before(settle))
