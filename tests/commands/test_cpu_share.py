"""`doctor` says when the station has no CPU share of its own (it shares the user's control group)."""

import sys
from pathlib import Path

import pytest
from bench.cpu_groups import CpuGroups
from bench.station_process import StationProcess

from lazaretto.app.station.cpu_share import cpu_hierarchy, share_risk

SHARED = "shares a CPU control group with your processes"
CONTROLLER_OFF = "CPU controller is off for the station's control group"


def fake_proc(tmp_path: Path, version: int, station: str, own: str, cpu_on: bool = True) -> Path:
    """A /proc with this process and the station (pid 4242) in the given groups."""
    proc, hierarchy = tmp_path / "proc", tmp_path / "cgroup"
    hierarchy.mkdir()
    (proc / "self").mkdir(parents=True)
    (proc / "4242").mkdir()
    if version == 1:
        mount = f"cgroup {hierarchy} cgroup rw,relatime,cpu 0 0"
        line = "4:cpu:/{}\n3:memory:/elsewhere\n"
    else:
        mount = f"cgroup2 {hierarchy} cgroup2 rw,relatime 0 0"
        line = "0::/{}\n"
        (hierarchy / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
        (hierarchy / station).mkdir(parents=True, exist_ok=True)
        (hierarchy / station / "cgroup.controllers").write_text("cpu memory\n" if cpu_on else "")
    (proc / "self" / "mounts").write_text(f"proc /proc proc rw 0 0\n{mount}\n")
    (proc / "self" / "cgroup").write_text(line.format(own))
    (proc / "4242" / "cgroup").write_text(line.format(station))
    return proc


@pytest.mark.parametrize("version", [1, 2])
def test_a_station_in_the_users_group_is_warned_about(tmp_path, version):
    group = "user.slice/user-1000.slice/session-2.scope"
    assert SHARED in (share_risk(4242, fake_proc(tmp_path, version, group, group)) or "")


@pytest.mark.parametrize("version", [1, 2])
def test_a_station_in_a_group_of_its_own_is_not(tmp_path, version):
    proc = fake_proc(
        tmp_path,
        version,
        "system.slice/lazaretto-station.service",
        "user.slice/user-1000.slice/session-2.scope",
    )
    assert share_risk(4242, proc) is None


def test_a_group_of_its_own_without_the_cpu_controller_is_warned_about(tmp_path):
    # cgroup v2 groups share the CPU only where the controller is on: a unit without a weight.
    proc = fake_proc(
        tmp_path,
        2,
        "system.slice/lazaretto-station.service",
        "user.slice/user-1000.slice/session-2.scope",
        cpu_on=False,
    )
    assert CONTROLLER_OFF in (share_risk(4242, proc) or "")


def test_nothing_is_said_where_the_system_cannot_tell(tmp_path):
    group = "user.slice"
    proc = fake_proc(tmp_path, 1, group, group)
    (proc / "4242" / "cgroup").unlink()  # the station's process is gone
    assert share_risk(4242, proc) is None
    (proc / "self" / "mounts").write_text("proc /proc proc rw 0 0\n")  # no CPU controller
    assert share_risk(4242, proc) is None


needs_cpu_groups = pytest.mark.skipif(
    not sys.platform.startswith("linux") or cpu_hierarchy() is None,
    reason="no CPU controller mounted here",
)


def doctor_with(station: StationProcess, cli, child_env: dict) -> str:
    done = cli("doctor", env=station.env(child_env))
    assert "\nDecisions\n  station at " in done.stdout, done.stdout + done.stderr
    return done.stdout


@needs_cpu_groups
def test_doctor_warns_about_a_station_started_by_hand(tmp_path, cli, child_env):
    station = StationProcess(tmp_path).start()
    try:
        assert SHARED in doctor_with(station, cli, child_env)
    finally:
        station.stop()


@needs_cpu_groups
def test_doctor_is_quiet_about_a_station_with_a_share_of_its_own(tmp_path, cli, child_env):
    with CpuGroups() as groups:
        if groups.base is None:
            pytest.skip(f"no CPU groups here: {groups.why_not}")
        station = StationProcess(tmp_path, groups.join_station).start()
        try:
            said = doctor_with(station, cli, child_env)
        finally:
            station.stop()
    assert SHARED not in said and CONTROLLER_OFF not in said
