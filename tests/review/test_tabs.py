"""One object per tab kind: its feed, loader, view, actions and styles agree with each other."""

from textual.binding import Binding

from lazaretto.app.review.moments import Moments
from lazaretto.app.review.queue import TabKind
from lazaretto.app.review.screens.main import MainScreen
from lazaretto.app.review.tabs import ITEM_ACTIONS, TABS, tab_for
from lazaretto.app.review.widgets.detail_views import (
    CALL_STYLES,
    DRIFT_STYLES,
    FIELD_STYLES,
    REMOVAL_STYLES,
    SESSION_STYLES,
)
from lazaretto.proxy.policy import Policy
from lazaretto.store.sessions import session_state
from lazaretto.store.states import CallStatus, DriftStatus, FieldStatus, SessionState

BINDINGS = [binding for binding in MainScreen.BINDINGS if isinstance(binding, Binding)]


def test_one_tab_per_kind_in_the_order_of_the_number_keys():
    assert [tab.kind for tab in TABS] == list(TabKind)
    keys = {b.key: b.action for b in BINDINGS if b.action.startswith("show_tab")}
    assert keys == {str(n + 1): f"show_tab({n})" for n in range(len(TABS))}


def test_every_item_action_has_a_key_and_a_method():
    bound = {binding.action for binding in BINDINGS}
    assert bound >= ITEM_ACTIONS
    for action in ITEM_ACTIONS:
        assert callable(getattr(MainScreen, f"action_{action}"))


def decide_everything(store):
    """Take every kind of decision once, so each tab shows every state it can."""
    withheld = store.quarantine.recent()
    store.decisions.release(withheld[0]["id"])
    store.decisions.dismiss_field(withheld[1]["id"])
    [call] = store.blocked.pending()
    store.decisions.dismiss_call(call["id"])
    store.decisions.approve(call["id"])
    [drift] = store.pins.pending()
    store.decisions.accept_drift(drift["id"])
    store.decisions.untaint("claude-4711")


def test_each_tab_loads_views_and_styles_every_row_it_lists(scenario_store):
    decide_everything(scenario_store)
    moments = Moments(scenario_store.clock())
    states = set()
    for tab in TABS:
        for item in tab.feed.page(scenario_store):
            assert item.kind == tab.kind
            assert item.state in tab.styles, (tab.kind, item.state)
            detail = tab.load(scenario_store, Policy(), item)
            assert detail is not None and detail.item == item
            view = tab.view(detail, moments)
            assert str(item.state) in view.title.plain
            states.add((tab.kind, item.state))
    # The decisions above show up as states of their own.
    assert {
        ("withheld", "released"),
        ("withheld", "reviewed"),
        ("withheld", "withheld"),
        ("blocked", "approved"),
        ("pins", "accepted"),
        ("sessions", "clean"),
    } <= states


def test_an_action_that_no_longer_applies_says_why(scenario_store):
    tab = tab_for("withheld")
    item = next(i for i in tab.feed.page(scenario_store) if i.key == "Q-K4TR8B")
    detail = tab.load(scenario_store, Policy(), item)
    assert detail is not None and tab.actions["release"](detail) is None
    scenario_store.decisions.release("Q-K4TR8B")
    [item] = [i for i in tab.feed.page(scenario_store) if i.key == "Q-K4TR8B"]
    detail = tab.load(scenario_store, Policy(), item)
    assert detail is not None
    assert tab.actions["release"](detail) == "Q-K4TR8B is released, not withheld"
    assert tab.actions["dismiss_item"](detail) == "Q-K4TR8B is released, not withheld"


def test_every_state_the_store_can_give_has_a_style():
    # A state added to the store (a session that ended, say) shows marked, never unstyled.
    assert set(SessionState) <= set(SESSION_STYLES)
    assert set(FieldStatus) <= set(FIELD_STYLES) and set(FieldStatus) <= set(REMOVAL_STYLES)
    assert set(CallStatus) <= set(CALL_STYLES)
    assert set(DriftStatus) <= set(DRIFT_STYLES)


def test_the_sessions_tab_labels_sessions_as_the_store_does(scenario_store):
    labels = {row["key"]: session_state(row) for row in scenario_store.sessions.all()}
    listed = {item.key: item.state for item in tab_for("sessions").feed.page(scenario_store)}
    assert listed == labels
