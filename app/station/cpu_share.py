"""Whether the station has a CPU share of its own: a control group the user's processes are not in.

Its systemd unit sets a CPU weight, so systemd runs it in a group of its own with the kernel's CPU
controller on, and the machine is shared among groups before processes. A station started by hand
(or a unit from an older install) shares the user's group, where an agent that starts many busy
processes slows every proxy write and hook event. Linux only: elsewhere nothing is said.
"""

from pathlib import Path

PROC = Path("/proc")


def cpu_hierarchy(proc: Path = PROC) -> tuple[Path, int] | None:
    """Where the CPU controller's hierarchy is mounted, and its cgroup version (1 or 2)."""
    try:
        mounts = (proc / "self" / "mounts").read_text().splitlines()
    except OSError:
        return None
    unified = None
    for line in mounts:
        fields = line.split()
        if len(fields) < 4:
            continue
        where, kind, options = Path(fields[1]), fields[2], fields[3].split(",")
        if kind == "cgroup" and "cpu" in options:
            return where, 1
        if kind == "cgroup2":
            unified = where
    if unified is not None and "cpu" in _words(unified / "cgroup.controllers"):
        return unified, 2
    return None


def cpu_group(pid: int | str, version: int, proc: Path = PROC) -> str | None:
    """The control group of `pid` ("self" for this process) in the CPU hierarchy, from its root."""
    try:
        lines = (proc / str(pid) / "cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if (version == 2 and controllers == "") or (
            version == 1 and "cpu" in controllers.split(",")
        ):
            return path.lstrip("/")
    return None


def share_risk(station_pid: int, proc: Path = PROC) -> str | None:
    """Why the station at `station_pid` has no CPU share of its own, or None when it has one (or
    when this system cannot tell)."""
    found = cpu_hierarchy(proc)
    if found is None:
        return None
    root, version = found
    station, own = cpu_group(station_pid, version, proc), cpu_group("self", version, proc)
    if station is None or own is None:
        return None
    if station == own:
        return (
            "the station shares a CPU control group with your processes, so an agent that starts "
            "many busy processes slows every proxy write and hook event; run it from its service "
            "unit (`sudo lazaretto station install`), which gives it a share of its own"
        )
    if version == 2 and "cpu" not in _words(root / station / "cgroup.controllers"):
        return (
            "the kernel's CPU controller is off for the station's control group, so it competes "
            "with your processes one by one; its service unit's CPUWeight turns it on (reinstall "
            "it with `sudo lazaretto station install`)"
        )
    return None


def _words(path: Path) -> list[str]:
    try:
        return path.read_text().split()
    except OSError:
        return []
