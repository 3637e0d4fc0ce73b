"""CPU control groups for the benchmarks: the station in a group of its own, as systemd runs it.

The installed unit sets a CPU weight (`CPU_WEIGHT`), so systemd shares the CPU among control
groups first: the station's against the users' sessions, however many processes those hold. A
benchmark that starts the station as its own child leaves it among the agents' processes, where
sixteen busy proxies and their servers outnumber it. `CpuGroups` rebuilds the installed layout:
one group for the station and a sibling for everything else the benchmark starts, both at the
default weight, as systemd's system and user slices are. It takes root and a CPU controller
(cgroup v1's `cpu` hierarchy, or v2 with `cpu` available at its root); without them it says why
and the benchmark runs as before.
"""

import os
from pathlib import Path

from lazaretto.app.station.cpu_share import cpu_group, cpu_hierarchy


class CpuGroups:
    """A `station` and a `user` CPU group under one group of this run, removed on leaving.

    On cgroup v2 the CPU controller is turned on at the hierarchy's root, as systemd does for a
    unit with a weight, and left on.
    """

    def __init__(self, wanted: bool = True) -> None:
        self.base: Path | None = None
        self.why_not: str | None = None if wanted else "not asked for"
        self._outside: Path | None = None  # the group this process came from

    def __enter__(self) -> "CpuGroups":
        if self.why_not is not None:
            return self
        if os.geteuid() != 0:
            self.why_not = "CPU groups take root"
            return self
        found = cpu_hierarchy()
        if found is None:
            self.why_not = "no CPU controller is mounted"
            return self
        root, version = found
        base = root / f"lazaretto-bench-{os.getpid()}"
        try:
            if version == 2:
                _enable_cpu(root)
            base.mkdir()
            if version == 2:
                _enable_cpu(base)
            (base / "station").mkdir()
            (base / "user").mkdir()
            self._outside = root / (cpu_group("self", version) or "")
            _move(os.getpid(), base / "user")  # the children started from now on go with it
        except OSError as exc:
            self.why_not = f"the CPU groups could not be made: {exc}"
            self._remove(base)
            return self
        self.base = base
        return self

    def join_station(self) -> None:
        """In a station's child process before it runs: its group of its own (if there is one)."""
        if self.base is not None:
            _move(os.getpid(), self.base / "station")

    def describe(self) -> str:
        """One line for the benchmark's output."""
        if self.base is not None:
            return "the station had a CPU group of its own, as its systemd unit gives it"
        return f"the station shared the benchmark's CPU group ({self.why_not})"

    def __exit__(self, *exc: object) -> None:
        if self.base is not None:
            self._remove(self.base)
            self.base = None

    def _remove(self, base: Path) -> None:
        if self._outside is not None:
            try:
                _move(os.getpid(), self._outside)
            except OSError:
                pass
        for group in (base / "station", base / "user", base):
            try:
                group.rmdir()  # refused while a process is left in it: it stays, empty later
            except OSError:
                pass


def _enable_cpu(group: Path) -> None:
    """cgroup v2: let the children of `group` be weighed against each other."""
    if "cpu" not in (group / "cgroup.subtree_control").read_text().split():
        (group / "cgroup.subtree_control").write_text("+cpu")


def _move(pid: int, group: Path) -> None:
    (group / "cgroup.procs").write_text(str(pid))
