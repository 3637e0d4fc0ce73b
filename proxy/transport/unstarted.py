"""A proxy that cannot start still answers: the client's first request gets why, then it exits.

A stdio MCP server that exits before it answers `initialize` looks to its client like a closed
connection: the official Python SDK raises "Connection closed", and the reason is left in a log
file the person seldom opens. An error answer to `initialize` is what a client shows for the
failed server instead (the SDK raises it as the McpError, with our message). The server itself is
never started.
"""

import os
import sys

from ..mcp.jsonrpc import NOT_STARTED, LineError, dump_line, error_response, parse_line
from .whole_writes import flush_whole, write_whole

MAX_REQUEST_BYTES = 1 << 20
"""An `initialize` request is a few hundred bytes: a longer line is read in pieces and skipped."""
EXIT_NOT_STARTED = 2


def answer_not_started(problem: str, data: dict) -> int:
    """Say `problem` on stderr, answer the first request on stdin with it (JSON-RPC error
    NOT_STARTED, `data` as its data), and return the exit code."""
    print(problem, file=sys.stderr, flush=True)
    stdin = sys.stdin.buffer
    if os.isatty(stdin.fileno()):
        return EXIT_NOT_STARTED  # a person ran it by hand: no client will send a request
    for raw in iter(lambda: stdin.readline(MAX_REQUEST_BYTES), b""):
        try:
            message, _ = parse_line(raw)
        except LineError:
            continue
        # Notifications get no answer; a client's first request is `initialize`.
        if isinstance(message, dict) and isinstance(message.get("method"), str) and "id" in message:
            answer = error_response(message["id"], NOT_STARTED, problem, data)
            write_whole(sys.stdout.buffer, dump_line(answer))
            flush_whole(sys.stdout.buffer)
            break
    return EXIT_NOT_STARTED
