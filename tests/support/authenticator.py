"""The reviewer's authenticator app, as the tests play it: codes computed with pyotp from the
otpauth:// URI enrolment showed, as an app computes them (RFC 6238), not by the product's code."""

import re
import time
from collections.abc import Callable

import pyotp
from pyotp.totp import TOTP

from lazaretto.store.station.client import StationStore
from lazaretto.store.station.protocol import code_proof

SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
"""The secret an in-process station is enrolled with (the boundary tests enrol a fresh one)."""
URI = TOTP(SECRET).provisioning_uri(name="reviewer@test", issuer_name="Lazaretto")

_URI = re.compile(r"otpauth://totp/\S+")


class Authenticator:
    """An app enrolled from a URI, reading the time from `now` (seconds since the epoch)."""

    def __init__(self, uri: str, now: Callable[[], float] = time.time) -> None:
        totp = pyotp.parse_uri(uri)
        assert isinstance(totp, TOTP), uri
        self.totp = totp
        self.now = now
        self._last: int | None = None

    @classmethod
    def scanned(cls, output: str, now: Callable[[], float] = time.time) -> "Authenticator":
        """The app a person enrols by scanning what enrolment printed."""
        found = _URI.search(output)
        assert found, f"no otpauth:// URI was shown:\n{output}"
        return cls(found.group(0), now)

    def shown(self, steps: int = 0) -> str:
        """The code the app shows now (or `steps` steps later: a phone whose clock runs ahead)."""
        return self.totp.at(self.now() + steps * self.totp.interval)

    def fresh(self) -> str:
        """A code of a step no earlier code came from, that a station takes now (one step either
        side of its clock): the previous step while it has long to go, the current one, the next
        one; after those it waits for the clock to move on."""
        while True:
            now = self.now()
            current = int(now) // self.totp.interval
            # The previous step's code stays good until the next step begins: use it early on.
            early = now - current * self.totp.interval < self.totp.interval / 2
            first = current - 1 if early else current
            step = first if self._last is None else max(first, self._last + 1)
            if step <= current + 1:
                self._last = step
                return self.totp.at(step * self.totp.interval)
            time.sleep(0.2)  # waiting for the clock's next step, a state, not a length of time

    def after(self, moment: float) -> None:
        """From now on, only codes of steps that begin after `moment` (waiting for them)."""
        step = int(moment) // self.totp.interval
        self._last = step if self._last is None else max(self._last, step)

    def forget(self) -> None:
        """A station with a fresh record of spent codes: any current code will do again."""
        self._last = None


def wrong(code: str) -> str:
    """A well-formed code that is not `code`."""
    return code[:-1] + ("0" if code[-1] != "0" else "1")


def proven(client: StationStore, op: str, subject: object, code: str) -> StationStore:
    """`client`, having begun `op` on `subject` and carrying `code` for it, as a person's command
    does between showing the decision and sending it."""
    return client.with_proof(code_proof(code, client.begin(op, subject)))
