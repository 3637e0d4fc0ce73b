"""Settling a Textual app under Pilot: every worker done and every message they posted handled."""


async def settle(pilot) -> None:
    """Wait until the app's thread workers and the messages they post have all been handled."""
    # A handled message may start another worker (a page starts a detail read), so go round a few
    # times; once the app is idle with no worker left, nothing more happens until a key is pressed.
    for _ in range(4):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not pilot.app.workers:
            return
