"""`lazaretto review`: open the review app on the store (human only: it needs a terminal)."""

import argparse
import sys

from lazaretto.app import human
from lazaretto.proxy.policy import Policy, PolicyError, load_policy
from lazaretto.store.opening import Side, StoreAPI, StoreMissing, open_store


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto review`."""
    human.add_store_option(parser)
    parser.add_argument(
        "-p",
        "--policy",
        metavar="FILE",
        help="the proxies' policy, for tools no proxy has classified yet"
        " (default: LAZARETTO_POLICY, else lazaretto.toml in the config dir)",
    )
    parser.add_argument(
        "--notify",
        action="store_true",
        help="also announce each newly blocked call or withheld field as a desktop notification, "
        "where the desktop offers them (notify-send, or osascript on macOS); the terminal bell "
        "rings either way",
    )


def run(args: argparse.Namespace) -> int:
    """Run the app until the person quits; 2 when there is no terminal or the policy is unreadable."""
    if not human.refuse_unless_terminal("review"):
        return human.EXIT_REFUSED
    try:
        policy = load_policy(args.policy)
    except PolicyError as exc:
        print(f"lazaretto review: {exc}", file=sys.stderr)
        return human.EXIT_REFUSED
    try:
        store = open_store(args.store, side=Side.PERSON)
    except StoreMissing as exc:
        print(f"lazaretto review: {exc}", file=sys.stderr)
        return human.EXIT_REFUSED
    return open_review(store, policy, notify=args.notify)


def open_review(
    store: StoreAPI, policy: Policy, *, demo: bool = False, notify: bool = False
) -> int:
    """Run the review app on `store` and close the store after."""
    # Imported here: only a command that shows the app pays for Textual.
    from lazaretto.app.review.app import ReviewApp

    try:
        ReviewApp(store, policy=policy, demo=demo, desktop_notifications=notify).run()
    finally:
        store.close()
    return 0
