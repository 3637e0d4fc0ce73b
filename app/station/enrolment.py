"""Enrolling the reviewer's authenticator app: a new secret shown once (a QR code and the key),
checked with a code the app shows, then kept where only the station's account can read it."""

import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

from lazaretto.app import human
from lazaretto.store.clock import system_clock
from lazaretto.store.station.guard import StatePaths
from lazaretto.store.station.onetime import DIGITS, PERIOD, Enrolment, OneTimeCodes, new_enrolment

TRIES = 3
"""Codes the person may type to check the app before enrolment gives up (nothing is kept then)."""


@dataclass(frozen=True)
class Enrolled:
    """A secret the person's app was shown and proved it holds, with the step of that code."""

    enrolment: Enrolment
    step: int


def enrol_at_terminal() -> Enrolled | None:
    """Show a new secret, then ask for the code the app shows until one matches; None (after
    saying nothing was kept) when the person gives up or every try is wrong."""
    enrolment = new_enrolment(_label())
    show(enrolment)
    for _ in range(TRIES):
        code = human.ask_hidden(
            "Type the code your app shows now, to check it (not shown; empty cancels): "
        )
        if code is None:
            break
        step = enrolment.step_of_code(code, system_clock())
        if step is not None:
            return Enrolled(enrolment, step)
        print(
            "That is not a code of this secret now: check the app's new entry, and that the "
            "phone's clock is right."
        )
    print("No authenticator app was enrolled. Nothing was changed.")
    return None


def keep(enrolled: Enrolled, state_dir: Path, uid: int, gid: int) -> None:
    """Keep the secret in the station's state, owned by its account (replacing any earlier one)."""
    paths = StatePaths.under(state_dir)
    codes = OneTimeCodes(paths.secret, paths.spent)
    codes.enrol(enrolled.enrolment)
    # The code typed to check the app went through this terminal: it must prove nothing later.
    codes.spend(enrolled.step, system_clock())
    for path in (paths.secret, paths.spent):
        os.chown(path, uid, gid)


def show(enrolment: Enrolment) -> None:
    """The QR code of the otpauth:// URI, the URI, and the key to type by hand."""
    import qrcode

    print(
        "\nAdd Lazaretto to your authenticator app (any app for time-based one-time codes): scan "
        "this QR code, or type the key below. This is the only time it is shown."
    )
    drawing = qrcode.QRCode(border=2, error_correction=qrcode.ERROR_CORRECT_L)
    drawing.add_data(enrolment.uri())
    drawing.make(fit=True)
    # Light modules drawn on a fixed dark background, so scanners read it on any terminal theme.
    drawing.print_ascii(out=sys.stdout, tty=sys.stdout.isatty())
    key = " ".join(enrolment.secret[i : i + 4] for i in range(0, len(enrolment.secret), 4))
    print(f"  URI: {enrolment.uri()}")
    print(f"  key: {key}  (time-based, SHA-1, {DIGITS} digits, every {PERIOD} seconds)")


def _label() -> str:
    """The name the app lists the entry by: who ran sudo, on which machine."""
    return f"{os.environ.get('SUDO_USER') or 'reviewer'}@{socket.gethostname()}"
