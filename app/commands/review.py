"""`lazaretto review`: open the review app on the store (human only: it needs a terminal)."""

import argparse

from lazaretto.app import human
from lazaretto.app.policy_report import check_policy
from lazaretto.proxy.policy import Policy
from lazaretto.store.opening import Side, StoreAPI, open_store


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


def run(args: argparse.Namespace) -> int:
    """Run the app until the person quits; 2 when there is no terminal.

    A broken policy does not keep the person from reviewing: the app opens without it (every
    server counts as untrusted, as for a proxy with no policy) and its header says so."""
    if not human.refuse_unless_terminal("review"):
        return human.EXIT_REFUSED
    report = check_policy(args.policy)
    notice = f"POLICY {report.headline()}" if report.broken else None
    return open_review(
        open_store(args.store, side=Side.PERSON), report.policy or Policy(), notice=notice
    )


def open_review(
    store: StoreAPI, policy: Policy, *, demo: bool = False, notice: str | None = None
) -> int:
    """Run the review app on `store` and close the store after; `notice` leads its header."""
    # Imported here: only a command that shows the app pays for Textual.
    from lazaretto.app.review.app import ReviewApp

    try:
        app = ReviewApp(store, policy=policy, demo=demo)
        if notice:
            app.sub_title = f"{notice} · {app.sub_title}"
        app.run()
    finally:
        store.close()
    return 0
