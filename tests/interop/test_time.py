"""mcp-server-time (PyPI) behind the proxy: read-only tools, nothing to write.

Trusted, both tools answer the same through the proxy as directly, an unknown time zone with
the same error; the current time is the one thing set aside (the two servers are asked a moment
apart). Untrusted, a conversion reads whole and taints the session.
"""

import json

import pytest
from support.interop import Interop, Pair, installed, trusted_pair
from support.interop_servers import TIME

pytestmark = installed(TIME.executable)

CONVERT = {"source_timezone": "Europe/Paris", "time": "16:30", "target_timezone": "Asia/Tokyo"}
# What differs from one moment to the next in get_current_time's answer.
NOW = ("datetime", "day_of_week", "is_dst")


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    with trusted_pair(tmp_path_factory.mktemp("time"), TIME) as both:
        yield both


def at_any_moment(outcome: dict) -> dict:
    """get_current_time's answer with the moment it names set aside, in its text and its JSON."""
    result = outcome["result"]
    [content] = result["content"]
    moment = dict.fromkeys(NOW, "now")
    return {
        **result,
        "content": [{**content, "text": {**json.loads(content["text"]), **moment}}],
        "structuredContent": {**result["structuredContent"], **moment},
    }


def test_trusted_the_current_time_answers_the_same(pair: Pair):
    now = pair.same(
        lambda session: at_any_moment(session.call("get_current_time", {"timezone": "Asia/Tokyo"}))
    )
    assert now["structuredContent"]["timezone"] == "Asia/Tokyo"


def test_trusted_a_conversion_answers_the_same(pair: Pair):
    converted = pair.call("convert_time", CONVERT)
    assert converted["result"]["structuredContent"]["time_difference"] == "+8.0h"


def test_trusted_an_unknown_zone_is_the_same_error(pair: Pair):
    unknown = pair.call("convert_time", {**CONVERT, "source_timezone": "Nowhere/City"})
    assert unknown["result"]["isError"] is True


def test_untrusted_a_conversion_reads_whole_and_taints(tmp_path, pair: Pair):
    box = Interop(tmp_path, "time")
    with box.proxied(TIME.launch(tmp_path / "data"), "untrusted") as agent:
        assert agent.call("convert_time", CONVERT) == pair.direct.call("convert_time", CONVERT)
    assert [(event["method"], event["tool"]) for event in box.taint()] == [
        ("tools/call", "convert_time")
    ]
