"""`lazaretto review`: open the review app on the store (human only: it needs a terminal)."""

import argparse

from lazaretto.app import human
from lazaretto.store import Store


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto review`."""
    parser.add_argument(
        "--store",
        metavar="PATH",
        help="the store file (default: LAZARETTO_STORE, else the user state dir)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the app until the person quits; 2 when there is no terminal to run it in."""
    if not human.refuse_unless_terminal("review"):
        return human.EXIT_REFUSED
    return open_review(Store(args.store))


def open_review(store: Store) -> int:
    """Run the review app on `store` and close the store after."""
    # Imported here: only a command that shows the app pays for Textual.
    from lazaretto.app.review.app import ReviewApp

    try:
        ReviewApp(store).run()
    finally:
        store.close()
    return 0
