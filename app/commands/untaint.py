"""`lazaretto untaint`: a person clears a session's taint after reading what caused it (human only)."""

import argparse
import os
import sys

from lazaretto.app import human
from lazaretto.store.clock import parse_stamp
from lazaretto.store.decisions import DecisionError
from lazaretto.store.opening import StoreAPI
from lazaretto.store.station.protocol import ProofError

SESSION_ENV = "LAZARETTO_SESSION"


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto untaint`."""
    parser.add_argument(
        "--session",
        metavar="KEY",
        help=f"the session to clear, by its key or its client's process id (default: {SESSION_ENV},"
        " else the only tainted session whose client still runs)",
    )
    human.add_store_option(parser)


def run(args: argparse.Namespace) -> int:
    """0 cleared; 1 nothing to clear or not confirmed; 2 refused or the session is ambiguous."""
    if not human.refuse_unless_terminal("untaint"):
        return human.EXIT_REFUSED
    return human.with_store(args, "untaint", lambda store: _choose_and_untaint(store, args.session))


def _choose_and_untaint(store: StoreAPI, session: str | None) -> int:
    given = session or os.environ.get(SESSION_ENV)
    key = _by_client_pid(store, given) if given else _only_tainted(store)
    if key is None:
        return human.EXIT_REFUSED
    return _untaint(store, key)


def _by_client_pid(store: StoreAPI, given: str) -> str:
    """The session `given` names: a key as is, or the one live session of that client process."""
    if not given.isdigit():
        return given
    live = [
        row["key"]
        for row in store.sessions.all()
        if str(row.get("client_pid")) == given and not row["ended"]
    ]
    return live[0] if len(live) == 1 else given


def _only_tainted(store: StoreAPI) -> str | None:
    """The one tainted session whose client still runs; with several, list them and return None.

    A session whose client exited needs no untaint: nothing of it can send anything any more."""
    sessions = store.sessions.all()
    tainted = [row for row in sessions if row["tainted"] and not row["ended"]]
    if len(tainted) == 1:
        return tainted[0]["key"]
    if not tainted:
        ended = sum(1 for row in sessions if row["tainted"] and row["ended"])
        also = (
            f" ({ended} session{'s' if ended > 1 else ''} whose client exited still"
            f" hold{'' if ended > 1 else 's'} taint, and need{'' if ended > 1 else 's'} no untaint)"
            if ended
            else ""
        )
        print(
            f"lazaretto untaint: no running session is tainted; nothing to clear{also}.",
            file=sys.stderr,
        )
        return None
    print(
        "lazaretto untaint: several running sessions are tainted; name one with --session KEY:",
        file=sys.stderr,
    )
    for row in tainted:
        first = row["reasons"][0]
        print(
            f"  {human.visible(row['key'])}  {human.visible(row['label'])}  since {first['at']}"
            f"  {human.visible(first['reason'])}",
            file=sys.stderr,
        )
    return None


def _untaint(store: StoreAPI, key: str) -> int:
    state = store.sessions.state(key)
    if not state.tainted:
        print(
            f"lazaretto untaint: session {human.visible(key)} is not tainted; nothing to clear.",
            file=sys.stderr,
        )
        return human.EXIT_DECLINED
    now = store.clock()
    print(
        f"Clear the taint of session {human.visible(key)}: these untrusted reads will no longer block"
    )
    print("its outbound tools, and its agent may write, send and post again.")
    rows = [
        [
            event["at"],
            human.ago(now - parse_stamp(event["at"])),
            f"{event['server']}/{event['tool'] or event['method']}",
            event["method"],
            event["reason"],
        ]
        for event in state.reasons
    ]
    print(human.table(["AT", "AGE", "READ", "METHOD", "REASON"], rows))
    confirmation = human.confirm(
        store, f"clear these {len(rows)} taint event(s)", "decisions.untaint", key
    )
    if confirmation is None:
        return human.EXIT_DECLINED
    # A read that arrived while the person was looking was not shown to them: do not clear it blind.
    shown = {event["id"] for event in state.reasons}
    arrived = [event for event in store.sessions.state(key).reasons if event["id"] not in shown]
    if arrived:
        print(
            f"{len(arrived)} more untrusted read(s) arrived meanwhile. Nothing was changed; run untaint again."
        )
        return human.EXIT_DECLINED
    try:
        cleared = human.decide(
            store,
            confirmation,
            lambda proven: proven.decisions.untaint(
                key, seen_up_to=max(shown), note=confirmation.note
            ),
        )
    except (DecisionError, ProofError) as exc:
        print(f"lazaretto untaint: {exc}. Nothing was changed.", file=sys.stderr)
        return human.EXIT_DECLINED
    print(f"Cleared {cleared} taint event(s) of session {human.visible(key)}.")
    return 0
