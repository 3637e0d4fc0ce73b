"""Reading a server's HTTP answer within the size limit: one JSON body, or the events of an SSE stream.

The limit applies to the decoded bytes of one message (one SSE event, or the whole JSON body), so
neither a huge message nor a stream that never ends a line can make the proxy hold more than it.
"""

import re
import socket
from collections.abc import Iterator

import httpx
from httpx_sse import EventSource, ServerSentEvent

_HEAD = 4096
# An SSE event ends at a blank line: two line ends in a row, each of them CR, LF or CRLF. Every
# such pair holds one of these three (CR then LF alone is a single line end).
_BOUNDARY = re.compile(rb"\n\n|\n\r|\r\r")


class Oversized(Exception):
    """One message passed the size limit; `head` is its start (where its id usually is)."""

    def __init__(self, head: bytes, size: int) -> None:
        super().__init__(f"a message of more than {size} bytes")
        self.head = head
        self.size = size


class _Bounded(httpx.SyncByteStream):
    """Chunks of a response, stopped with Oversized once one event (or the whole body) passes `limit`."""

    def __init__(self, chunks: Iterator[bytes], limit: int, per_event: bool) -> None:
        self._chunks = chunks
        self._limit = limit
        self._per_event = per_event

    def __iter__(self) -> Iterator[bytes]:
        size, head, tail = 0, b"", b""  # the current event's bytes so far, its start, the last byte
        for chunk in self._chunks:
            if not self._per_event:
                size += len(chunk)
                head = head if len(head) >= _HEAD else (head + chunk)[:_HEAD]
                if size > self._limit:
                    raise Oversized(head, size)
                yield chunk
                continue
            joined = tail + chunk  # a boundary may straddle two chunks
            start = len(tail) - size  # where the current event began, in `joined`
            for end in _boundary_ends(joined):
                if end - start > self._limit:
                    raise Oversized(_event_head(head, joined, start), end - start)
                start = end
            head = _event_head(head, joined, start)
            size = len(joined) - start
            if size > self._limit:
                raise Oversized(head, size)
            tail = joined[-1:]
            yield chunk


def _boundary_ends(data: bytes) -> Iterator[int]:
    """Where each blank line in `data` ends (the events' boundaries).

    Most chunks of a large event hold no CR and no two LFs in a row: memchr-speed tests rule
    them out, where the regex would visit every byte of them.
    """
    if b"\r" in data or b"\n\n" in data:
        for boundary in _BOUNDARY.finditer(data):
            yield boundary.end()


def _event_head(head: bytes, joined: bytes, start: int) -> bytes:
    """The first bytes of the event that begins at `start` of `joined` (before it, when negative)."""
    if start >= 0:
        return joined[start : start + _HEAD]
    return head if len(head) >= _HEAD else (head + joined[1:])[:_HEAD]


def read_body(response: httpx.Response, limit: int) -> bytes:
    """The whole (decoded) body, or Oversized."""
    return b"".join(_Bounded(response.iter_bytes(), limit, per_event=False))


def read_line(response: httpx.Response, limit: int) -> bytes:
    """The whole (decoded) body as one stdio line (see `as_line`), or Oversized.

    The line end is joined with the body's chunks: a body that holds no line break of its own (as
    JSON bodies usually are) becomes its line without another copy.
    """
    return as_line(b"".join([*_Bounded(response.iter_bytes(), limit, per_event=False), b"\n"]))


def events(response: httpx.Response, limit: int) -> Iterator[ServerSentEvent]:
    """The stream's events as httpx-sse parses them; an event larger than `limit` raises Oversized.

    An event the stream cut before its closing blank line is never yielded.
    """
    bounded = httpx.Response(
        response.status_code,
        headers={"content-type": response.headers.get("content-type", "")},
        stream=_Bounded(response.iter_bytes(), limit, per_event=True),
    )
    return EventSource(bounded).iter_sse()


def is_event_stream(response: httpx.Response) -> bool:
    """Whether the answer is an SSE stream."""
    return _media_type(response) == "text/event-stream"


def is_json(response: httpx.Response) -> bool:
    """Whether the answer is one JSON body."""
    kind = _media_type(response)
    return kind == "application/json" or kind.endswith("+json")


def as_line(text: bytes | str) -> bytes:
    """A server message as one stdio line.

    Outside strings JSON may hold line breaks (a pretty-printed body, SSE data over several lines);
    inside strings it may not, so turning every one into a space changes no valid message's value.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    if (
        data.find(b"\n") == len(data) - 1
        and b"\r" not in data
        and data[:1] not in b" \t"
        and data[-2:-1] not in b" \t"
    ):
        return data  # one line already: its end is its only break, and nothing is to strip
    # The break a body often ends with is stripped first: only one inside it costs two copies.
    data = data.strip(b" \t\r\n")
    if b"\n" in data or b"\r" in data:
        data = data.replace(b"\r", b" ").replace(b"\n", b" ")
    return data + b"\n"


def _media_type(response: httpx.Response) -> str:
    return response.headers.get("content-type", "").partition(";")[0].strip().lower()


def hang_up(response: httpx.Response) -> None:
    """Cut a response's connection from another thread, so a blocked read there returns.

    Closing the response would wait for that read; shutting the socket down does not.
    """
    stream = response.extensions.get("network_stream")
    sock = stream.get_extra_info("socket") if stream is not None else None
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
