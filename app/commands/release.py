"""`lazaretto release ID`: a person lets the agent see a withheld field on its next read (human only)."""

import argparse
import sys

from lazaretto.app import human
from lazaretto.app.commands.show import describe
from lazaretto.store.decisions import DecisionError
from lazaretto.store.opening import StoreAPI
from lazaretto.store.states import FieldStatus
from lazaretto.store.station.protocol import ProofError


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto release`."""
    parser.add_argument("id", help="the quarantine id from the agent's notice, e.g. Q-7F3K9M")
    human.add_store_option(parser)


def run(args: argparse.Namespace) -> int:
    """0 released; 1 not released (unknown, already decided, not confirmed); 2 not at a terminal."""
    if not human.refuse_unless_terminal("release"):
        return human.EXIT_REFUSED
    return human.with_store(args, "release", lambda store: _release(store, args.id))


def _release(store: StoreAPI, qid: str) -> int:
    row = store.quarantine.get(qid)
    if row is None:
        print(f"lazaretto release: no withheld field {human.visible(qid)}.", file=sys.stderr)
        return human.EXIT_DECLINED
    if row["status"] != FieldStatus.WITHHELD:
        print(f"lazaretto release: {row['id']} is already {row['status']}.", file=sys.stderr)
        return human.EXIT_DECLINED
    if row.get("redacted") and human.unlock(store, f"what {row['id']} says"):
        row = store.quarantine.get(row["id"]) or row
    print(describe(row))
    print(f"\n{human.release_effect(row, human.policy_or_empty('release'))}")
    confirmation = human.confirm(store, f"release {row['id']} to the agent")
    if confirmation is None:
        return human.EXIT_DECLINED
    try:
        confirmation.on(store).decisions.release(row["id"], note=confirmation.note)
    except (DecisionError, ProofError) as exc:
        print(f"lazaretto release: {exc}. Nothing was changed.", file=sys.stderr)
        return human.EXIT_DECLINED
    print(f"Released {row['id']}. Ask the agent to read it again.")
    return 0
