"""`lazaretto station run` as a child process, for the benchmarks and the fault suite.

Same account as the caller: what it measures or breaks is the station's transport and its
store, not the account boundary (tests/station covers that, as root). It runs at the priority the
installed service unit gives it (`NICE`), as far as the caller may: raising a priority takes root;
given `CpuGroups.join_station`, also in a CPU group of its own, as the unit's weight has it.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from lazaretto.app.station.units import NICE


class StationProcess:
    """A station on `folder`/run/station.sock with its store in `folder`/state."""

    def __init__(self, folder: Path, in_child: Callable[[], None] | None = None) -> None:
        self.in_child = in_child
        """Run in the station's process before it starts (e.g. `CpuGroups.join_station`)."""
        self.socket = folder / "run" / "station.sock"
        self.store = folder / "state" / "station.db"
        self.proc: subprocess.Popen | None = None
        self.nice = NICE if os.geteuid() == 0 else os.getpriority(os.PRIO_PROCESS, 0)
        """The nice value it runs at: the unit's, or the caller's own without root."""

    def env(self, base: dict | None = None) -> dict:
        """An environment whose proxies, hooks and commands use this station and no file."""
        env = {**(os.environ if base is None else base), "LAZARETTO_STATION": str(self.socket)}
        env.pop("LAZARETTO_STORE", None)
        return env

    def start(self, cpus: set[int] | None = None) -> "StationProcess":
        """Start it and wait until its socket answers."""
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "lazaretto.app",
                "station",
                "run",
                "--socket",
                str(self.socket),
                "--store",
                str(self.store),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=lambda: self._prepare(cpus),
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the station exited with {self.proc.returncode}")
            probe = socket.socket(socket.AF_UNIX)
            try:
                probe.connect(str(self.socket))
                return self
            except OSError:
                time.sleep(0.05)
            finally:
                probe.close()
        raise RuntimeError("the station never answered on its socket")

    def _prepare(self, cpus: set[int] | None) -> None:
        """In the child, before it runs the station: what its service manager would set."""
        os.setpriority(os.PRIO_PROCESS, 0, self.nice)
        if self.in_child is not None:
            self.in_child()
        if cpus:
            os.sched_setaffinity(0, cpus)

    def kill(self) -> None:
        """Kill it without warning, as a crash would."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """Stop it as its service manager would (SIGTERM), continuing it first if it was stopped."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            self.proc.wait(10)
