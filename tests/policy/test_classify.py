"""Outbound and untrusted classification: policy first, then annotations, then the tool's name."""

import pytest

from lazaretto.proxy.classify import classify, tool_words, untrusted_tool
from lazaretto.proxy.policy import parse_policy

POLICY = parse_policy("""
[servers.web]
trust = "untrusted"
[servers.slack]
untrusted = ["read_channel"]
outbound = ["post_message"]
not_outbound = ["send_typing"]
[servers.internal]
trust = "trusted"
[servers.notes]
outbound = ["save"]
""")


@pytest.mark.parametrize(
    "server, tool, annotations, outbound, why",
    [
        ("slack", "post_message", None, True, "policy"),
        ("slack", "send_typing", None, False, "not_outbound"),
        ("slack", "delete_message", None, True, "'delete'"),
        ("slack", "read_channel", None, False, "no outbound verb"),
        ("x", "sendEmail", None, True, "'send'"),
        ("x", "create-issue", None, True, "'create'"),
        ("x", "HTTPRequest", None, True, "'http'"),
        ("x", "get_message", None, False, "no outbound verb"),
        ("x", "list_commits", None, False, "no outbound verb"),
        ("x", "summarize", {"readOnlyHint": False}, True, "annotations"),
        ("x", "lookup", {"readOnlyHint": True}, False, "readOnlyHint = true"),
        # An untrusted server cannot talk its way out of the gate with a read-only claim.
        ("x", "send_mail", {"readOnlyHint": True}, True, "ignored"),
        ("internal", "send_mail", {"readOnlyHint": True}, False, "readOnlyHint = true"),
    ],
)
def test_outbound(server, tool, annotations, outbound, why):
    verdict = classify(POLICY.server(server), tool, annotations)
    assert verdict.outbound is outbound and why in verdict.outbound_reason


@pytest.mark.parametrize(
    "server, tool, untrusted, why",
    [
        ("web", "fetch", True, "trust = untrusted"),
        ("slack", "read_channel", True, "lists read_channel"),
        ("slack", "post_message", False, "does not list"),
        ("internal", "query", False, "trusted"),
        ("notes", "read", True, "does not say it is trusted"),
        ("nobody", "read", True, "no policy entry"),
        ("nobody", None, True, "no policy entry"),
    ],
)
def test_untrusted(server, tool, untrusted, why):
    result, reason = untrusted_tool(POLICY.server(server), tool)
    assert result is untrusted and why in reason


def test_tool_words():
    assert tool_words("postMessage") == ["post", "message"]
    assert tool_words("slack.post-message_v2") == ["slack", "post", "message", "v", "2"]
