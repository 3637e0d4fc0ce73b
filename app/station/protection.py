"""What protects decisions on this machine, said the same way by doctor, status and the review app."""

import os
import sys

from lazaretto.store.modes import Mode
from lazaretto.store.opening import StoreAPI

EMBEDDED_WARNING = (
    "embedded: any process of your user can act as you; run `sudo lazaretto station install`"
)


def protection_line(store: StoreAPI) -> str:
    """One line: the station, or embedded mode and what that leaves open."""
    if store.mode is Mode.STATION:
        return (
            f"station at {store.describe().removeprefix('the station at ')}: every decision needs "
            "a one-time code from the reviewer's authenticator app"
        )
    return EMBEDDED_WARNING


def snooping_risks(environ: dict | None = None) -> list[str]:
    """What would let a process of the user read what is typed, or change the program it is typed
    into (and so the decision a code is sent with)."""
    env = os.environ if environ is None else environ
    risks = []
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/sys/kernel/yama/ptrace_scope", encoding="ascii") as handle:
                scope = handle.read().strip()
        except OSError:
            scope = None
        if scope == "0":
            risks.append(
                "kernel.yama.ptrace_scope is 0: any process of your user can trace the lazaretto "
                "command or review app you clear with, and change the decision your code is sent "
                "with (sudo sysctl kernel.yama.ptrace_scope=1)"
            )
        elif scope is None:
            risks.append(
                "no Yama ptrace restriction on this kernel: processes of your user can trace each "
                "other and read what is typed into them"
            )
    if env.get("XDG_SESSION_TYPE") == "x11" or (
        env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY")
    ):
        risks.append(
            "an X11 session: any X client of your user can read keystrokes and type into your "
            "windows; clear on a Wayland session or a text console"
        )
    return risks
