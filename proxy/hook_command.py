"""`lazaretto hook CLIENT EVENT`: the client's hook JSON on stdin, the client's reply on stdout.

Every failure inside is answered the fail-closed way for that client and event (a deny, or the
output withheld with a notice); nothing escapes as a crash that would let the original through.
"""

import argparse
import importlib
import json
import sys

CLIENTS = {
    "claude-code": "lazaretto.proxy.hooks.claude",
    "codex": "lazaretto.proxy.hooks.codex",
    "cursor": "lazaretto.proxy.hooks.cursor",
}


def configure(parser: argparse.ArgumentParser) -> None:
    """`lazaretto hook CLIENT EVENT`."""
    parser.add_argument("client", choices=sorted(CLIENTS), help="the agent client running the hook")
    parser.add_argument(
        "event",
        help="claude-code and codex: pre-tool-use, post-tool-use; cursor: post-tool-use, "
        "before-shell-execution, before-mcp-execution, pre-tool-use",
    )


def run(args: argparse.Namespace) -> int:
    """Read the event, answer it, and return the exit code the client expects."""
    module = importlib.import_module(CLIENTS[args.client])
    data = None
    try:
        if args.event not in module.EVENTS:
            raise ValueError(
                f"{args.client} has no hook event {args.event!r} (known: {', '.join(module.EVENTS)})"
            )
        data = json.loads(sys.stdin.buffer.read())
        if not isinstance(data, dict):
            raise ValueError("the hook input is not a JSON object")
        reply = module.handle(args.event, data)
    except BaseException as exc:
        print(
            f"lazaretto hook {args.client} {args.event}: {type(exc).__name__}: {exc}",
            file=sys.stderr,
        )
        try:
            reply = module.fail(args.event, data, exc)
        except BaseException as again:
            return _last_resort(again)
    return _emit(reply)


def _emit(reply) -> int:
    if reply.stdout is not None:
        sys.stdout.buffer.write(
            json.dumps(reply.stdout, ensure_ascii=False).encode("utf-8") + b"\n"
        )
        sys.stdout.flush()
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
