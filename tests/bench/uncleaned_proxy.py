"""A reference point for the benchmarks: `lazaretto proxy` with its cleaning step taken out.

Everything else is the real proxy (relay threads, parsing, gate, taint, pins, the store); only the
field cleaner is replaced by one that passes every payload on unread. Untrusted text therefore
reaches the client unscanned: this is never a way to run Lazaretto. It exists so that a round trip
can be split, side by side in one run, into what the protocol handling costs and what cleaning costs.

Run as `python uncleaned_proxy.py [proxy arguments] -- CMD [ARGS...]`, like `lazaretto proxy`.
"""

import sys

from lazaretto.app.cli import main
from lazaretto.proxy import command


class _Unread:
    """Takes the cleaner's arguments and changes nothing."""

    def __init__(self, *_args) -> None:
        pass

    def __call__(self, *_args) -> None:
        return None


if __name__ == "__main__":
    command.FieldCleaner = _Unread
    raise SystemExit(main(["proxy", *sys.argv[1:]]))
