"""A request to act on the user's things, in text that speaks to the assistant, in any field.

Paired with the look-alikes: the same request between people, an assistant spoken about, and
French "j'ai" (which is no "AI"). The request itself is in `cases/agent_request.jsonl`.
"""

import json

from lazaretto.proxy.detect import detect


def test_assistants_named_in_a_list_are_told_nothing_the_list_said_before():
    # A newsletter's contents: one item deletes secrets from a repository, a later one names
    # assistants with a colon. Nothing is asked of them (the items are joined as a list).
    items = [
        "How to delete a leaked secret from the repo",
        "Rotating API keys at a small agency",
        "AI assistants in the editor: what do they send home?",
    ]
    listed = "".join(f"\n- {item}" for item in items)
    for text in (listed, json.dumps({"newsletter": {"items": listed}})):
        assert "agent_request" not in detect(text).names, text
