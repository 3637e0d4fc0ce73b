"""Live updates: another process writes to the store, and the open app shows it without a key press."""

import subprocess
import sys

import pytest
from textual.notifications import Notify

pytestmark = pytest.mark.anyio

WRITER = """
import sys
from lazaretto.store import Store
from lazaretto.store.clock import parse_stamp

# The same fixed moment as the app's clock, so the new call is pending, not expired, to both.
store = Store(sys.argv[1], clock=lambda: parse_stamp(sys.argv[2]))
store.blocked.record(
    session="claude-4711", server="mail", tool="send_email", arguments={"to": "x@collector.example"},
    reason_code="tainted", reason="the session read untrusted content", hosts=["collector.example"],
)
store.quarantine.record_stripped([
    {"session": "claude-4711", "server": "web", "tool": "fetch", "method": "tools/call", "request_id": "9",
     "path": "content[0].text", "kind": "zero-width", "count": 3},
])
store.close()
"""


async def wait_for(pilot, settle, condition, rounds=200):
    """Let the app poll until `condition()` holds; the bound only stops a broken app from hanging."""
    for _ in range(rounds):
        await settle(pilot)
        if condition():
            return True
        await pilot.pause(0.05)
    return False


async def test_a_write_by_another_process_appears_and_a_blocked_call_is_announced(
    scenario_store, store_path, make_app, settle
):
    notes: list[Notify] = []
    app = make_app(scenario_store, poll_interval=0.05)

    def hook(message):
        if isinstance(message, Notify):
            notes.append(message)

    async with app.run_test(size=(140, 40), message_hook=hook) as pilot:
        await settle(pilot)
        blocked = app.query_one("#queue-blocked")
        stripped = app.query_one("#queue-stripped")
        # A tab is read when it is first shown; from then on it follows the store.
        assert blocked.items == [] and stripped.items == []
        for tab in ("2", "3"):
            await pilot.press(tab)
            await settle(pilot)
        assert len(blocked.items) == 1 and len(stripped.items) == 3
        subprocess.run(
            [sys.executable, "-c", WRITER, str(store_path), scenario_store.now()],
            check=True,
            timeout=60,
        )
        assert await wait_for(
            pilot, settle, lambda: len(blocked.items) == 2 and len(stripped.items) == 4
        )
        assert blocked.items[0].source == "mail/send_email"
        assert await wait_for(
            pilot, settle, lambda: any("send_email" in n.notification.message for n in notes)
        )
        [note] = [n for n in notes if n.notification.title == "A call was blocked"]
        assert note.notification.severity == "warning"
        assert "Blocked 2" in str(app.query_one("#queue").get_tab("tab-blocked").label)
