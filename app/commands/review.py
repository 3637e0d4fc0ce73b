"""`lazaretto review`: open the review app on the store (human only: it needs a terminal)."""

import argparse

from lazaretto.app import human
from lazaretto.store.opening import Side, StoreAPI, open_store


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto review`."""
    human.add_store_option(parser)


def run(args: argparse.Namespace) -> int:
    """Run the app until the person quits; 2 when there is no terminal to run it in."""
    if not human.refuse_unless_terminal("review"):
        return human.EXIT_REFUSED
    return open_review(open_store(args.store, side=Side.PERSON))


def open_review(store: StoreAPI) -> int:
    """Run the review app on `store` and close the store after."""
    # Imported here: only a command that shows the app pays for Textual.
    from lazaretto.app.review.app import ReviewApp

    try:
        ReviewApp(store).run()
    finally:
        store.close()
    return 0
