"""Writing all of a message to a pipe, however little each write takes.

Under `PYTHONUNBUFFERED=1` or `python -u` (common in containers and client configs), `sys.stdout.buffer`
is the raw file: a write interrupted by a signal (a stop and continue, a debugger or profiler
attaching) returns after part of the bytes, and one to a non-blocking pipe takes none once the
pipe is full. Ignoring the count cuts the message short and the client waits for its end forever.
"""

import io
import json
import select
import sys
from typing import IO


def write_whole(stream: IO[bytes] | io.RawIOBase, data: bytes) -> None:
    """Write every byte of `data` to `stream`, in order, waiting while a non-blocking pipe is full."""
    view = memoryview(data)
    while view:
        try:
            written = stream.write(view)
        except BlockingIOError as exc:  # a buffered stream over a non-blocking pipe
            written = exc.characters_written
            _wait_writable(stream)
        if written is None:  # a raw non-blocking stream that could take nothing yet
            _wait_writable(stream)
            continue
        view = view[written:]


def flush_whole(stream: IO[bytes] | io.RawIOBase) -> None:
    """Flush `stream`, waiting while a non-blocking pipe is full."""
    while True:
        try:
            stream.flush()
            return
        except BlockingIOError:
            _wait_writable(stream)


def _wait_writable(stream: IO[bytes] | io.RawIOBase) -> None:
    select.select([], [stream], [])


def print_json_line(value: object) -> None:
    """`value` as one line of JSON on stdout (UTF-8, not ASCII-escaped), written whole."""
    write_whole(sys.stdout.buffer, json.dumps(value, ensure_ascii=False).encode("utf-8") + b"\n")
    flush_whole(sys.stdout.buffer)
