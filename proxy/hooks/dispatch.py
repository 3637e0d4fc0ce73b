"""One hook event to the client's adapter, by a table: the client's hook JSON in, the client's reply out.

Every failure inside is answered the fail-closed way for that client and event (a deny, or the
output withheld with a notice); nothing escapes as a crash that would let the original through.
"""

import importlib
import json
import sys

from ..transport.whole_writes import print_json_line
from . import budget, environment

# Each client's adapter module, by the client's name in `clients.CLIENTS`.
CLIENTS = {
    "claude-code": "lazaretto.proxy.hooks.claude",
    "codex": "lazaretto.proxy.hooks.codex",
    "cursor": "lazaretto.proxy.hooks.cursor",
}


def answer_and_emit(client: str, event: str, raw: bytes, error: BaseException | None = None) -> int:
    """Answer `raw` in this process (or, given `error`, the fail-closed way) and print the reply."""
    try:
        reply = answer(client, event, raw, error)
    except BaseException as again:
        return _last_resort(again)
    return emit(reply)


def answer(client: str, event: str, raw: bytes, error: BaseException | None = None):
    """The client's reply to one hook event: what `handle` says, or what `fail` says on any error.

    `error` set: the event could not be answered at all (the station is down), so fail closed.
    Only an error inside `fail` itself escapes.
    """
    from dataclasses import replace

    module = importlib.import_module(CLIENTS[client])
    data = None
    try:
        if event not in module.EVENTS:
            raise ValueError(
                f"{client} has no hook event {event!r} (known: {', '.join(module.EVENTS)})"
            )
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("the hook input is not a JSON object")
        if error is not None:
            raise error
        with budget.running(budget.budget_seconds(environment.current().environ)):
            return module.handle(event, data)
    except BaseException as exc:
        why = f"lazaretto hook {client} {event}: {type(exc).__name__}: {exc}"
        reply = module.fail(event, data, exc)
        return replace(reply, stderr="\n".join(part for part in (why, reply.stderr) if part))


def emit(reply) -> int:
    """Print a reply as the client reads it and return its exit code."""
    if reply.stdout is not None:
        print_json_line(reply.stdout)
    if reply.stderr:
        print(reply.stderr, file=sys.stderr)
    return reply.exit_code


def _last_resort(error: BaseException) -> int:
    """Exit 2 blocks in every client; stop the agent too, for clients that read the JSON."""
    reason = f"lazaretto hook failed ({type(error).__name__}); the call was refused and the output withheld."
    sys.stdout.write(
        json.dumps(
            {
                "continue": False,
                "stopReason": reason,
                "decision": "block",
                "reason": reason,
                "permission": "deny",
            }
        )
        + "\n"
    )
    print(reason, file=sys.stderr)
    return 2
