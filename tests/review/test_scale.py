"""The app reads a page at a time: a large store costs one screenful at start, and more only on scrolling."""

import pytest

from lazaretto.app.review.queue import PAGE_SIZE
from lazaretto.app.review.widgets.queue_list import QueueList

pytestmark = pytest.mark.anyio

ROWS = 2_000


def fill(store):
    rows = [
        (
            f"Q-{n:06d}",
            "s1",
            "web",
            "fetch",
            "tools/call",
            "content[0].text",
            f"h{n}",
            "payload",
            "",
            0.9,
            '[{"name":"fake-system-message","weight":0.9}]',
            f"2026-11-29T{n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z",
        )
        for n in range(ROWS)
    ]
    with store.write() as conn:
        conn.executemany(
            "INSERT INTO quarantine (id, session, server, tool, method, path, content_hash, original, cleaned,"
            " score, signals, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


async def test_opening_reads_one_screenful_and_scrolling_reads_the_next_page(
    empty_store, make_app, settle, tab_label
):
    fill(empty_store)
    app = make_app(empty_store)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        queue = app.screen.active_list()
        first = app.screen.first_page()
        # The rows that fit in 40 lines and the prefetch margin below them; no other tab is read yet.
        assert first < PAGE_SIZE and len(queue.items) == first
        assert app.query_one("#queue-audit", QueueList).items == []
        assert queue.items[0].key == f"Q-{ROWS - 1:06d}"
        assert tab_label(app, "withheld") == f"Withheld {ROWS}"
        await pilot.press("end")
        await settle(pilot)
        assert len(queue.items) == first + PAGE_SIZE
        keys = [item.key for item in queue.items]
        assert len(set(keys)) == len(keys)
