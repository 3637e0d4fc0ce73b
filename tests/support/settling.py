"""Settling a Textual app under Pilot: every worker done, every message they posted handled, and
the work left for the next frame run."""

import asyncio

# The longest wait for a frame: a screen that is closing draws none.
FRAME_WAIT = 2.0


async def settle(pilot) -> None:
    """Wait until the app's thread workers, the messages they post and the work left for after the
    next frame have all been handled."""
    # A handled message may start another worker (a page starts a detail read), so go round a few
    # times; once the app is idle with no worker left, nothing more happens until a key is pressed.
    for _ in range(4):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        # What waits for the next frame has run once a callback queued after it has (they run in
        # order): the footer building its buttons, the counts read once the first frame is up.
        try:
            await asyncio.wait_for(pilot.app.screen.wait_for_refresh(), FRAME_WAIT)
        except TimeoutError:
            pass
        await pilot.pause()
        if not pilot.app.workers:
            return
