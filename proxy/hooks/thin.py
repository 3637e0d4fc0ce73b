"""`lazaretto hook` with a station: forward the event, print the station's answer.

A client runs a hook before and after every tool call, so this path imports nothing but the
marker and the wire format: the station does the cleaning, the gate and the store writes, warm,
under its own account. It asks back for what only the user's account can see (a path's real form,
a script's bytes). If the station cannot be reached, the hook answers the fail-closed way of its
client and event (a deny, or the output withheld with a notice saying the station is down).
"""

import os
import socket
import sys

from lazaretto.store.station.marker import MarkerError, find_marker
from lazaretto.store.station.wire import MAX_LINE, VERSION, decode, encode

from ..transport.whole_writes import print_json_line

CLIENTS = ("claude-code", "codex", "cursor")
TIMEOUT_SECONDS = 50.0
"""Below the clients' own hook timeouts (60 s by default), so the fail-closed answer is the one read."""


class StationDown(RuntimeError):
    """The station could not answer this hook event."""


def forward(argv: list[str]) -> int | None:
    """Answer `hook CLIENT EVENT` through the station; None when there is none (answer in process)."""
    if len(argv) != 2 or argv[0] not in CLIENTS:
        return None  # the full parser says what is wrong
    try:
        marker = find_marker()
    except MarkerError as exc:
        return _fail_closed(argv, sys.stdin.buffer.read(), StationDown(str(exc)))
    if marker is None:
        return None
    raw = sys.stdin.buffer.read()
    try:
        reply = _ask_station(marker, argv[0], argv[1], raw)
    except Exception as exc:  # whatever went wrong, the client must not read it as a pass
        return _fail_closed(
            argv,
            raw,
            StationDown(
                f"the lazaretto station at {marker.socket} did not answer ({exc}); start it with "
                "`sudo systemctl start lazaretto-station`"
            ),
        )
    if reply.get("stdout") is not None:
        print_json_line(reply["stdout"])
    if reply.get("stderr"):
        print(reply["stderr"], file=sys.stderr)
    return int(reply.get("exit_code", 2))


def _ask_station(marker, client: str, event: str, raw: bytes) -> dict:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(TIMEOUT_SECONDS)
    try:
        sock.connect(marker.socket)
        if marker.uid is not None:
            from lazaretto.store.station.peer import peer_of

            uid = peer_of(sock).uid
            if uid != marker.uid:
                raise StationDown(f"the process on the socket runs as uid {uid}, not the station's")
        request = {
            "v": VERSION,
            "id": 1,
            "op": "hook.run",
            "args": {
                "client": client,
                "event": event,
                "input": raw.decode("utf-8", "surrogateescape"),
                "env": dict(os.environ),
                "cwd": os.getcwd(),
                "ppid": os.getppid(),
            },
        }
        sock.sendall(encode(request))
        reader = sock.makefile("rb")
        while True:
            line = reader.readline(MAX_LINE + 1)
            if not line.endswith(b"\n"):
                raise StationDown("the station closed the connection")
            message = decode(line)
            if not isinstance(message, dict) or message.get("id") != 1:
                raise StationDown("the station answered out of turn")
            if "ask" in message:
                sock.sendall(encode({"id": 1, "answer": _answer(message["ask"])}))
                continue
            if not message.get("ok"):
                error = message.get("error") or {}
                raise StationDown(f"{error.get('code')}: {error.get('message')}")
            result = message.get("result")
            if not isinstance(result, dict):
                raise StationDown("the station's answer is not a hook reply")
            return result
    finally:
        sock.close()


def _answer(question: object):
    """What the station asked about the user's side: a path's real form, or a file's bytes."""
    if not isinstance(question, dict):
        return None
    if isinstance(question.get("realpath"), str):
        return os.path.realpath(question["realpath"])
    if isinstance(question.get("read"), str):
        limit = question.get("limit")
        try:
            with open(question["read"], "rb") as handle:
                data = handle.read(int(limit) + 1 if isinstance(limit, int) else -1)
        except OSError:
            return None
        return data.decode("latin-1")
    return None


def _fail_closed(argv: list[str], raw: bytes, error: BaseException) -> int:
    # The slow path, taken only when the station is away: the client's own fail-closed reply.
    from lazaretto.proxy.hooks.dispatch import answer_and_emit

    return answer_and_emit(argv[0], argv[1], raw, error)
