"""The review app follows Textual's conventions, and what it shows stays true as time and decisions pass."""

from datetime import timedelta

import pytest
from textual.widgets import HelpPanel, Input

from lazaretto.app.review.widgets.detail_pane import DetailPane
from lazaretto.proxy.policy import parse_policy

pytestmark = pytest.mark.anyio

ITEM_KEYS = {"r", "a", "u", "d", "p", "x"}


def notes(app):
    """Record what the app tells the person, in order."""
    said: list[str] = []
    notify = app.notify

    def record(message, *args, **kwargs):
        said.append(str(message))
        return notify(message, *args, **kwargs)

    app.notify = record
    return said


def footer_keys(app):
    """The item keys the footer offers now, each with whether it is enabled."""
    return {
        key: active.enabled
        for key, active in app.screen.active_bindings.items()
        if key in ITEM_KEYS and active.binding.show
    }


async def test_q_quits(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_q_typed_into_the_filter_is_text(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "q")
        await settle(pilot)
        assert app.is_running and app.query_one("#filter", Input).value == "q"


async def test_question_mark_shows_and_hides_the_keys(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert len(app.screen.query(HelpPanel)) == 1
        await pilot.press("question_mark")
        await settle(pilot)
        assert len(app.screen.query(HelpPanel)) == 0


async def test_the_footer_offers_only_what_the_tab_can_do(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        # The newest withheld field, from the codex session, which is not tainted.
        assert footer_keys(app) == {"r": True, "d": True, "u": False}
        await pilot.press("3")
        await settle(pilot)
        assert footer_keys(app) == {"a": True, "d": True, "u": True}
        await pilot.press("5")
        await settle(pilot)
        assert footer_keys(app) == {"p": True, "x": True}
        await pilot.press("6")
        await settle(pilot)
        assert footer_keys(app) == {}


async def test_a_key_that_does_not_apply_says_why(scenario_store, make_app, settle):
    app = make_app(scenario_store)
    said = notes(app)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("u")
        await pilot.press("a")
        await settle(pilot)
    assert "session codex-812 is not tainted" in said[0]
    assert "it acts on the Blocked tab, not on Withheld" in said[1]
    assert [row for row in scenario_store.audit.rows() if row["actor"] == "human"] == []


async def test_a_decided_item_greys_its_key_and_says_so(scenario_store, make_app, settle):
    scenario_store.decisions.release("Q-K4TR8B")
    app = make_app(scenario_store)
    said = notes(app)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        # Decided, it is listed after the fields still waiting.
        await pilot.press("G")
        await settle(pilot)
        assert app.screen.detail.item.key == "Q-K4TR8B"
        assert footer_keys(app)["r"] is False
        await pilot.press("r")
        await settle(pilot)
    assert said == ["r (Release) does not apply: Q-K4TR8B is released, not withheld."]


def first_row(app) -> str:
    return app.screen.active_list().get_option_at_index(0).prompt.plain


async def test_ages_move_on_with_the_clock_and_the_row_agrees_with_the_header(
    scenario_store, make_app, settle, clock
):
    app = make_app(scenario_store)
    app.age_interval = 0.05
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert "11m ago" in first_row(app) and "11m ago" in app.screen.view.title.plain
        # No store write: only the clock moves.
        clock.moment += timedelta(hours=3)
        await pilot.pause(0.2)
        await settle(pilot)
        assert "3h ago" in first_row(app)
        assert "3h ago" in app.screen.view.title.plain
        assert "3h ago" in str(app.query_one("#detail-title").render())


async def test_a_dismissed_call_no_longer_waits(scenario_store, make_app, settle, tab_label):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert tab_label(app, "blocked") == "Blocked 1"
        await pilot.press("3", "d")
        await settle(pilot)
        assert tab_label(app, "blocked") == "Blocked"
        assert app.screen.active_list().items[0].state == "reviewed"
        await pilot.press("4")
        await settle(pilot)
        assert app.screen.detail.item.key == "claude-4711"
        calls = app.screen.view.side.plain
        assert "● reviewed" in calls and "pending" not in calls


async def test_a_dismissed_field_no_longer_counts_as_withheld(
    scenario_store, make_app, settle, tab_label
):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert tab_label(app, "withheld") == "Withheld 3"
        await pilot.press("d")
        await settle(pilot)
        assert tab_label(app, "withheld") == "Withheld 2"


async def test_an_audit_row_names_its_actor_once(scenario_store, make_app, settle):
    scenario_store.decisions.untaint("claude-4711")
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        row = first_row(app)
        assert row.count("human") == 1 and "untaint" in row


async def test_sessions_say_since_when_they_are_in_their_state(
    scenario_store, make_app, settle, challenge
):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("4", "down")
        await settle(pilot)
        # codex-812 never read anything untrusted: it is not "clean since" its own start.
        title = app.screen.view.title.plain
        assert "● clean" in title and "started" in title and "no untrusted read" in title
        # The tainted session is listed first.
        await pilot.press("up")
        await settle(pilot)
        assert "tainted 18m ago" in app.screen.view.title.plain
        await pilot.press("u")
        await settle(pilot)
        await pilot.press(*challenge, "enter")
        await settle(pilot)
        assert "● clean" in app.screen.view.title.plain
        assert "cleared just now" in app.screen.view.title.plain


async def test_an_empty_tab_says_what_it_would_hold_and_the_demo_is_not_advertised_in_itself(
    empty_store, make_app, settle
):
    for demo in (False, True):
        app = make_app(empty_store)
        app.demo = demo
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            await pilot.press("5")
            await settle(pilot)
            hint = str(app.query_one(DetailPane).query_one("#detail-item-text").render())
            assert "No pin drift" in hint
            assert ("lazaretto demo" in hint) is not demo


async def test_the_policy_panel_reads_the_policy_for_a_tool_no_proxy_classified(
    scenario_store, make_app, settle
):
    # The tickets server has no classification in the store: no proxy listed its tools.
    policy = parse_policy('[servers.tickets]\ntrust = "untrusted"\n')
    for given, expected in (
        (None, "server 'tickets' has no policy entry, so it is untrusted"),
        (
            policy,
            "tickets/get_ticket counts as untrusted: policy: servers.tickets.trust = untrusted",
        ),
    ):
        app = make_app(scenario_store)
        if given is not None:
            app.policy = given
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            await pilot.press("down")
            await settle(pilot)
            assert app.screen.detail.item.key == "Q-2M9XQ4"
            side = app.screen.view.side.plain
            assert expected in side and "no classification recorded" not in side
            assert "read from the policy" in side


@pytest.mark.slow
async def test_a_release_says_what_happens_with_labels_off_and_on(scenario_store, make_app, settle):
    for policy, labelled in (("", False), ("label = true\n", True)):
        app = make_app(scenario_store)
        app.policy = parse_policy(policy)
        async with app.run_test(size=(140, 40)) as pilot:
            await settle(pilot)
            await pilot.press("r")
            await settle(pilot)
            effect = app.screen.request.effect
            assert "still taints the session" in effect
            assert ("provenance tags" in effect) is labelled
            assert "labelled" not in effect
            await pilot.press("escape")
            await settle(pilot)


async def test_a_list_shown_again_reads_its_ages_afresh(scenario_store, make_app, settle, clock):
    app = make_app(scenario_store)
    app.age_interval = 0.05
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        clock.moment += timedelta(days=2)
        await pilot.pause(0.2)
        await pilot.press("1")
        await settle(pilot)
        # Only the visible list follows the clock; one shown again catches up at once.
        assert "2d ago" in first_row(app)
