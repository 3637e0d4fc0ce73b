"""`lazaretto hook` in the user's own process: the work in a child, the answer at the deadline.

The cooperative checks of `budget` stop the work they count; a step they do not count (a store
that waits on a lock, a parser in C that holds the interpreter, a file system that hangs) would
still hold the hook past the client's timeout, and the client would then run the call. So the work
runs in a forked child and this process waits for its reply until the run's deadline; past it, the
child and whatever it started are killed and the fail-closed answer is printed (a deny, or the
output withheld) with the reason. Where there is no fork (Windows), the cooperative checks are all.
"""

import importlib
import json
import os
import select
import signal
import time

from . import budget
from .dispatch import CLIENTS, answer, answer_and_emit, emit


def answer_in_time(client: str, event: str, raw: bytes) -> int:
    """Answer one hook event by the run's deadline, and print the reply; return the exit code."""
    if not hasattr(os, "fork"):
        return answer_and_emit(client, event, raw)
    deadline = time.monotonic() + budget.budget_seconds()
    if client in CLIENTS:
        # Loaded before the fork: the child shares it, and a late answer needs it at once.
        importlib.import_module(CLIENTS[client])
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's coverage is not collected
        os.close(reading)
        _work(client, event, raw, writing)
    os.close(writing)
    try:
        os.setpgid(child, child)  # as the child does: whichever runs first, the group exists
    except OSError:
        pass
    try:
        payload = _collect(reading, deadline)
    finally:
        os.close(reading)
    if payload is None:
        _stop(child)
        late = budget.OverBudget("the hook ran out of time before it could decide")
        return emit(answer(client, event, raw, late))
    os.waitpid(child, 0)
    try:
        from .common import Reply

        return emit(Reply(**json.loads(payload)))
    except (ValueError, TypeError) as exc:
        broken = budget.OverBudget(f"the hook's work ended without an answer ({exc})")
        return emit(answer(client, event, raw, broken))


def _work(client: str, event: str, raw: bytes, writing: int) -> None:
    """The child: its own process group (so that what it starts dies with it), the reply as JSON."""
    code = 0
    try:
        os.setpgid(0, 0)
        reply = answer(client, event, raw)
        data = json.dumps(
            {"stdout": reply.stdout, "exit_code": reply.exit_code, "stderr": reply.stderr}
        ).encode()
        view = memoryview(data)
        while view:
            view = view[os.write(writing, view) :]
    except BaseException:
        code = 1  # no reply: the parent answers the fail-closed way
    finally:
        os._exit(code)


def _collect(reading: int, deadline: float) -> bytes | None:
    """Everything the child writes before it closes the pipe, or None at the deadline."""
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([reading], [], [], left)
        if not ready:
            return None
        chunk = os.read(reading, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _stop(child: int) -> None:
    """Kill the child's process group, and reap the child."""
    try:
        os.killpg(child, signal.SIGKILL)
    except OSError:
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.waitpid(child, 0)
    except ChildProcessError:
        pass
