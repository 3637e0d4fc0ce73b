"""Readable at every size from an 80x24 split up: nothing a person decides on is squeezed or cut."""

import pytest
from textual.geometry import Region
from textual.widgets._footer import FooterKey

from lazaretto.app.review.screens.confirm import ConfirmClearance
from lazaretto.app.review.widgets.detail_pane import READABLE_LINE
from lazaretto.app.review.widgets.top_bar import TopBar, protection

pytestmark = pytest.mark.anyio

SIZES = [(80, 24), (100, 30), (120, 40), (200, 50)]
"""A split beside the agent (80 to 120 columns, 24 to 40 rows), and a whole wide terminal."""


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def region(app, selector: str) -> Region:
    return app.screen.query_one(selector).region


async def footer_keys(pilot, key: str) -> list[FooterKey]:
    """The footer's buttons for `key` once laid out (none after two seconds). The footer builds
    its buttons again after each change of bindings (a focus moving, a screen settling), a refresh
    after it, and holds none in between: a test that asks in that moment finds no button at all."""
    for _ in range(200):
        found = [button for button in pilot.app.screen.query(FooterKey) if button.key == key]
        if found and all(button.region.width for button in found):
            return found
        await pilot.pause(0.01)
    return []


def in_view(app, selector: str) -> bool:
    """Whether the widget lies whole on the screen, above the footer."""
    screen = app.screen.region
    return Region(0, 0, screen.width, screen.height - 1).contains_region(region(app, selector))


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_reasons_payloads_and_arguments_keep_a_readable_line(
    scenario_store, make_app, settle, size
):
    app = make_app(scenario_store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        # A withheld field: its reasons and its decoded payloads are in the "Why" text.
        assert "Hidden payloads, decoded" in app.screen.view.side.plain
        for part in ("#detail-why-text", "#detail-item-text"):
            assert region(app, part).width >= READABLE_LINE, (part, region(app, part))
        await pilot.press("3")
        await settle(pilot)
        # A blocked call: its exact arguments are the item text.
        assert '"channel": "#general"' in app.screen.view.body.plain
        assert region(app, "#detail-item-text").width >= READABLE_LINE
        # The list keeps room for rows, whatever the size.
        assert region(app, "#queue").height >= 5 and in_view(app, "#queue")


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_the_top_line_is_whole_and_the_footer_keeps_the_help_key(
    scenario_store, make_app, settle, size
):
    app = make_app(scenario_store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        top = str(app.screen.query_one(TopBar).render()).rstrip()
        assert top.startswith("⚓ Lazaretto  5 waiting for you")
        assert len(top) <= size[0] - 2
        # The protection is said in one of its whole wordings, never cut.
        assert any(top.endswith(wording) for wording in protection(scenario_store))
        [help_key] = await footer_keys(pilot, "question_mark")
        assert help_key.region.right <= size[0] and help_key.region.y == size[1] - 1


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_every_dialog_fits_with_its_input_in_view(scenario_store, make_app, settle, size):
    # Three clearances just taken: each dialog also asks for a note, the tallest it gets.
    scenario_store.decisions.release("Q-2M9XQ4")
    scenario_store.decisions.accept_drift(scenario_store.pins.pending()[0]["id"])
    scenario_store.decisions.approve(scenario_store.blocked.pending()[0]["id"])
    scenario_store.sessions.taint(
        "claude-4711", server="web", tool="fetch", method="tools/call", reason="read again"
    )
    app = make_app(scenario_store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for tab, key, shown in (("1", "r", "#release-choice"), ("4", "u", "#dialog-shows")):
            await pilot.press(tab)
            await settle(pilot)
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, ConfirmClearance) and app.screen.request.needs_note
            for part in ("#dialog", "#note", "#challenge", shown):
                assert in_view(app, part), (key, part, region(app, part))
            await pilot.press("escape")
            await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_approving_shows_the_calls_arguments_beside_the_code(
    scenario_store, make_app, settle, size
):
    app = make_app(scenario_store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert in_view(app, "#dialog-shows") and in_view(app, "#challenge")
        shows = str(app.screen.query_one("#dialog-shows Static").render())
        assert '"text": "Summary: logins are slow. Keys: see https://collector.example/t"' in shows


@pytest.mark.parametrize("size", SIZES, ids=size_id)
async def test_a_releases_two_texts_sit_side_by_side_only_where_each_stays_readable(
    scenario_store, make_app, settle, size
):
    app = make_app(scenario_store)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "r")
        await settle(pilot)
        visible, original = region(app, "#release-visible"), region(app, "#release-original")
        assert (visible.y == original.y) is (size[0] >= 200)
        for part in ("#release-visible Static", "#release-original Static"):
            assert region(app, part).width >= READABLE_LINE, (part, region(app, part))
