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
import time

from lazaretto.store.station.marker import MarkerError, find_marker
from lazaretto.store.station.wire import MAX_LINE, VERSION, decode, encode

from ..transport.whole_writes import print_json_line
from .clients import CLIENTS
from .files import read_regular


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
        reply = _ask_station(marker, argv[0], argv[1], raw, time.monotonic() + _budget_seconds())
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


def _budget_seconds() -> float:
    """The hook run's budget (see `budget`), read without importing the rest of the hooks."""
    from .budget import budget_seconds

    return budget_seconds()


class _Deadline(socket.socket):
    """A socket whose every wait ends at one deadline: the station may answer slowly, or ask back
    many times, but the hook answers before the client's timeout all the same."""

    deadline = 0.0

    def wait_at_most(self) -> None:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise StationDown("the station did not answer within the hook's budget")
        self.settimeout(left)


def _ask_station(marker, client: str, event: str, raw: bytes, deadline: float) -> dict:
    sock = _Deadline(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.deadline = deadline
    try:
        sock.wait_at_most()
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
        sock.wait_at_most()
        sock.sendall(encode(request))
        reader = sock.makefile("rb")
        while True:
            sock.wait_at_most()
            line = reader.readline(MAX_LINE + 1)
            if not line.endswith(b"\n"):
                raise StationDown("the station closed the connection")
            message = decode(line)
            if not isinstance(message, dict) or message.get("id") != 1:
                raise StationDown("the station answered out of turn")
            if "ask" in message:
                answer = _answer(message["ask"], sock.deadline)
                sock.wait_at_most()
                sock.sendall(encode({"id": 1, "answer": answer}))
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


def _answer(question: object, deadline: float):
    """What the station asked about the user's side: a path's real form, a file's bytes, or what
    git's configuration says (read as the user, within the hook's deadline)."""
    if not isinstance(question, dict):
        return None
    if isinstance(question.get("git_config"), str) and isinstance(question.get("pattern"), str):
        from .gitconfig import GitConfigTimeout, git_config

        try:
            return git_config(
                question["git_config"], question["pattern"], deadline - time.monotonic()
            )
        except GitConfigTimeout:
            return None
    if isinstance(question.get("realpath"), str):
        return os.path.realpath(question["realpath"])
    if isinstance(question.get("read"), str) and isinstance(question.get("limit"), int):
        data = read_regular(question["read"], question["limit"])
        return None if data is None else data.decode("latin-1")
    return None


def _fail_closed(argv: list[str], raw: bytes, error: BaseException) -> int:
    # The slow path, taken only when the station is away: the client's own fail-closed reply.
    from lazaretto.proxy.hooks.dispatch import answer_and_emit

    return answer_and_emit(argv[0], argv[1], raw, error)
