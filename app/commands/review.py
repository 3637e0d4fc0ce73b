"""`lazaretto review`: open the review app on the store (human only: it needs a terminal)."""

import argparse
import sys

from lazaretto.app import human
from lazaretto.app.policy_report import check_policy
from lazaretto.proxy.policy import Policy
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
    """Run the app until the person quits; 2 when there is no terminal.

    A broken policy does not keep the person from reviewing: the app opens without it (every
    server counts as untrusted, as for a proxy with no policy) and its header says so."""
    if not human.refuse_unless_terminal("review"):
        return human.EXIT_REFUSED
    report = check_policy(args.policy)
    notice = f"POLICY {report.headline()}" if report.broken else None
    try:
        store = open_store(args.store, side=Side.PERSON)
    except StoreMissing as exc:
        print(f"lazaretto review: {exc}", file=sys.stderr)
        return human.EXIT_REFUSED
    return open_review(store, report.policy or Policy(), notify=args.notify, notice=notice)


def open_review(
    store: StoreAPI,
    policy: Policy,
    *,
    demo: bool = False,
    notify: bool = False,
    notice: str | None = None,
) -> int:
    """Run the review app on `store` and close the store after; `notice` leads its header."""
    # Imported here: only a command that shows the app pays for Textual.
    from lazaretto.app.review.app import ReviewApp

    try:
        ReviewApp(
            store, policy=policy, demo=demo, desktop_notifications=notify, notice=notice
        ).run()
    finally:
        store.close()
    return 0
