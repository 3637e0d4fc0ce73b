"""The queue's paged queries and the detail loader, on real stores (no Textual)."""

from lazaretto.app.review.tabs import TABS, tab_for
from lazaretto.proxy.policy import Policy
from lazaretto.store.review import LISTINGS, page_sql


def fill_withheld(store, count, *, start="2026-11-30T08:00:00.000Z"):
    """`count` withheld fields sharing one timestamp in pairs, so the keyset's rowid tiebreak matters."""
    rows = [
        (
            f"Q-{n:06d}",
            "s",
            "web",
            "fetch",
            "tools/call",
            "content[0].text",
            f"h{n}",
            "x",
            "",
            0.9,
            '[{"name":"fake-system-message","weight":0.9}]',
            f"2026-11-30T08:{n // 2 // 60 % 60:02d}:{n // 2 % 60:02d}.000Z",
        )
        for n in range(count)
    ]
    with store.write() as conn:
        conn.executemany(
            "INSERT INTO quarantine (id, session, server, tool, method, path, content_hash, original, cleaned,"
            " score, signals, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


def test_pages_walk_every_row_once_newest_first(store):
    fill_withheld(store, 450)
    feed = tab_for("withheld").feed
    seen, after = [], None
    while True:
        page = feed.page(store, after=after, limit=100)
        seen += page
        if len(page) < 100:
            break
        after = page[-1]
    assert len(seen) == 450 and len({item.key for item in seen}) == 450
    stamps = [(item.at, item.order) for item in seen]
    assert stamps == sorted(stamps, reverse=True)


def test_page_queries_never_sort(store):
    # Each page is read in index (or rowid) order: no temporary B-tree, so the cost is the page, not
    # the table. (The rows waiting for a person may be sorted: there are only as many as wait.)
    for kind, listing in LISTINGS.items():
        for after in ({}, {"after_at": "2026-11-30T08:00:00.000Z", "after_order": 5}):
            for waiting in (None, False):
                sql, params = page_sql(listing, text="x", waiting=waiting, now="now", **after)
                plan = " ".join(
                    row["detail"] for row in store.query(f"EXPLAIN QUERY PLAN {sql}", params)
                )
                assert "TEMP B-TREE" not in plan, (kind, waiting, plan)


def test_every_row_is_either_waiting_or_not_and_the_waiting_ones_are_counted(scenario_store):
    # A pending call whose expiry is missing, one dismissed and one expired: each is one or the other.
    scenario_store.decisions.dismiss_field("Q-2M9XQ4")
    with scenario_store.write() as conn:
        conn.execute(
            "INSERT INTO blocked_calls (session, server, tool, token_hash, status, created_at)"
            " VALUES ('s', 'chat', 'post', 'x', 'pending', '2026-11-30T09:00:00.000Z'),"
            " ('s', 'chat', 'post', 'y', 'pending', '2026-11-30T09:00:00.000Z')"
        )
        conn.execute(
            "UPDATE blocked_calls SET expires_at = '2026-11-30T09:01:00.000Z' WHERE token_hash = 'y'"
        )
    for kind, listing in LISTINGS.items():
        every = scenario_store.review.page(kind)
        waiting = scenario_store.review.page(kind, waiting=True)
        others = scenario_store.review.page(kind, waiting=False)
        assert sorted(row["_order"] for row in waiting + others) == sorted(
            row["_order"] for row in every
        ), kind
        if listing.waiting is None:
            assert others == every
    counts = {tab.kind: tab.feed.attention(scenario_store) for tab in TABS if tab.feed.waits}
    listed = {kind: len(scenario_store.review.page(kind, waiting=True)) for kind in counts}
    assert listed == counts == {"withheld": 2, "blocked": 1, "pins": 1}


def test_markup_that_carried_no_text_is_not_listed_as_hidden_content(store):
    row = {
        "session": "s",
        "server": "web",
        "tool": "fetch",
        "method": "tools/call",
        "request_id": "1",
    }
    store.quarantine.record_stripped(
        [
            {**row, "path": "a", "kind": "hidden-html", "count": 1, "decoded": None},
            {**row, "path": "b", "kind": "hidden-html", "count": 1, "decoded": "obey me"},
            {**row, "path": "c", "kind": "zero-width", "count": 2, "decoded": None},
        ]
    )
    assert [
        item.reason.split(" removed from ")[1].split(";")[0]
        for item in tab_for("stripped").feed.page(store)
    ] == ["c", "b"]


def test_time_ordered_pages_use_the_created_at_indexes(store):
    for kind, index in (
        ("withheld", "idx_quarantine_created_at"),
        ("stripped", "idx_stripped_created_at"),
    ):
        sql, params = page_sql(LISTINGS[kind])
        plan = " ".join(row["detail"] for row in store.query(f"EXPLAIN QUERY PLAN {sql}", params))
        assert index in plan


def test_filter_matches_literally_in_any_searchable_column(scenario_store):
    withheld = tab_for("withheld").feed
    assert [i.key for i in withheld.page(scenario_store, text="address-to-assistant")] == [
        "Q-2M9XQ4"
    ]
    assert [i.key for i in withheld.page(scenario_store, text="MAIL")] == ["Q-K4TR8B"]
    assert withheld.page(scenario_store, text="%") == []
    assert [i.key for i in withheld.page(scenario_store, text="read_m")] == ["Q-K4TR8B"]
    [refused] = tab_for("audit").feed.page(scenario_store, text="refuse")
    assert (refused.state, refused.source) == ("proxy", "refuse")


def test_rows_say_where_they_came_from_and_why(scenario_store):
    [blocked] = tab_for("blocked").feed.page(scenario_store)
    assert (blocked.source, blocked.state) == ("chat/post_message", "pending")
    [fetch] = [i for i in tab_for("withheld").feed.page(scenario_store) if i.key == "Q-7F3K9M"]
    assert fetch.reason.startswith("fake-system-message, override-instructions (score 0.94)")
    stripped = tab_for("stripped").feed.page(scenario_store)
    assert (
        stripped[0].reason == "bidi-controls ×2 removed from content[1].text; result went through"
    )
    assert stripped[1].reason.endswith("withheld as Q-7F3K9M")
    sessions = {i.key: i for i in tab_for("sessions").feed.page(scenario_store)}
    assert sessions["claude-4711"].state == "tainted" and sessions["codex-812"].state == "clean"


def test_attention_counts_what_waits_for_a_person(scenario_store):
    counts = {tab.kind: tab.feed.attention(scenario_store) for tab in TABS}
    assert counts == {
        "withheld": 3,
        "stripped": 0,
        "blocked": 1,
        "sessions": 1,
        "pins": 1,
        "audit": 0,
    }


def test_detail_carries_the_taint_chain_and_the_tool_classification(scenario_store):
    item = next(i for i in tab_for("withheld").feed.page(scenario_store) if i.key == "Q-7F3K9M")
    detail = tab_for("withheld").load(scenario_store, Policy(), item)
    assert detail is not None and detail.tainted
    assert [event["server"] for event in detail.taint] == ["web", "tickets"]
    assert detail.tool is not None
    assert detail.tool["untrusted_reason"].startswith("servers.web.trust")
    assert {row["kind"] for row in detail.record["removed"]} == {
        "hidden-html",
        "zero-width",
        "tag-characters",
    }


def test_detail_of_a_vanished_row_is_none(scenario_store):
    item = tab_for("withheld").feed.page(scenario_store)[0]
    gone = type(item)(**{**item.__dict__, "key": "Q-ZZZZZZ"})
    assert tab_for("withheld").load(scenario_store, Policy(), gone) is None
