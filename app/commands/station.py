"""`lazaretto station`: install, run and look after the service that owns the store.

sudo lazaretto station install [--account NAME] [--socket PATH] [--root DIR]
sudo lazaretto station enrol [--root DIR]
sudo lazaretto station uninstall [--purge] [--root DIR]
lazaretto station run [--socket PATH] [--store PATH] [--root DIR]
lazaretto station status [--json]
lazaretto station passphrase
"""

import argparse
import json
import os
import signal
import sys
import threading
from pathlib import Path

from lazaretto.app import human
from lazaretto.store.station.marker import MarkerError, find_marker, marker_path, read_marker

EXIT_DOWN = 1
"""`status`: no station answers (none installed, or it is not running)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """The `station` subcommands."""
    sub = parser.add_subparsers(dest="station_command", metavar="SUBCOMMAND", required=True)
    install = sub.add_parser(
        "install",
        help="create the service account, its state, the marker and a service unit (as root)",
    )
    install.add_argument("--account", default="lazaretto", help="the service account's name")
    install.add_argument(
        "--socket", metavar="PATH", help="the socket (default: /run/lazaretto/station.sock)"
    )
    install.add_argument(
        "--root",
        metavar="DIR",
        help="write the marker, state and unit under DIR (packaging, tests); nothing is started",
    )
    install.add_argument(
        "--import-store",
        metavar="PATH",
        help="copy this embedded store into the station (default: offer the user's, if any)",
    )
    install.add_argument(
        "--no-import", action="store_true", help="start with an empty store; do not ask"
    )
    enrol = sub.add_parser(
        "enrol",
        help="enrol a new authenticator app for the decisions' one-time codes (as root)",
    )
    enrol.add_argument("--root", metavar="DIR", help="as given to install")
    uninstall = sub.add_parser("uninstall", help="stop the station and remove what install made")
    uninstall.add_argument("--root", metavar="DIR", help="as given to install")
    uninstall.add_argument(
        "--purge", action="store_true", help="also delete its store and state, and the account"
    )
    run = sub.add_parser("run", help="the station in the foreground (what the service unit runs)")
    run.add_argument("--socket", metavar="PATH", help="listen here (default: the marker's)")
    run.add_argument("--store", metavar="PATH", help="the store file (default: the marker's)")
    run.add_argument("--root", metavar="DIR", help="read the marker under DIR instead of /")
    status = sub.add_parser("status", help="reachable, version, mode, locked or not")
    status.add_argument("--json", action="store_true", help="print one JSON object for scripts")
    sub.add_parser("passphrase", help="change the reviewer passphrase (needs the current one)")


def run(args: argparse.Namespace) -> int:
    """Dispatch to the subcommand."""
    handlers = {
        "install": _install,
        "enrol": _enrol,
        "uninstall": _uninstall,
        "run": _run,
        "status": _status,
        "passphrase": _passphrase,
    }
    return handlers[args.station_command](args)


# -- run --------------------------------------------------------------------------------


def _run(args: argparse.Namespace) -> int:
    from lazaretto.proxy.hooks.served import hook_extension
    from lazaretto.store.station.marker import Marker
    from lazaretto.store.station.server import Station
    from lazaretto.store.station.settings import StationSettings

    marker: Marker | None = None
    path = marker_path(args.root or os.sep)
    if os.path.exists(path):
        try:
            marker = read_marker(path)
        except MarkerError as exc:
            print(f"lazaretto station run: {exc}", file=sys.stderr)
            return 2
    if marker is None:
        if not (args.socket and args.store):
            print(
                f"lazaretto station run: no station is installed (no marker at {path}); give "
                "--socket and --store, or run `sudo lazaretto station install`",
                file=sys.stderr,
            )
            return 2
        marker = Marker(path=None, socket=args.socket, state_dir=str(Path(args.store).parent))
    settings = StationSettings.from_marker(
        marker,
        socket=Path(args.socket) if args.socket else None,
        store=Path(args.store) if args.store else None,
    )
    if os.geteuid() == 0 and marker.uid not in (None, 0):
        print(
            f"lazaretto station run: refusing to run as root; run it as {marker.account} "
            "(the service unit does)",
            file=sys.stderr,
        )
        return 2
    os.umask(0o077)
    station = Station(settings, extensions={"hook.run": hook_extension()})
    try:
        station.bind()
    except (OSError, RuntimeError) as exc:
        print(f"lazaretto station run: {exc}", file=sys.stderr)
        return 1

    def stop(signum: int, frame: object) -> None:
        threading.Thread(target=station.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # Beside the first clients: a request that comes meanwhile waits for the same imports anyway.
    threading.Thread(target=_warm_up, name="lazaretto-warm-up", daemon=True).start()
    try:
        station.serve_forever()
    finally:
        station.shutdown()
    return 0


def _warm_up() -> None:
    from lazaretto.proxy.hooks.served import warm_up

    try:
        warm_up()
    except Exception as exc:  # the first hook event loads it again, and says what fails
        print(f"lazaretto station: warming up the cleaning pipeline failed: {exc}", file=sys.stderr)


# -- status and passphrase --------------------------------------------------------------


def _status(args: argparse.Namespace) -> int:
    from lazaretto.store import StoreUnavailable
    from lazaretto.store.station.client import StationStore

    try:
        marker = find_marker()
    except MarkerError as exc:
        return _report(args, {"reachable": False, "mode": "station", "error": str(exc)})
    if marker is None:
        return _report(
            args,
            {
                "reachable": False,
                "mode": "embedded",
                "error": "no station is installed: any process of your user can act as you; "
                "run `sudo lazaretto station install`",
            },
        )
    store = StationStore(marker)
    try:
        status = store.status()
    except StoreUnavailable as exc:
        return _report(
            args,
            {"reachable": False, "mode": "station", "socket": marker.socket, "error": str(exc)},
        )
    finally:
        store.close()
    return _report(args, {"reachable": True, "socket": marker.socket, **status})


def _report(args: argparse.Namespace, report: dict) -> int:
    if args.json:
        print(json.dumps(report, indent=2))
    elif report["reachable"]:
        lock = (
            f"LOCKED until {report['locked_until']} (too many wrong codes or passphrases)"
            if report["locked"]
            else "not locked"
        )
        print(f"station: reachable at {report['socket']}")
        print(f"  version: lazaretto {report['package']}, protocol {report['protocol']}")
        print(
            f"  mode:    {report['mode']} (each decision needs a one-time code from the "
            "reviewer's authenticator app)"
        )
        print(f"  clearances: {lock}")
        if not report.get("enrolled"):
            print(
                "  no authenticator app is enrolled: every decision is refused; run "
                "`sudo lazaretto station enrol`"
            )
        if not report["passphrase_set"]:
            print("  no reviewer passphrase is set: withheld content cannot be unlocked")
    else:
        print(f"station: not reachable ({report['mode']} mode)")
        print(f"  {human.visible(report['error'])}")
    return 0 if report["reachable"] else EXIT_DOWN


def _passphrase(args: argparse.Namespace) -> int:
    from lazaretto.store import StoreUnavailable
    from lazaretto.store.station.client import StationStore
    from lazaretto.store.station.protocol import ProofError

    if not human.refuse_unless_terminal("station passphrase"):
        return human.EXIT_REFUSED
    try:
        marker = find_marker()
    except MarkerError as exc:
        print(f"lazaretto station passphrase: {exc}", file=sys.stderr)
        return human.EXIT_DECLINED
    if marker is None:
        print(
            "lazaretto station passphrase: no station is installed; `sudo lazaretto station "
            "install` sets the first passphrase",
            file=sys.stderr,
        )
        return human.EXIT_REFUSED
    current = human.ask_hidden("Current reviewer passphrase: ")
    if current is None:
        print("Nothing was changed.")
        return human.EXIT_DECLINED
    new = ask_new_passphrase()
    if new is None:
        return human.EXIT_DECLINED
    store = StationStore(marker)
    try:
        store.change_passphrase(current, new)
    except (StoreUnavailable, ProofError) as exc:
        print(f"lazaretto station passphrase: {exc}. Nothing was changed.", file=sys.stderr)
        return human.EXIT_DECLINED
    finally:
        store.close()
    print("The reviewer passphrase was changed.")
    return 0


def ask_new_passphrase() -> str | None:
    """A new passphrase typed twice at the terminal, or None (after saying why) if it cannot be used."""
    from lazaretto.store.station.passphrase import MIN_LENGTH, PassphraseError, check_new

    first = human.ask_hidden(f"New reviewer passphrase (at least {MIN_LENGTH} characters): ")
    if first is None:
        print("No passphrase given. Nothing was changed.")
        return None
    again = human.ask_hidden("The same passphrase again: ") or ""
    try:
        check_new(first, again)
    except PassphraseError as exc:
        print(f"That passphrase cannot be used: {exc}. Nothing was changed.")
        return None
    return first


# -- install and uninstall ----------------------------------------------------------------


def _install(args: argparse.Namespace) -> int:
    from lazaretto.app.station.install import install

    return install(args)


def _enrol(args: argparse.Namespace) -> int:
    from lazaretto.app.station.install import enrol

    return enrol(args)


def _uninstall(args: argparse.Namespace) -> int:
    from lazaretto.app.station.install import uninstall

    return uninstall(args)
