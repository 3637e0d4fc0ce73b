"""`lazaretto auth NAME [--logout]`: log in to a remote MCP server that asks for OAuth, or forget the login.

The person runs it at a terminal; the login opens in their browser. The proxy of that server (`lazaretto
proxy -n NAME --url URL`) then sends the token and renews it; it never starts a login itself.
"""

import argparse
import sys

from lazaretto.app.clients.wrapping import remote_targets
from lazaretto.app.human import EXIT_DECLINED, EXIT_REFUSED, refuse_unless_terminal, visible


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto auth`."""
    parser.add_argument(
        "name", help="the server's name (its -n in `lazaretto proxy`, its key in the config)"
    )
    parser.add_argument("--logout", action="store_true", help="forget the stored login")
    parser.add_argument(
        "--url", help="the server's MCP URL (default: the one the client configs give this name)"
    )
    parser.add_argument("--ca-file", help="a PEM file of private certificate authorities to trust")
    parser.add_argument(
        "--header", action="append", default=[], metavar='"NAME: VALUE"', help="an extra header"
    )


def run(args: argparse.Namespace) -> int:
    """0 logged in (or out); 1 the login failed; 2 not at a terminal, or the server is not known."""
    if not refuse_unless_terminal("auth"):
        return EXIT_REFUSED
    from lazaretto.proxy.transport.remote.logins import LoginStore
    from lazaretto.proxy.transport.remote.options import OptionError, build

    if args.url:
        url, headers, ca_file = args.url, args.header, args.ca_file
    else:
        targets = {target.url: target for _, target in remote_targets(args.name)}
        if len(targets) != 1:
            problem = (
                "no remote server" if not targets else "several remote servers with different URLs"
            )
            print(
                f"lazaretto auth: {problem} called {visible(args.name)} in the client configs; "
                "give its URL with --url",
                file=sys.stderr,
            )
            return EXIT_REFUSED
        target = next(iter(targets.values()))
        url = target.url
        headers = [f"{k}: {v}" for k, v in target.headers.items()] + args.header
        ca_file = args.ca_file or target.ca_file
        if target.bearer_token_env:
            print(
                f"{visible(args.name)} sends the token in ${target.bearer_token_env}; it needs no login.",
            )
            return 0
    try:
        options = build(url, headers, None, ca_file)
    except OptionError as exc:
        print(f"lazaretto auth: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    logins = LoginStore(args.name, options.url)
    if args.logout:
        if logins.delete():
            print(f"Forgot the login for {visible(args.name)} ({visible(options.url)}).")
        else:
            print(f"There was no login for {visible(args.name)} ({visible(options.url)}).")
        return 0
    if options.has_credentials:
        print(
            f"{visible(args.name)} sends an Authorization header from its configuration; it needs no login."
        )
        return 0
    from lazaretto.proxy.transport.remote.login import LoginFailed, login

    try:
        login(options, logins)
    except LoginFailed as exc:
        print(
            f"lazaretto auth: the login to {visible(options.host)} failed: {visible(exc)}",
            file=sys.stderr,
        )
        return EXIT_DECLINED
    print(
        f"Logged in to {visible(args.name)} ({visible(options.url)}); the login is kept in "
        f"{visible(logins.where)}. Its proxy uses it from the next request on."
    )
    return 0
