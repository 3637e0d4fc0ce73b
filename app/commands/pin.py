"""`lazaretto pin`: export a lock file, check a server against one, and decide on drift."""

import argparse
import json
import queue
import subprocess
import sys
import threading
import time
from typing import IO

from lazaretto.app import human
from lazaretto.proxy.pins.guard import (
    INSTRUCTIONS,
    LISTED,
    LISTS,
    entry,
    list_entries,
    listed_marker,
)
from lazaretto.proxy.pins.lockfile import LockError, lock_text, read_lock
from lazaretto.store.decisions import DecisionError
from lazaretto.store.opening import StoreAPI
from lazaretto.store.states import DriftStatus, PinKind
from lazaretto.store.station.protocol import ProofError

CHECK_USAGE = "pin check LOCKFILE [-n NAME] [--timeout SECONDS] -- CMD [ARGS...]"

CHECK_EXIT_STATUS = (
    "exit status: 0 the server matches the lock file; 1 it drifted; 2 it could not be checked "
    "(bad usage, a lock file that cannot be used, a server that fails or does not answer in time)."
)

DEFAULT_TIMEOUT = 30.0
"""Seconds `pin check` waits for the server's whole surface before it gives up (exit 2)."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Subcommands of `lazaretto pin`."""
    human.add_store_option(parser)
    sub = parser.add_subparsers(dest="pin_command", metavar="SUBCOMMAND", required=True)
    export = sub.add_parser(
        "export", help="write the pinned surfaces as a lock file (stdout unless -o)"
    )
    export.add_argument("server", nargs="?", help="only this server")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    check = sub.add_parser(
        "check",
        help="start a server and compare its surface with a lock file (exit 1 on drift)",
        usage=f"lazaretto {CHECK_USAGE}",
        epilog=CHECK_EXIT_STATUS,
    )
    check.add_argument("lockfile")
    check.add_argument("-n", "--name", dest="server_id", help="the server's name in the lock file")
    check.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"give up on a server that has not listed its surface by then (default {DEFAULT_TIMEOUT:g})",
    )
    # Everything after LOCKFILE: options before `--`, then the command (see _check_arguments).
    check.add_argument("server_command", nargs=argparse.REMAINDER, metavar="-- CMD [ARGS...]")
    sub.add_parser("list", help="drift waiting for a person")
    for verb, text in (
        ("accept", "pin the new version of a drifted entry (human only)"),
        ("reject", "keep the old version; the drifted entry stays hidden (human only)"),
    ):
        decide = sub.add_parser(verb, help=text)
        decide.add_argument("drift_id", type=int)


def run(args: argparse.Namespace) -> int:
    """Dispatch to the subcommand."""
    handler = {
        "export": _export,
        "check": _check,
        "list": _list,
        "accept": _decide,
        "reject": _decide,
    }
    return handler[args.pin_command](args)


# -- export -----------------------------------------------------------------------------


def _export(args: argparse.Namespace) -> int:
    return human.with_store(args, "pin export", lambda store: _write_lock(store, args))


def _write_lock(store: StoreAPI, args: argparse.Namespace) -> int:
    rows = store.pins.export(args.server)
    if not rows:
        print(
            f"lazaretto pin export: nothing pinned{' for ' + args.server if args.server else ''} yet.",
            file=sys.stderr,
        )
        return 1
    text = lock_text(rows)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


# -- check ------------------------------------------------------------------------------


def _check_arguments(args: argparse.Namespace) -> tuple[str | None, float, list[str]]:
    """(name, timeout, command) from the arguments after LOCKFILE.

    argparse hands everything after the first positional to the REMAINDER, options included, so
    the usage as printed (`LOCKFILE -n NAME -- CMD`) is read here: options up to `--`, then the
    command. ValueError says what is wrong.
    """
    name, timeout, rest = args.server_id, args.timeout, list(args.server_command)
    # argparse keeps the `--` only when an option came before it: a word that is not an option
    # starts the command too.
    while rest and rest[0] != "--" and rest[0].startswith("-"):
        option, _, inline = rest[0].partition("=")
        if option not in ("-n", "--name", "--timeout"):
            raise ValueError(f"unexpected {rest[0]!r} before --")
        if not inline and len(rest) < 2:
            raise ValueError(f"{option} needs a value")
        value = inline or rest[1]
        rest = rest[1:] if inline else rest[2:]
        if option == "--timeout":
            try:
                timeout = float(value)
            except ValueError:
                raise ValueError(f"--timeout wants seconds, not {value!r}") from None
        else:
            name = value
    if timeout <= 0:
        raise ValueError("--timeout must be more than 0 seconds")
    command = rest[1:] if rest[:1] == ["--"] else rest
    if not command:
        raise ValueError("missing the server command after --")
    return name, timeout, command


def _check(args: argparse.Namespace) -> int:
    try:
        name, timeout, command = _check_arguments(args)
    except ValueError as exc:
        print(f"lazaretto pin check: {exc}. Usage: lazaretto {CHECK_USAGE}", file=sys.stderr)
        return 2
    try:
        servers = read_lock(args.lockfile)
    except LockError as exc:
        print(f"lazaretto pin check: {exc}", file=sys.stderr)
        return 2
    name = name or _server_for(servers, command)
    if name not in servers:
        print(
            f"lazaretto pin check: the lock file has no server {name!r} (it has: {', '.join(servers)}); use -n",
            file=sys.stderr,
        )
        return 2
    try:
        surface = survey(command, timeout)
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"lazaretto pin check: could not read the server's surface: {exc}", file=sys.stderr)
        return 2
    problems = compare(servers[name]["entries"], surface)
    for line in problems:
        print(line)
    print(
        f"{name}: {'drift in ' + str(len(problems)) + ' entries' if problems else 'matches the lock file'}"
    )
    return 1 if problems else 0


def _server_for(servers: dict, command: list[str]) -> str | None:
    if len(servers) == 1:
        return next(iter(servers))
    return next((name for name, s in servers.items() if s.get("command") == command), None)


def survey(command: list[str], timeout: float = DEFAULT_TIMEOUT) -> dict[str, dict]:
    """Start the server, list its surface (every page), and return entries by `kind:name`.

    The whole listing must be done within `timeout` seconds; RuntimeError says what the server
    left unanswered, and the server is stopped.
    """
    requests = [
        (
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "lazaretto-pin-check", "version": "1"},
            },
        )
    ]
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    stdin, stdout = proc.stdin, proc.stdout
    assert stdin is not None and stdout is not None  # both opened as pipes just above
    lines = _Lines(stdout, time.monotonic() + timeout, timeout)
    found: dict[str, dict] = {}
    try:
        init = _ask(stdin, lines, 1, *requests[0])
        capabilities = init.get("capabilities", {})
        # As the proxy pins them: the kind's marker, and the instructions if there are any.
        found[f"{INSTRUCTIONS[0]}:{LISTED}"] = listed_marker(INSTRUCTIONS[0])
        if isinstance(init.get("instructions"), str):
            item = entry(*INSTRUCTIONS, init["instructions"])
            found[f"{item['kind']}:{item['name']}"] = item
        stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        ident = 1
        for method, (kind, _key, _fields) in LISTS.items():
            capability = (
                "tools"
                if kind == PinKind.TOOL
                else "prompts"
                if kind == PinKind.PROMPT
                else "resources"
            )
            if capability not in capabilities:
                continue
            found[f"{kind}:{LISTED}"] = listed_marker(kind)
            cursor = None
            while True:
                ident += 1
                result = _ask(stdin, lines, ident, method, {"cursor": cursor} if cursor else {})
                for item in list_entries(method, result):
                    found[f"{item['kind']}:{item['name']}"] = item
                cursor = result.get("nextCursor")
                if not cursor:
                    break
    finally:
        try:
            stdin.close()
        except OSError:
            pass  # the server is gone already
        try:
            proc.wait(0 if lines.timed_out else 5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return found


class _Lines:
    """The server's output lines, read by a thread so that waiting for one can end at a deadline."""

    def __init__(self, stdout: IO[str], deadline: float, timeout: float) -> None:
        self._queue: queue.Queue[str] = queue.Queue()
        self._deadline, self._timeout = deadline, timeout
        self.timed_out = False
        threading.Thread(target=self._read, args=(stdout,), daemon=True).start()

    def _read(self, stdout: IO[str]) -> None:
        for line in stdout:
            self._queue.put(line)
        self._queue.put("")  # end of output

    def next(self, waiting_for: str) -> str:
        """The next line ("" at end of output); RuntimeError once the deadline has passed."""
        try:
            return self._queue.get(timeout=max(0.0, self._deadline - time.monotonic()))
        except queue.Empty:
            self.timed_out = True
            raise RuntimeError(
                f"the server did not answer {waiting_for} within {self._timeout:g} seconds "
                "(--timeout); it was stopped"
            ) from None


def _ask(stdin: IO[str], lines: _Lines, ident: int, method: str, params: dict) -> dict:
    stdin.write(
        json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n"
    )
    stdin.flush()
    while True:
        line = lines.next(method)
        if not line:
            raise RuntimeError(f"the server closed its output before answering {method}")
        message = json.loads(line)
        if message.get("id") == ident:
            if "error" in message:
                raise RuntimeError(f"{method} failed: {message['error'].get('message')}")
            return message["result"]


def compare(locked: dict[str, dict], surface: dict[str, dict]) -> list[str]:
    """One line per entry that differs from the lock file (in the kinds the lock file pins)."""
    kinds = {key.partition(":")[0] for key in locked}
    surface = {key: item for key, item in surface.items() if key.partition(":")[0] in kinds}
    problems = []
    for key in sorted(locked.keys() | surface.keys()):
        old, new = locked.get(key), surface.get(key)
        if old is None:
            problems.append(f"new      {key}")
        elif new is None:
            problems.append(f"removed  {key}")
        elif old["sha256"] != new["sha256"]:
            problems.append(f"changed  {key}: {old['sha256'][:12]} -> {new['sha256'][:12]}")
    return problems


# -- drift decisions ---------------------------------------------------------------------


def _list(args: argparse.Namespace) -> int:
    return human.with_store(args, "pin list", _print_pending)


def _print_pending(store: StoreAPI) -> int:
    drifts = store.pins.pending()
    if not drifts:
        print("No pin drift is waiting for review.")
        return 0
    rows = [
        [d["id"], d["server"], d["kind"], d["name"], d["change"], d["created_at"]] for d in drifts
    ]
    print(human.table(["ID", "SERVER", "KIND", "NAME", "CHANGE", "SINCE"], rows))
    return 0


def describe_drift(drift: dict) -> str:
    """The change, old against new, with hidden characters made visible."""
    v = human.visible
    lines = [
        f"Pin drift {drift['id']}: {v(drift['server'])} {drift['kind']} {v(drift['name'])} {drift['change']}",
        f"  since {drift['created_at']}",
    ]
    for label, canonical in (("pinned", drift["old_canonical"]), ("now", drift["new_canonical"])):
        if canonical:
            pretty = json.dumps(json.loads(canonical), indent=2, sort_keys=True, ensure_ascii=False)
            lines.append(f"  {label}:")
            lines.append("    " + v(pretty, keep_newlines=True).replace("\n", "\n    "))
    return "\n".join(lines)


def _decide(args: argparse.Namespace) -> int:
    verb = args.pin_command
    if not human.refuse_unless_terminal(f"pin {verb}"):
        return human.EXIT_REFUSED
    return human.with_store(
        args, f"pin {verb}", lambda store: _decide_drift(store, verb, args.drift_id)
    )


def _decide_drift(store: StoreAPI, verb: str, drift_id: int) -> int:
    drift = store.pins.get(drift_id)
    if drift is None or drift["status"] != DriftStatus.PENDING:
        state = "unknown" if drift is None else drift["status"]
        print(
            f"lazaretto pin {verb}: drift {drift_id} is {state}, not waiting for review.",
            file=sys.stderr,
        )
        return human.EXIT_DECLINED
    if drift.get("redacted") and human.unlock(store, "the drifted surface"):
        drift = store.pins.get(drift_id) or drift
    print(describe_drift(drift))
    action = "pin the new version" if verb == "accept" else "keep the old version hidden"
    method = "accept_drift" if verb == "accept" else "reject_drift"
    confirmation = human.confirm(
        store, f"{action} of {drift['name']}", f"decisions.{method}", drift["id"]
    )
    if confirmation is None:
        return human.EXIT_DECLINED
    try:
        human.decide(
            store,
            confirmation,
            lambda proven: getattr(proven.decisions, method)(drift["id"], note=confirmation.note),
        )
    except (DecisionError, ProofError) as exc:
        print(f"lazaretto pin {verb}: {exc}. Nothing was changed.", file=sys.stderr)
        return human.EXIT_DECLINED
    print(
        "Accepted: the proxy shows it again on the next list."
        if verb == "accept"
        else "Rejected: it stays hidden and refused."
    )
    return 0
