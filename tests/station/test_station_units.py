"""The service units `station install` writes: the station runs above the user's priority."""

import plistlib
import shutil
import subprocess

import pytest

from lazaretto.app.station.layout import layout
from lazaretto.app.station.units import CPU_WEIGHT, NICE, launchd_plist, systemd_unit


def test_the_station_is_scheduled_before_the_agents_processes():
    assert NICE < 0  # a nice value below the users' default 0: a higher priority


def test_the_systemd_unit_sets_the_priority(tmp_path):
    unit = systemd_unit(layout(str(tmp_path), None), "_lazaretto")
    service = unit.partition("[Service]\n")[2].partition("\n\n")[0].splitlines()
    assert f"Nice={NICE}" in service


def test_the_systemd_unit_gives_the_station_a_cpu_share_of_its_own(tmp_path):
    # A weight above the default 100: systemd then shares the CPU among control groups, so the
    # users' processes, however many, cannot take the station's share.
    unit = systemd_unit(layout(str(tmp_path), None), "_lazaretto")
    service = unit.partition("[Service]\n")[2].partition("\n\n")[0].splitlines()
    assert f"CPUWeight={CPU_WEIGHT}" in service
    assert 100 < CPU_WEIGHT <= 10000  # systemd's range; 100 is every unit's default


def test_the_launchd_daemon_sets_the_priority(tmp_path):
    daemon = plistlib.loads(launchd_plist(layout(str(tmp_path), None), "_lazaretto").encode())
    assert daemon["Nice"] == NICE
    assert daemon["UserName"] == "_lazaretto"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is missing")
def test_systemd_reads_every_line_of_the_unit(tmp_path):
    # systemd ignores a key it does not know or a value it cannot read, with a warning only:
    # a misspelt setting would leave the station without it and nobody would notice.
    unit = tmp_path / "lazaretto-station.service"
    unit.write_text(systemd_unit(layout(str(tmp_path / "root"), None), "_lazaretto"))
    checked = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    assert str(unit) not in checked.stderr + checked.stdout, checked.stderr
