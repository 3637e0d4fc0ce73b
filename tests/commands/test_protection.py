"""What doctor, status and the review app say protects decisions, and what could read a passphrase."""

import sys

import pytest

from lazaretto.app.station.protection import protection_line, snooping_risks


def test_embedded_mode_says_what_it_leaves_open(store):
    assert protection_line(store) == (
        "embedded: any process of your user can act as you; run `sudo lazaretto station install`"
    )


@pytest.mark.parametrize(
    "environ, warned",
    [
        ({"DISPLAY": ":0"}, True),
        ({"XDG_SESSION_TYPE": "x11", "WAYLAND_DISPLAY": "wayland-0"}, True),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}, False),
        ({}, False),
    ],
)
def test_an_x11_session_is_warned_about(environ, warned):
    assert any("X11" in risk for risk in snooping_risks(environ)) is warned


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Yama is Linux's")
def test_ptrace_scope_zero_or_missing_is_warned_about():
    try:
        with open("/proc/sys/kernel/yama/ptrace_scope") as handle:
            scope = handle.read().strip()
    except OSError:
        scope = None
    ptrace = [risk for risk in snooping_risks({}) if "ptrace" in risk]
    assert bool(ptrace) is (scope in (None, "0"))


def test_doctor_has_a_decisions_section(cli):
    done = cli("doctor")
    assert "\nDecisions\n  embedded: any process of your user can act as you" in done.stdout
