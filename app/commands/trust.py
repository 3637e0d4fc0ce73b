"""`lazaretto trust DIR`: a person says a directory the agent cloned may be read as trusted (human only)."""

import argparse
import os
import sys

from lazaretto.app import human
from lazaretto.store.opening import StoreAPI
from lazaretto.store.station.protocol import ProofError


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto trust`."""
    parser.add_argument("dir", help="a directory the agent cloned (git clone, gh repo clone)")
    human.add_store_option(parser)


def run(args: argparse.Namespace) -> int:
    """0 trusted; 1 not untrusted, or not confirmed; 2 not at a terminal."""
    if not human.refuse_unless_terminal("trust"):
        return human.EXIT_REFUSED
    path = os.path.realpath(os.path.expanduser(args.dir))
    return human.with_store(args, "trust", lambda store: _trust(store, path))


def _trust(store: StoreAPI, path: str) -> int:
    row = store.directories.untrusted_for(path)
    if row is None:
        print(
            f"lazaretto trust: {human.visible(path)} is not in a directory marked untrusted; nothing to do.",
            file=sys.stderr,
        )
        return human.EXIT_DECLINED
    if row["path"] != path:
        print(
            f"{human.visible(path)} lies inside {human.visible(row['path'])}, which is what would be trusted."
        )
    print(
        f"Trust {human.visible(row['path'])}: marked untrusted at {row['created_at']}, "
        f"{human.visible(row['reason'] or 'cloned by the agent')}."
    )
    print(
        "Once trusted, what the agent reads from it no longer taints its session; its files can still carry "
        "instructions someone else wrote."
    )
    confirmation = human.confirm(store, f"trust {row['path']}", "directories.trust", row["path"])
    if confirmation is None:
        return human.EXIT_DECLINED
    try:
        trusted = human.decide(
            store,
            confirmation,
            lambda proven: proven.directories.trust(row["path"], note=confirmation.note),
        )
    except ProofError as exc:
        print(f"lazaretto trust: {exc}. Nothing was changed.", file=sys.stderr)
        return human.EXIT_DECLINED
    if not trusted:
        print("lazaretto trust: it was changed meanwhile. Nothing was changed.", file=sys.stderr)
        return human.EXIT_DECLINED
    print(f"Trusted {human.visible(row['path'])}.")
    return 0
