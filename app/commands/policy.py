"""`lazaretto policy check [FILE]` and `lazaretto policy init [-o FILE] [--force]`: the policy file
judged as the proxies judge it, and a commented starter written from the client configs."""

import argparse
import sys
from pathlib import Path

from lazaretto.app.human import visible
from lazaretto.app.policy_report import CONSEQUENCE, check_policy
from lazaretto.proxy.policy import POLICY_ENV, policy_path
from lazaretto.store import StoreUnavailable
from lazaretto.store.opening import Side, StoreAPI, open_store

EXIT_OK = 0
EXIT_BROKEN = 1
"""check: the policy has problems (proxies reading it do not start); init: nothing was written."""

CHECK_EXIT_STATUS = (
    "exit status: 0 the policy is usable (notes may follow); 1 it has problems, or a file named"
    " does not exist; 2 bad usage."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Subcommands of `lazaretto policy`."""
    sub = parser.add_subparsers(dest="policy_command", metavar="SUBCOMMAND", required=True)
    check = sub.add_parser(
        "check",
        help="judge the policy as the proxies do: every problem with its line (exit 1 if any)",
        epilog=CHECK_EXIT_STATUS,
    )
    check.add_argument(
        "file",
        nargs="?",
        help=f"the policy file (default: {POLICY_ENV}, else lazaretto.toml in the config dir)",
    )
    init = sub.add_parser(
        "init",
        help="write a commented starter policy from the MCP servers of the client configs found",
    )
    init.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help=f"where to write it, `-` for stdout (default: {POLICY_ENV}, else lazaretto.toml in"
        " the config dir)",
    )
    init.add_argument("--force", action="store_true", help="replace a policy file that exists")


def run(args: argparse.Namespace) -> int:
    """Dispatch to the subcommand."""
    return _check(args) if args.policy_command == "check" else _init(args)


def _check(args: argparse.Namespace) -> int:
    report = check_policy(args.file)
    shown = visible(report.path)
    if not report.exists and not report.broken:
        print(
            f"{shown}: no policy file, so every server is untrusted (every result taints the "
            "session). `lazaretto policy init` writes a starter one."
        )
        return EXIT_OK
    for line in report.lines():
        print(visible(line))
    if report.broken:
        count = len(report.problems)
        print(f"{shown}: {count} problem{'s' if count > 1 else ''}; {CONSEQUENCE}.")
        return EXIT_BROKEN
    assert report.policy is not None
    names = ", ".join(visible(name) for name in report.policy.servers) or "none"
    print(f"{shown}: ok, servers named: {names}.")
    return EXIT_OK


def _init(args: argparse.Namespace) -> int:
    # Imported here: only init reads the client configs.
    from lazaretto.app.clients.doctor import mcp_reports
    from lazaretto.app.clients.files import ConfigText, apply, read_text, saved_note
    from lazaretto.app.starter_policy import starter_policy

    to_stdout = args.output == "-"
    path = Path(args.output).expanduser() if args.output and not to_stdout else policy_path()[0]
    if path.suffix == ".json" and not to_stdout:
        print(
            f"lazaretto policy init: {visible(path)}: the starter is TOML; give a .toml path with -o",
            file=sys.stderr,
        )
        return EXIT_BROKEN
    if path.exists() and not args.force and not to_stdout:
        print(
            f"lazaretto policy init: {visible(path)} exists; nothing was written (--force replaces"
            " it, keeping a backup; -o FILE writes elsewhere; `lazaretto policy check` checks it)",
            file=sys.stderr,
        )
        return EXIT_BROKEN
    store = open_store(side=Side.PERSON)
    try:
        text, servers = starter_policy(mcp_reports(), lambda name: _pins(store, name), path)
    finally:
        store.close()
    if to_stdout:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        saved = apply(ConfigText(path, read_text(path), text))
    except (OSError, ValueError) as exc:
        print(f"lazaretto policy init: cannot write {visible(path)}: {exc}", file=sys.stderr)
        return EXIT_BROKEN
    names = ", ".join(visible(name) for name in servers) or "none found"
    print(f"Wrote {visible(path)}{saved_note(saved)}: servers {names}, each untrusted for now.")
    print(
        "Read it, mark the servers you trust, then check it with: lazaretto policy check "
        f"{visible(path)}"
    )
    if path != policy_path()[0]:
        print(
            f"The proxies and hooks read it only when told: set {POLICY_ENV}={visible(path)}, or"
            " give -p to each proxy."
        )
    return EXIT_OK


def _pins(store: StoreAPI, server: str) -> list[dict]:
    """The server's pinned surfaces (none when the store cannot be read, which is said)."""
    try:
        return store.pins.export(server)
    except StoreUnavailable as exc:
        print(f"lazaretto policy init: the store cannot be read ({exc})", file=sys.stderr)
        return []
