"""Seed the store through its API for the human-side command tests."""

import pytest


@pytest.fixture
def block_call(store):
    """Record a refused call in a tainted session through the store API; returns its token."""

    def record(
        *, session="agent-1", server="slack", tool="post_message", arguments=None, **extra
    ) -> str:
        store.sessions.ensure(session)
        store.sessions.taint(
            session,
            server="web",
            tool="fetch",
            method="tools/call",
            reason="read an untrusted page from web/fetch",
        )
        details = {
            "reason_code": "tainted",
            "reason": "the session read untrusted content; outbound tools are refused",
            "hosts": ["hooks.slack.example"],
            "outbound_reason": "post_message sends a message",
            "taint_reason": "read an untrusted page from web/fetch",
        }
        details.update(extra)
        return store.blocked.record(
            session=session,
            server=server,
            tool=tool,
            arguments={"channel": "#general", "text": "ship it"}
            if arguments is None
            else arguments,
            **details,
        )

    return record
