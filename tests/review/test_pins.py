"""The Pins tab: drift listed newest first, a word diff with hidden characters shown, accept and reject confirmed."""

import pytest

from lazaretto.app.review.moments import Moments
from lazaretto.app.review.queue import entry_label
from lazaretto.app.review.screens.confirm import ConfirmClearance
from lazaretto.app.review.tabs import tab_for
from lazaretto.app.review.widgets.pin_diff import (
    ADDED_STYLE,
    REMOVED_STYLE,
    surface_text,
    word_diff,
)
from lazaretto.proxy.detect.evidence import MAX_SIGNALS
from lazaretto.proxy.pins.guard import entry
from lazaretto.proxy.policy import Policy
from lazaretto.store import canonical_json
from lazaretto.store.states import DriftChange, PinKind

pytestmark = pytest.mark.anyio

PINS_TAB = "5"
COMMAND = canonical_json(["npx", "-y", "@example/chat-mcp"])


def styled(content, style):
    """The texts `content` shows in `style`."""
    return [content.plain[span.start : span.end] for span in content.spans if span.style == style]


def human_rows(store, action):
    return [
        row for row in store.audit.rows() if row["actor"] == "human" and row["action"] == action
    ]


def pinned_sha(store, name):
    [row] = store.query("SELECT sha256 FROM pins WHERE server = 'chat' AND name = ?", (name,))
    return row["sha256"]


async def open_pins(pilot, settle):
    await settle(pilot)
    await pilot.press(PINS_TAB)
    await settle(pilot)


def test_rows_name_the_entry_and_the_change(scenario_store):
    [item] = tab_for("pins").feed.page(scenario_store)
    assert (item.source, item.reason, item.state) == (
        "chat/tool/post_message",
        "tool post_message changed",
        "pending",
    )
    assert entry_label("instructions", "instructions") == "instructions"
    assert entry_label("resource_template", "") == "resource template list"


def test_newest_drift_first(scenario_store):
    later = entry(
        PinKind.TOOL, "read_channel", {"name": "read_channel", "description": "Read everything."}
    )
    scenario_store.pins.drift("chat", COMMAND, later, DriftChange.CHANGED, None)
    keys = [item.reason for item in tab_for("pins").feed.page(scenario_store)]
    assert keys == ["tool read_channel changed", "tool post_message changed"]


def test_a_description_with_more_signals_than_the_detector_keeps_says_so(scenario_store):
    # An order in every clause, thousands of them: the detector stops reading and says why.
    flood = {"name": "read_channel", "description": 'say "x" , "" ' * (MAX_SIGNALS + 100)}
    drift = entry(PinKind.TOOL, "read_channel", flood)
    scenario_store.pins.drift("chat", COMMAND, drift, DriftChange.CHANGED, None)
    tab = tab_for("pins")
    [item] = [i for i in tab.feed.page(scenario_store) if i.reason == "tool read_channel changed"]
    detail = tab.load(scenario_store, Policy(), item)
    assert detail is not None
    view = tab.view(detail, Moments(scenario_store.clock()))
    assert f"more than {MAX_SIGNALS} signals in one text" in view.side.plain


def test_word_diff_marks_added_and_removed_words_and_reveals_hidden_ones():
    old = surface_text(canonical_json({"name": "t", "description": "Post a message to a channel."}))
    new = surface_text(
        canonical_json(
            {"name": "t", "description": "Post a note\u200b to a channel. \U000e0068\U000e0069"}
        )
    )
    diff = word_diff(old, new)
    assert styled(diff.content, REMOVED_STYLE) == ["message"]
    added = styled(diff.content, ADDED_STYLE)
    # The zero-width space is spelled out inside the added words; the tag characters are decoded.
    assert any("note⟨ZWSP⟩" in text for text in added) and any("hi" in text for text in added)
    # Words, not characters: "note", the spelled-out space and the decoded tag run.
    assert (diff.added, diff.removed) == (3, 1)
    assert diff.content.plain.startswith("name:\nt\n\ndescription:\nPost a ")


def test_schemas_are_compared_as_indented_json():
    old = surface_text(
        canonical_json({"inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}})
    )
    new = surface_text(
        canonical_json(
            {
                "inputSchema": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                }
            }
        )
    )
    diff = word_diff(old, new)
    [added] = styled(diff.content, ADDED_STYLE)
    assert '"b": {' in added and '"a"' not in added
    assert diff.removed == 0 and "properties" in diff.content.plain


async def test_the_detail_shows_the_diff_and_the_detector(
    scenario_store, make_app, settle, tab_label
):
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_pins(pilot, settle)
        assert app.screen.detail.item.kind == "pins"
        body = app.screen.view.body
        added = "".join(styled(body, ADDED_STYLE))
        assert "⟨ZWSP⟩" in body.plain and "send it to #general" in added and "verify" in added
        side = app.screen.view.side.plain
        assert "tool post_message changed on chat" in side and "Detector on the new version" in side
        assert tab_label(app, "pins") == "Pins 1"
        assert (
            app.screen.check_action("accept_pin", ())
            and app.screen.check_action("release", ()) is False
        )


async def test_accept_without_the_challenge_changes_nothing(scenario_store, make_app, settle):
    before = pinned_sha(scenario_store, "post_message")
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_pins(pilot, settle)
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmClearance)
        await pilot.press("enter", *"ZZZZ", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmClearance)
        await pilot.press("escape")
        await settle(pilot)
    assert scenario_store.pins.get(1)["status"] == "pending"
    assert pinned_sha(scenario_store, "post_message") == before
    assert human_rows(scenario_store, "accept-drift") == []


async def test_accept_through_the_modal_pins_the_new_version(
    scenario_store, make_app, settle, challenge
):
    [drift] = scenario_store.pins.pending()
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_pins(pilot, settle)
        await pilot.press("p")
        await settle(pilot)
        assert "is pinned as it is now" in app.screen.request.effect and app.screen.request.clears
        await pilot.press(*challenge, "enter")
        await settle(pilot)
        assert app.screen.active_list().items[0].state == "accepted"
        assert app.screen.check_action("accept_pin", ()) is None
        assert "the new version is pinned" in app.screen.view.side.plain
    assert pinned_sha(scenario_store, "post_message") == drift["new_sha256"]
    [row] = human_rows(scenario_store, "accept-drift")
    assert row["subject"] == f"drift:{drift['id']}"


async def test_accepting_counts_as_a_clearance_and_meets_friction(scenario_store, make_app, settle):
    for qid in ("Q-7F3K9M", "Q-2M9XQ4", "Q-K4TR8B"):
        scenario_store.decisions.release(qid)
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_pins(pilot, settle)
        await pilot.press("p")
        await settle(pilot)
        assert app.screen.request.needs_note
        await pilot.press("escape")
        await settle(pilot)
        # Rejecting keeps the entry stopped: the code is asked for, a note is not.
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmClearance) and not app.screen.request.needs_note


async def test_reject_keeps_the_old_pin_and_is_audited(scenario_store, make_app, settle, challenge):
    before = pinned_sha(scenario_store, "post_message")
    app = make_app(scenario_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await open_pins(pilot, settle)
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert scenario_store.pins.get(1)["status"] == "pending"
        await pilot.press("x")
        await settle(pilot)
        await pilot.press(*challenge, "enter")
        await settle(pilot)
        assert app.screen.active_list().items[0].state == "rejected"
        assert app.screen.check_action("reject_pin", ()) is None
    assert scenario_store.pins.get(1)["status"] == "rejected"
    assert pinned_sha(scenario_store, "post_message") == before
    [row] = human_rows(scenario_store, "reject-drift")
    assert row["subject"] == "drift:1"
