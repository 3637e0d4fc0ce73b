"""One-time codes from the reviewer's authenticator app (RFC 6238 TOTP), each accepted once.

The secret is made at enrolment and kept in the station's state, readable only by its account;
the person's authenticator app holds the other copy. A code stands for one 30-second step of the
station's clock: it is accepted within one step either side (phones drift), and once any code of
a step was accepted, that step and every earlier one are spent for good (RFC 6238 §5.2), whatever
the decision it came with. The algorithm and the provisioning URI are pyotp's: a small library,
well kept, with no dependencies of its own.
"""

import hmac
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pyotp
from pyotp.totp import TOTP

from .state_files import read_state, write_state

PERIOD = 30
"""Seconds a code stands for (the authenticator apps' default)."""
DIGITS = 6
WINDOW = 1
"""Steps either side of the station's clock whose codes are still accepted."""
ISSUER = "Lazaretto"
SECRET_CHARACTERS = 32
"""Base32 characters of a new secret: 160 bits, the length RFC 4226 recommends for SHA-1."""


@dataclass(frozen=True)
class Enrolment:
    """The secret an authenticator app is given, and the name it shows the account by."""

    secret: str
    label: str

    def uri(self) -> str:
        """The otpauth:// URI an authenticator app scans (shown as a QR code at enrolment)."""
        return _totp(self.secret).provisioning_uri(name=self.label, issuer_name=ISSUER)

    def step_of_code(self, code: object, now: datetime) -> int | None:
        """The step `code` is the code of, within the window around `now`; None if none."""
        digits = well_formed(code)
        if digits is None:
            return None
        totp = _totp(self.secret)
        current = step_of(now)
        found = None
        for step in range(current - WINDOW, current + WINDOW + 1):
            # Every step is compared, in constant time, so the time taken tells nothing.
            if hmac.compare_digest(totp.generate_otp(step), digits):
                found = step
        return found

    def as_json(self) -> dict:
        """How the station keeps it."""
        return {
            "scheme": "totp",
            "algorithm": "SHA1",
            "digits": DIGITS,
            "period": PERIOD,
            "secret": self.secret,
            "label": self.label,
        }


def new_enrolment(label: str) -> Enrolment:
    """A fresh random secret (from `secrets`, through pyotp) for an app to enrol."""
    return Enrolment(pyotp.random_base32(SECRET_CHARACTERS), label)


def step_of(moment: datetime) -> int:
    """The time step `moment` falls in."""
    return int(moment.timestamp()) // PERIOD


def step_start(step: int) -> float:
    """When `step` began, in seconds since the epoch."""
    return float(step * PERIOD)


def well_formed(code: object) -> str | None:
    """The code's digits (spaces, as apps group them, left out), or None if it is not one."""
    if not isinstance(code, str):
        return None
    digits = code.replace(" ", "")
    return digits if len(digits) == DIGITS and digits.isascii() and digits.isdigit() else None


class OneTimeCodes:
    """Matches a typed code against the enrolled secret; remembers the last step spent, on disk."""

    def __init__(self, secret_path: Path, spent_path: Path) -> None:
        self.secret_path = secret_path
        self.spent_path = spent_path

    def enrolment(self) -> Enrolment | None:
        """The enrolled secret, or None when no authenticator was enrolled."""
        try:
            record = read_state(self.secret_path)
        except ValueError:
            return None  # a damaged secret proves nothing: every code is refused
        if not record or record.get("scheme") != "totp" or not record.get("secret"):
            return None
        return Enrolment(str(record["secret"]), str(record.get("label", "")))

    def enrol(self, enrolment: Enrolment) -> None:
        """Keep `enrolment` as the secret codes are checked against (replacing any earlier one)."""
        write_state(self.secret_path, enrolment.as_json())

    def match(self, code: object, now: datetime) -> int | None:
        """The step `code` is the code of, for the enrolled secret; None if none (or none set)."""
        enrolment = self.enrolment()
        return enrolment.step_of_code(code, now) if enrolment else None

    def spent(self, step: int, now: datetime) -> bool:
        """Whether a code of `step`, or of a later step, was accepted already."""
        return step <= self._last_spent(now)

    def spend(self, step: int, now: datetime) -> None:
        """Mark `step` and every step before it spent, durably, before the decision is taken."""
        write_state(self.spent_path, {"last_spent_step": max(step, self._last_spent(now))})

    def _last_spent(self, now: datetime) -> int:
        try:
            record = read_state(self.spent_path)
        except (OSError, ValueError):
            # A damaged record must not make a code good again: every code valid now is spent.
            return step_of(now) + WINDOW
        if not record or record.get("last_spent_step") is None:
            return -1
        return int(record["last_spent_step"])


def _totp(secret: str) -> TOTP:
    return TOTP(secret, digits=DIGITS, interval=PERIOD)
