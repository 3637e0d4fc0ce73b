"""`sudo lazaretto station install` and `uninstall`: the account, its state, the marker, the unit."""

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from lazaretto.app import human
from lazaretto.store.station.guard import StatePaths
from lazaretto.store.station.marker import DEFAULT_SETTINGS, Marker, MarkerError, read_marker
from lazaretto.store.station.passphrase import hash_record
from lazaretto.store.station.state_files import write_state

from . import accounts, enrolment, trusted
from .layout import LAUNCHD_LABEL, UNIT_NAME, Layout, layout
from .units import launchd_plist, systemd_unit


def install(args: argparse.Namespace) -> int:
    """0 installed (and started, without --root); 1 something failed; 2 refused."""
    if os.geteuid() != 0:
        print("lazaretto station install: run it as root (sudo).", file=sys.stderr)
        return human.EXIT_REFUSED
    if not human.refuse_unless_terminal("station install"):
        return human.EXIT_REFUSED
    where = layout(args.root, args.socket)
    for heading, found in (
        (
            "the station would run code other accounts can change, so they could change what "
            "it decides",
            trusted.problems(),
        ),
        (
            f"the station's account ({args.account}) could not run Lazaretto's code from where "
            "it is installed",
            trusted.unreadable(),
        ),
    ):
        if found:
            return _refuse_code(heading, found)
    print(f"Installing the Lazaretto station under account {args.account}.")
    from lazaretto.app.commands.station import ask_new_passphrase

    print(
        "Choose the reviewer passphrase: it unlocks withheld content for reading (`show`, the "
        "review app's o). The agent must never see it."
    )
    passphrase = ask_new_passphrase()
    if passphrase is None:
        return human.EXIT_DECLINED
    print(
        "\nEvery release, approval, untaint and other decision will ask for a one-time code from "
        "an authenticator app on your phone: a code read off this terminal proves nothing else."
    )
    enrolled = enrolment.enrol_at_terminal()
    if enrolled is None:
        return human.EXIT_DECLINED
    try:
        uid = accounts.create(args.account, where.state_dir)
    except accounts.AccountError as exc:
        print(f"lazaretto station install: {exc}", file=sys.stderr)
        return 1
    gid = _gid_of(args.account)
    _directory(where.state_dir, uid, gid, 0o700)
    _directory(where.run_dir, uid, gid, 0o755)
    paths = StatePaths.under(where.state_dir)
    write_state(paths.passphrase, hash_record(passphrase))
    os.chown(paths.passphrase, uid, gid)
    enrolment.keep(enrolled, where.state_dir, uid, gid)
    imported = _offer_import(args, where, uid, gid)
    _write_marker(where, args.account, uid)
    _write_unit(where, args.account)
    print(f"  marker:  {where.marker} (while it exists, every client uses the station)")
    print(f"  state:   {where.state_dir} (only {args.account} can read it)")
    print(f"  socket:  {where.socket}")
    print(f"  unit:    {where.unit}")
    if imported:
        print(f"  store:   imported from {imported}")
    if args.root:
        print(f"Not started (--root). Start it as {args.account}: {_run_hint(where, args.account)}")
        return 0
    return _start(where, args.account)


def enrol(args: argparse.Namespace) -> int:
    """0 a new authenticator app enrolled; 1 not (given up, or no station here); 2 refused."""
    if os.geteuid() != 0:
        print("lazaretto station enrol: run it as root (sudo).", file=sys.stderr)
        return human.EXIT_REFUSED
    if not human.refuse_unless_terminal("station enrol"):
        return human.EXIT_REFUSED
    where = layout(args.root, None)
    try:
        marker = read_marker(str(where.marker)) if where.marker.exists() else None
    except MarkerError as exc:
        print(f"lazaretto station enrol: {exc}", file=sys.stderr)
        return human.EXIT_DECLINED
    if marker is None or marker.uid is None or not marker.state_dir or not marker.account:
        print(
            f"lazaretto station enrol: no station is installed here (no marker at {where.marker})",
            file=sys.stderr,
        )
        return human.EXIT_DECLINED
    print(
        "Enrolling a new authenticator app: once it is checked, codes of the app enrolled "
        "before no longer prove anything."
    )
    enrolled = enrolment.enrol_at_terminal()
    if enrolled is None:
        return human.EXIT_DECLINED
    enrolment.keep(enrolled, Path(marker.state_dir), marker.uid, _gid_of(marker.account))
    print("Enrolled. Every decision now asks for a code of this app.")
    return 0


def uninstall(args: argparse.Namespace) -> int:
    """0 removed; 2 not root."""
    if os.geteuid() != 0:
        print("lazaretto station uninstall: run it as root (sudo).", file=sys.stderr)
        return human.EXIT_REFUSED
    where = layout(args.root, None)
    marker = _read_marker_quietly(where.marker)
    if marker is not None and marker.socket:
        where = layout(args.root, marker.socket)
    if not args.root:
        _stop(where)
    for path in (where.unit, where.marker, where.socket):
        try:
            path.unlink()
            print(f"removed {path}")
        except FileNotFoundError:
            pass
    _remove_empty(where.marker.parent)
    shutil.rmtree(where.run_dir, ignore_errors=True)
    if args.purge:
        shutil.rmtree(where.state_dir, ignore_errors=True)
        print(f"removed {where.state_dir}")
        account = marker.account if marker and marker.account else None
        if account:
            try:
                accounts.delete(account)
                print(f"removed the account {account}")
            except accounts.AccountError as exc:
                print(f"lazaretto station uninstall: {exc}", file=sys.stderr)
    else:
        print(
            f"kept {where.state_dir} (its store, passphrase and authenticator secret); --purge "
            "removes it"
        )
    print("Clients use embedded mode again: any process of a user can act as that user.")
    return 0


# -- pieces -----------------------------------------------------------------------------


def _refuse_code(heading: str, found: list[str]) -> int:
    print(f"lazaretto station install: {heading}:", file=sys.stderr)
    for line in found[:10]:
        print(f"  {human.visible(line)}", file=sys.stderr)
    print(
        "Install Lazaretto where other accounts can read it and only root can write (a root-owned "
        "virtualenv in /opt, or `sudo pip install` into the system's Python), then run this again.",
        file=sys.stderr,
    )
    return human.EXIT_REFUSED


def _gid_of(account: str) -> int:
    import pwd

    return pwd.getpwnam(account).pw_gid


def _directory(path: Path, uid: int, gid: int, mode: int) -> None:
    path.mkdir(parents=True, exist_ok=True)
    os.chown(path, uid, gid)
    os.chmod(path, mode)


def _write_marker(where: Layout, account: str, uid: int) -> None:
    marker = Marker(
        path=str(where.marker),
        socket=str(where.socket),
        uid=uid,
        account=account,
        state_dir=str(where.state_dir),
        store=str(where.store),
        settings=dict(DEFAULT_SETTINGS),
    )
    where.marker.parent.mkdir(parents=True, exist_ok=True)
    os.chown(where.marker.parent, 0, 0)
    os.chmod(where.marker.parent, 0o755)
    temporary = where.marker.with_name(where.marker.name + ".new")
    temporary.write_text(json.dumps(marker.as_json(), indent=2) + "\n", encoding="utf-8")
    os.chown(temporary, 0, 0)
    os.chmod(temporary, 0o644)
    os.replace(temporary, where.marker)


def _write_unit(where: Layout, account: str) -> None:
    text = systemd_unit(where, account) if where.systemd else launchd_plist(where, account)
    where.unit.parent.mkdir(parents=True, exist_ok=True)
    where.unit.write_text(text, encoding="utf-8")
    os.chmod(where.unit, 0o644)


def _default_embedded_store() -> Path | None:
    """The embedded store of the user who ran sudo, if there is one."""
    import pwd

    user = os.environ.get("SUDO_USER")
    if not user:
        return None
    try:
        home = Path(pwd.getpwnam(user).pw_dir)
    except KeyError:
        return None
    if sys.platform == "darwin":
        candidate = home / "Library/Application Support/lazaretto/lazaretto.db"
    else:
        candidate = home / ".local/state/lazaretto/lazaretto.db"
    return candidate if candidate.exists() else None


def _offer_import(args: argparse.Namespace, where: Layout, uid: int, gid: int) -> Path | None:
    if args.no_import or where.store.exists():
        return None
    source = Path(args.import_store) if args.import_store else _default_embedded_store()
    if source is None:
        return None
    if not args.import_store:
        answer = input(
            f"Import the embedded store {source} (its taint, withheld fields and audit log)? [y/N] "
        )
        if answer.strip().lower() not in ("y", "yes"):
            return None
    _copy_store(source, where.store)
    for suffix in ("", "-wal", "-shm"):
        path = Path(f"{where.store}{suffix}")
        if path.exists():
            os.chown(path, uid, gid)
            os.chmod(path, 0o600)
    return source


def _copy_store(source: Path, target: Path) -> None:
    """A consistent copy of a live store (SQLite's backup, so its WAL is included)."""
    reader = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    writer = sqlite3.connect(target)
    try:
        reader.backup(writer)
    finally:
        reader.close()
        writer.close()


def _run_hint(where: Layout, account: str) -> str:
    return f"runuser -u {account} -- {sys.executable} -I -m lazaretto.app station run --root {where.root}"


def _start(where: Layout, account: str) -> int:
    if where.systemd and os.path.isdir("/run/systemd/system"):
        steps = [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", UNIT_NAME]]
    elif not where.systemd:
        steps = [["launchctl", "bootstrap", "system", str(where.unit)]]
    else:
        print(f"No systemd here: start the station yourself: {_run_hint(where, account)}")
        return 0
    for step in steps:
        done = subprocess.run(step, check=False)
        if done.returncode != 0:
            print(f"lazaretto station install: {' '.join(step)} failed", file=sys.stderr)
            return 1
    print("Started. `lazaretto station status` checks it.")
    return 0


def _stop(where: Layout) -> None:
    if where.systemd and os.path.isdir("/run/systemd/system"):
        subprocess.run(["systemctl", "disable", "--now", UNIT_NAME], check=False)
    elif not where.systemd:
        subprocess.run(["launchctl", "bootout", f"system/{LAUNCHD_LABEL}"], check=False)


def _read_marker_quietly(path: Path) -> Marker | None:
    from lazaretto.store.station.marker import MarkerError, read_marker

    try:
        return read_marker(str(path)) if path.exists() else None
    except MarkerError:
        return None


def _remove_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass
