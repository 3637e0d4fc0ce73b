"""A mediator over a real store, built as the proxy builds one, for tests that drive it in process."""

from typing import Any

from lazaretto.proxy.mediator.router import Mediator
from lazaretto.proxy.policy import Policy
from lazaretto.proxy.quarantine.cleaner import FieldCleaner


def mediator_for(store, policy: Policy, server: str = "web", **options: Any) -> Mediator:
    """The mediator of session "s" for `server` under `policy`, with its real cleaner and no log."""
    return Mediator(
        store=store,
        policy=policy,
        server=server,
        session="s",
        cleaner=FieldCleaner(store, policy, server, "s"),
        log=lambda _: None,
        **options,
    )
