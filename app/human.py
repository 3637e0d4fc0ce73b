"""Talking to the person at the terminal: the human-only check, the typed challenge, safe display."""

import argparse
import os
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TypeVar

import humanize

from lazaretto.proxy.policy import Policy, PolicyError, load_policy
from lazaretto.store import StoreUnavailable
from lazaretto.store.modes import Mode
from lazaretto.store.opening import Side, StoreAPI, StoreMissing, open_store
from lazaretto.store.states import ReleasedAs
from lazaretto.store.station.protocol import ErrorCode, ProofError, code_proof
from lazaretto.store.tokens import challenge_matches, new_challenge

T = TypeVar("T")

# Exit codes shared by the human-only verbs.
EXIT_DECLINED = 1  # a person was asked and did not confirm, or the thing cannot be cleared
EXIT_REFUSED = 2  # not a person at a terminal, or a malformed request

# Friction grows with use: past this many clearances in the window, a note is required too.
FRICTION_WINDOW = timedelta(hours=1)
FRICTION_AFTER = 3

# How much of each hidden payload a warning quotes: enough to recognize it, not to read it all.
PAYLOAD_WIDTH = 120

# Characters a terminal does not show as themselves: controls (which can also move the
# cursor and repaint what the person reads), format characters (bidi overrides,
# zero-width, Unicode tags), private-use, surrogates, unassigned, line separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_VARIATION_SELECTORS = (range(0xFE00, 0xFE10), range(0xE0100, 0xE01F0))


def add_store_option(parser: argparse.ArgumentParser) -> None:
    """The `--store PATH` option every command that reads the store takes."""
    parser.add_argument(
        "--store",
        metavar="PATH",
        help="a store file of your own, e.g. the demo's (default: the station when one is "
        "installed, else LAZARETTO_STORE, else the user state dir)",
    )


def with_store(args: argparse.Namespace, verb: str, action: Callable[[StoreAPI], int]) -> int:
    """Open the store, run `action`, close it; a store that cannot be used, or a passphrase the
    station refused, is exit 1 with why; a store path where there is none, exit 2."""
    try:
        store = open_store(getattr(args, "store", None), side=Side.PERSON)
    except StoreMissing as exc:
        print(f"lazaretto {verb}: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        return action(store)
    except (StoreUnavailable, ProofError) as exc:
        print(f"lazaretto {verb}: {exc}. Nothing was changed.", file=sys.stderr)
        return EXIT_DECLINED
    finally:
        store.close()


def on_terminal() -> bool:
    """True only when both stdin and stdout are terminals (a person can read and type)."""
    try:
        return os.isatty(sys.stdin.fileno()) and os.isatty(sys.stdout.fileno())
    except (AttributeError, ValueError, OSError):
        # No stdin or stdout at all, or a closed one: not a person.
        return False


def refuse_unless_terminal(verb: str) -> bool:
    """Return True at a terminal; otherwise say why on stderr and return False."""
    if on_terminal():
        return True
    print(
        f"lazaretto {verb}: refused: only a person at an interactive terminal can do this "
        "(stdin and stdout must both be a terminal). Nothing was changed.",
        file=sys.stderr,
    )
    return False


def refuse_unless_typed(verb: str) -> bool:
    """For a command that only reads: True when stdin is a terminal, whatever stdout is.

    A person typed the command, so its output may go to a pager or a file (`show ID | less`).
    """
    try:
        typed = os.isatty(sys.stdin.fileno())
    except (AttributeError, ValueError, OSError):
        typed = False
    if typed:
        return True
    print(
        f"lazaretto {verb}: refused: only a person at an interactive terminal can do this "
        "(stdin must be a terminal; the output may go to a pipe or a file, as in "
        f"`lazaretto {verb} ID | less`).",
        file=sys.stderr,
    )
    return False


def visible(text: object, *, keep_newlines: bool = False) -> str:
    """The text with every character a terminal would hide or obey shown as an escape."""
    out = []
    for ch in str(text):
        code = ord(ch)
        if keep_newlines and ch == "\n":
            out.append(ch)
        elif unicodedata.category(ch) in _HIDDEN_CATEGORIES or any(
            code in r for r in _VARIATION_SELECTORS
        ):
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def clip(text: str, width: int) -> str:
    """At most `width` characters, marking a cut with an ellipsis."""
    return text if len(text) <= width else text[: width - 1] + "…"


def table(headers: list[str], rows: list[list[object]], indent: str = "  ") -> str:
    """Left-aligned columns; every cell is made visible first."""
    cells = [[visible(cell) for cell in row] for row in rows]
    widths = [max([len(head)] + [len(row[i]) for row in cells]) for i, head in enumerate(headers)]
    lines = [headers] + cells
    return "\n".join(
        indent
        + "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=False)).rstrip()
        for line in lines
    )


def ago(delta: timedelta) -> str:
    """`5 minutes ago` for a past span."""
    return humanize.naturaltime(delta)


def short_span(delta: timedelta) -> str | None:
    """`42s`, `3m`, `5h`, `12d`: a span that fits a list row; None under five seconds."""
    seconds = max(0, int(delta.total_seconds()))
    if seconds < 5:
        return None
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def short_ago(delta: timedelta) -> str:
    """`just now`, `42s ago`, `3m ago`, `5h ago`, `12d ago`: an age that fits a list row or a header."""
    span = short_span(delta)
    return f"{span} ago" if span else "just now"


def until(delta: timedelta) -> str:
    """`in 10 minutes`, or `expired` once the moment has passed."""
    return f"in {humanize.naturaldelta(delta)}" if delta > timedelta(0) else "expired"


def release_effect(row: dict, policy: Policy, released_as: ReleasedAs) -> str:
    """What releasing a withheld field does, as the confirmation says it (CLI and review app)."""
    source = f"{visible(row['server'])}/{visible(row['tool'] or row['method'])}"
    labelled = (
        ", wrapped in provenance tags (label is on for this server)"
        if policy.labels(row["server"])
        else ""
    )
    what = (
        "this field as the server sent it, hidden content included"
        if released_as == ReleasedAs.ORIGINAL
        else "the visible text of this field, hidden content removed"
    )
    return (
        f"The agent will read {what}{labelled}, the next time {source} returns the same content. "
        "Reading it still taints the session; the original stays in the store."
    )


def hidden_payloads(row: dict, quote: int = PAYLOAD_WIDTH) -> str | None:
    """The hidden content a withheld field's original carries beyond its visible text, named for a
    warning before the original is released, each payload quoted up to `quote` characters (0: by
    kind only); None when it carries none."""
    if not row["removed"]:
        return None
    removed = ", ".join(f"{r['count']} {r['kind']}" for r in row["removed"])
    if not quote or not row["decoded"]:
        return removed
    decoded = "; ".join(
        f"{visible(d['kind'])} “{clip(visible(d['text']), quote)}”" for d in row["decoded"]
    )
    return f"{removed}: {decoded}"


def policy_or_empty(verb: str) -> Policy:
    """The policy the proxies read by default; an empty one (said on stderr) if it cannot be read."""
    try:
        return load_policy()
    except PolicyError as exc:
        print(f"lazaretto {verb}: {exc}; going on without it.", file=sys.stderr)
        return Policy()


@dataclass(frozen=True)
class Confirmation:
    """A person confirmed; `note` is set when friction asked for one.

    With a station, the confirmation is a one-time code from the reviewer's authenticator app,
    typed for the decision this connection began; the station checks it when the decision is
    sent (`on`). In embedded mode it is a typed challenge, already checked here.
    """

    note: str | None
    proof: dict | None = None
    """With a station: the code and the decision it was typed for (`code_proof`)."""

    def on(self, store: StoreAPI) -> StoreAPI:
        """The store to send the decision through: with the proof along, when there is one."""
        return store.with_proof(self.proof) if self.proof else store

    def with_code(self, code: str) -> "Confirmation":
        """The same decision, proven by another code (the first was wrong, or used already)."""
        assert self.proof is not None  # only a station asks for a code again
        return replace(self, proof=code_proof(code, self.proof["decision"]))


def _ask(prompt: str) -> str | None:
    """One line typed at the terminal, or None on end of input or Ctrl-C."""
    _drop_typeahead()
    print(prompt, end="", flush=True)
    try:
        line = sys.stdin.readline()
    except KeyboardInterrupt:
        print()
        return None
    return line.rstrip("\r\n") if line else None


def _drop_typeahead() -> None:
    # Input queued before a prompt was shown was not typed in answer to it.
    try:
        import termios

        termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):
        pass


def ask_hidden(prompt: str) -> str | None:
    """A passphrase or code typed at the terminal without echo, or None for an empty one, EOF or
    Ctrl-C.

    Typed-ahead input is discarded first (getpass flushes it): keys queued before the prompt
    was shown were not typed in answer to it.
    """
    import getpass

    try:
        typed = getpass.getpass(prompt)
    except (EOFError, KeyboardInterrupt):
        print()
        return None
    return typed or None


def unlock(store: StoreAPI, what: str) -> bool:
    """With a station, ask for the passphrase to read withheld content; True once it may be read."""
    if store.mode is not Mode.STATION:
        return True
    passphrase = ask_hidden(f"Reviewer passphrase to read {what} (empty skips it): ")
    if passphrase is None:
        return False
    store.unlock(passphrase)
    return True


def code_prompt(action: str) -> str:
    """What a command asks when a station needs a code: `action` completes "... to ACTION"."""
    return (
        f"\nCode from your authenticator app to {action} (not shown as you type; empty cancels): "
    )


def confirm(store: StoreAPI, action: str, op: str, subject: object) -> Confirmation | None:
    """Ask the person to confirm the decision `op` on `subject` (and for a note when clearing
    often).

    With a station: the decision is begun there, then a code from the authenticator app is
    asked for, and checked by the station when the decision is sent (`decide`). Embedded: a
    fresh challenge typed back; `action` completes "Type CODE to ...". Returns None, after
    saying nothing changed, for a wrong or empty answer.
    """
    recent = store.decisions.clearances(within=FRICTION_WINDOW)
    note = None
    if recent >= FRICTION_AFTER:
        print(
            f"\nThis would be the {humanize.ordinal(recent + 1)} clearance in the last hour. "
            "Clearing often is how a worm gets through: say why this one is safe."
        )
        note = (_ask("Note (required): ") or "").strip()
        if not note:
            print("No note given. Nothing was changed.")
            return None
    if store.mode is Mode.STATION:
        # Begun before the code is asked for: a code read off this terminal on its way meets it.
        decision = store.begin(op, subject)
        assert decision is not None  # a station always names what it began
        code = ask_hidden(code_prompt(action))
        if code is None:
            store.withdraw()
            print("No code given. Nothing was changed.")
            return None
        return Confirmation(note, code_proof(code, decision))
    challenge = new_challenge()
    answer = _ask(f"\nType {challenge} to {action} (anything else cancels): ")
    if answer is None or not challenge_matches(challenge, answer):
        print("The code did not match. Nothing was changed.")
        return None
    return Confirmation(note)


_ASK_AGAIN = frozenset({ErrorCode.WRONG_CODE, ErrorCode.CODE_USED})
"""Refusals after which the same decision may be proven by another code."""

CODE_TRIES = 3
"""Codes one command sends for its decision before it gives up (as sudo asks three times)."""


def decide(store: StoreAPI, confirmation: Confirmation, take: Callable[[StoreAPI], T]) -> T:
    """Send the decision (`take`) with its proof. A wrong or used code is asked for again, for
    the same decision, up to `CODE_TRIES` codes in all; ProofError when the person gives up or
    the station refuses otherwise."""
    tries = 1
    while True:
        try:
            return take(confirmation.on(store))
        except ProofError as exc:
            if exc.code not in _ASK_AGAIN or confirmation.proof is None or tries >= CODE_TRIES:
                raise
            print(f"{exc}.")
            code = ask_hidden("Code from your authenticator app (empty cancels): ")
            if code is None:
                store.withdraw()
                raise
            confirmation = confirmation.with_code(code)
            tries += 1
