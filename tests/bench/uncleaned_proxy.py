"""Reference points for the benchmarks: `lazaretto proxy` with part of its work taken out.

By default everything is the real proxy (relay threads, parsing, gate, taint, pins, the store) but
the field cleaner, replaced by one that passes every payload on unread. With `--unread` the proxy's
relay passes every line on without the mediator reading it at all (no parsing, no gate). With
`--undetected` the cleaner is the real one but its detector finds nothing in any text: fields are
sanitized, their second readings' marks looked for and the store asked as ever, and no text is ever
withheld for what it says. Untrusted text therefore reaches the client unjudged: none of them is
ever a way to run Lazaretto. They exist so that a round trip can be split, side by side in one run,
into relaying, protocol handling, cleaning and, within cleaning, detection.

Run as `python uncleaned_proxy.py [--unread | --undetected] [proxy arguments] -- CMD [ARGS...]`,
like `lazaretto proxy`.
"""

import sys

from lazaretto.app.cli import main
from lazaretto.app.commands import proxy as command
from lazaretto.proxy.mediator.router import Mediator, Outgoing


class _Unread:
    """Takes the deferred cleaner's arguments and changes nothing."""

    def __init__(self, *_args) -> None:
        pass

    def __call__(self, *_args) -> None:
        return None

    def settle(self) -> None:
        pass


# Named `self`, as they stand in for Mediator's methods.
def _client_line(self: Mediator, raw: bytes) -> Outgoing:
    return Outgoing(to_server=[raw])


def _server_line(self: Mediator, line: bytes | list[bytes]) -> Outgoing:
    return Outgoing(to_client=[line.pop() if isinstance(line, list) else line])


def _detect_nothing() -> None:
    """Have the cleaner's detector find nothing in any text. Its modules are loaded here, at the
    start, only for this reference: the others start as the proxy does, without them."""
    from lazaretto.proxy.detect import Detection
    from lazaretto.proxy.quarantine import document, scan

    nothing = Detection(0.0, [])

    def nothing_found(*_args, **_kwargs) -> Detection:
        return nothing

    # Every caller of the detector in the cleaner reads it through these two modules.
    scan.detect = document.detect = nothing_found


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["--undetected"]:
        arguments = arguments[1:]
        _detect_nothing()
    else:
        command.DeferredCleaner = _Unread
    if arguments[:1] == ["--unread"]:
        arguments = arguments[1:]
        Mediator.from_client, Mediator.from_server = _client_line, _server_line
    raise SystemExit(main(["proxy", *arguments]))
