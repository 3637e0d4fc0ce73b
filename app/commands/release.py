"""`lazaretto release ID [--visible | --original]`: a person lets the agent read a withheld field on
its next read, as its visible text or as the original (human only)."""

import argparse
import sys

from lazaretto.app import human
from lazaretto.app.commands.show import describe, revealed
from lazaretto.store.decisions import DecisionError
from lazaretto.store.opening import StoreAPI
from lazaretto.store.states import FieldStatus, ReleasedAs
from lazaretto.store.station.protocol import ProofError


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto release`."""
    parser.add_argument("id", help="the quarantine id from the agent's notice, e.g. Q-7F3K9M")
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--visible",
        dest="released_as",
        action="store_const",
        const=ReleasedAs.VISIBLE,
        help="release the text a reader of the rendered content sees: hidden content removed, "
        "its payload not given to the agent (the default)",
    )
    what.add_argument(
        "--original",
        dest="released_as",
        action="store_const",
        const=ReleasedAs.ORIGINAL,
        help="release the field as the server sent it, hidden payload included (a warning "
        "names that payload before you confirm)",
    )
    parser.set_defaults(released_as=ReleasedAs.VISIBLE)
    human.add_store_option(parser)


def run(args: argparse.Namespace) -> int:
    """0 released; 1 not released (unknown, already decided, not confirmed); 2 not at a terminal."""
    if not human.refuse_unless_terminal("release"):
        return human.EXIT_REFUSED
    return human.with_store(
        args, "release", lambda store: _release(store, args.id, args.released_as)
    )


def _release(store: StoreAPI, qid: str, released_as: ReleasedAs) -> int:
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
    if released_as == ReleasedAs.ORIGINAL:
        payloads = human.hidden_payloads(row)
        if payloads:
            print(
                f"\nWarning: the original carries hidden content the visible text does not: {payloads}."
            )
    else:
        print("\nThe visible text, as the agent will read it:\n")
        print(revealed(row["cleaned"]))
        hidden = human.hidden_payloads(row, quote=0)
        if hidden:
            print(f"\nNot given to the agent: {hidden}. `--original` would give it too.")
    print(f"\n{human.release_effect(row, human.policy_or_empty('release'), released_as)}")
    confirmation = human.confirm(
        store,
        f"release {row['id']} ({released_as} text) to the agent",
        "decisions.release",
        row["id"],
    )
    if confirmation is None:
        return human.EXIT_DECLINED
    try:
        human.decide(
            store,
            confirmation,
            lambda proven: proven.decisions.release(
                row["id"], released_as=released_as, note=confirmation.note
            ),
        )
    except (DecisionError, ProofError) as exc:
        print(f"lazaretto release: {exc}. Nothing was changed.", file=sys.stderr)
        return human.EXIT_DECLINED
    print(f"Released {row['id']} ({released_as} text). Ask the agent to read it again.")
    return 0
