"""The service units `station install` writes: the station runs above the user's priority."""

import plistlib

from lazaretto.app.station.layout import layout
from lazaretto.app.station.units import NICE, launchd_plist, systemd_unit


def test_the_station_is_scheduled_before_the_agents_processes():
    assert NICE < 0  # a nice value below the users' default 0: a higher priority


def test_the_systemd_unit_sets_the_priority(tmp_path):
    unit = systemd_unit(layout(str(tmp_path), None), "_lazaretto")
    service = unit.partition("[Service]\n")[2].partition("\n\n")[0].splitlines()
    assert f"Nice={NICE}" in service


def test_the_launchd_daemon_sets_the_priority(tmp_path):
    daemon = plistlib.loads(launchd_plist(layout(str(tmp_path), None), "_lazaretto").encode())
    assert daemon["Nice"] == NICE
    assert daemon["UserName"] == "_lazaretto"
