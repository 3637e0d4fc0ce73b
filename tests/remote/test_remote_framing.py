"""The remote transport's framing: the size bound per SSE event, stdio lines from HTTP bodies, and
header values as the 2026-07-28 transport encodes them."""

import base64
import json

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazaretto.proxy.transport.remote.bodies import Oversized, _Bounded, as_line, read_line
from lazaretto.proxy.transport.remote.metadata import ParamHeaders, header_value, request_headers


def passes(chunks: list[bytes], limit: int) -> bool:
    try:
        b"".join(_Bounded(iter(chunks), limit, per_event=True))
        return True
    except Oversized:
        return False


@given(
    st.lists(st.integers(min_value=0, max_value=300), min_size=1, max_size=8),
    st.sampled_from([b"\n\n", b"\r\n\r\n", b"\r\r", b"\n\r\n"]),
    st.integers(min_value=1, max_value=64),
)
def test_the_bound_holds_for_every_event_however_the_stream_is_chunked(sizes, end, chunk):
    stream = b"".join(b"data: " + b"x" * size + end for size in sizes)
    pieces = [stream[i : i + chunk] for i in range(0, len(stream), chunk)]
    largest = max(len(b"data: ") + size + len(end) for size in sizes)
    assert passes(pieces, largest + 2)
    assert not passes(pieces, largest - len(end) - 1)


def test_an_event_that_never_ends_is_stopped_and_its_head_kept():
    chunks = [b'data: {"jsonrpc":"2.0","id":7,"result":{"text":"', *([b"y" * 1000] * 50)]
    with pytest.raises(Oversized) as caught:
        b"".join(_Bounded(iter(chunks), 20_000, per_event=True))
    assert caught.value.head.startswith(b'data: {"jsonrpc":"2.0","id":7')
    assert 20_000 < caught.value.size <= 21_100


def test_a_json_body_is_bounded_whole():
    with pytest.raises(Oversized):
        b"".join(_Bounded(iter([b"{" + b" " * 600, b" " * 600]), 1000, per_event=False))


def test_a_pretty_printed_body_becomes_one_line_with_the_same_value():
    message = {"jsonrpc": "2.0", "id": 1, "result": {"text": "two\nlines\r\n", "n": [1, 2]}}
    body = json.dumps(message, indent=2).encode()
    line = as_line(body)
    assert line.count(b"\n") == 1 and line.endswith(b"\n")
    assert json.loads(line) == message


@pytest.mark.parametrize(
    "body",
    [b'{"a":1}\n', b'\r\n {"a":\n1} \t\r\n', b'\t{"a":\r1}', b"\n\n", b"", b'{"a": "x"}'],
)
def test_a_body_is_its_breaks_made_spaces_and_its_ends_stripped(body):
    assert as_line(body) == body.replace(b"\r", b" ").replace(b"\n", b" ").strip(b" \t") + b"\n"


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=40) | st.text(alphabet=' \t\r\n{}"a1:', max_size=40).map(str.encode))
def test_a_line_taken_as_it_came_is_the_line_the_rule_makes(body):
    # A body that is one line already is passed on without a copy; it must be what the rule (breaks
    # made spaces, ends stripped) makes of it, and a body read as a line must be that line too.
    ruled = body.replace(b"\r", b" ").replace(b"\n", b" ").strip(b" \t") + b"\n"
    assert as_line(body) == ruled
    response = httpx.Response(200, stream=httpx.ByteStream(body))
    assert read_line(response, 1000) == ruled


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("us-west1", "us-west1"),
        (42, "42"),
        (True, "true"),
        (None, None),
        (1.5, None),
        (2**60, None),
        ("Hello, 世界", "=?base64?" + base64.b64encode("Hello, 世界".encode()).decode() + "?="),
        (" padded ", "=?base64?IHBhZGRlZCA=?="),
        ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
        ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
    ],
)
def test_header_values_follow_the_specification_s_encoding(value, expected):
    assert header_value(value) == expected


def test_invalid_annotations_give_no_headers():
    params = ParamHeaders()
    duplicate = {
        "name": "t",
        "inputSchema": {
            "properties": {
                "a": {"type": "string", "x-mcp-header": "Region"},
                "b": {"type": "string", "x-mcp-header": "region"},
            }
        },
    }
    assert params.learn({"tools": [duplicate]}) == ["t"]
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "t", "arguments": {"a": "x"}},
    }
    headers = request_headers(call, "2025-11-25", params)
    assert not any(name.startswith("Mcp-Param-") for name in headers)
    assert headers["Mcp-Name"] == "t" and headers["MCP-Protocol-Version"] == "2025-11-25"
