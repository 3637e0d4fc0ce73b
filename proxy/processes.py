"""What a proxy reads about processes at every start, with psutil's values: from /proc on Linux.

A proxy records its own start time (see `presence`) and finds its agent client by walking its
ancestors (see `session`); hooks and the station read the same facts with psutil and compare them,
so each value here is psutil's, computed as psutil 7 computes it on Linux (5.9 read the boot
time once per process, where 7 reads it at each question, as this module does). Reading the few
files itself spares a proxy psutil's import (some 10 ms of a start: sockets, enums, named tuples
for its whole API). Elsewhere (macOS) psutil reads them.
"""

import os
import sys
from typing import Protocol

_PROC = "/proc"
# Process names are decoded as file names are, as psutil decodes them.
_ENCODING = sys.getfilesystemencoding()
_ENCODING_ERRORS = sys.getfilesystemencodeerrors()
# The kernel keeps a name's first 15 bytes: psutil reads a name that long from the command line.
_NAME_LIMIT = 15


class ProcessView(Protocol):
    """The part of `psutil.Process` the session walk uses."""

    @property
    def pid(self) -> int: ...
    def name(self) -> str: ...
    def cmdline(self) -> list[str]: ...
    def create_time(self) -> float: ...
    def parent(self) -> "ProcessView | None": ...


class ZombieProcess(ProcessLookupError):
    """The process has exited and waits for its parent to reap it: it has no command line left."""


def process(pid: int) -> ProcessView:
    """Process `pid`, read from /proc on Linux, by psutil elsewhere.

    Raises an error of `errors()` when there is no such process or it cannot be read.
    """
    if sys.platform.startswith("linux"):
        return LinuxProcess(pid)
    import psutil

    return psutil.Process(pid)


def errors() -> tuple[type[Exception], ...]:
    """What reading a process may raise where `process` reads it: OSError, and psutil's errors
    where psutil reads it."""
    if sys.platform.startswith("linux"):
        return (OSError,)
    import psutil

    return (psutil.Error, OSError)


class LinuxProcess:
    """A process as /proc shows it, with psutil.Process's answers to the questions it is asked.

    Its stat line is read once (as psutil reads it to tell the process from a later one with its
    id); its command line when asked.
    """

    def __init__(self, pid: int) -> None:
        if pid < 0:
            raise ValueError(f"pid must be a positive integer (got {pid})")
        self.pid = pid
        self._comm, self._state, self.ppid, self._started_ticks = _stat(pid)

    def name(self) -> str:
        """The name the kernel keeps, or the command's own file name where that was cut short."""
        name = self._comm.decode(_ENCODING, _ENCODING_ERRORS)
        if len(name) >= _NAME_LIMIT:
            try:
                cmdline = self.cmdline()
            except (PermissionError, ZombieProcess):
                return name  # psutil keeps the short name too
            if cmdline:
                extended = os.path.basename(cmdline[0])
                if extended.startswith(name):
                    return extended
        return name

    def cmdline(self) -> list[str]:
        """The arguments, split as psutil splits them (a program that rewrote its own command
        line may have joined them with spaces)."""
        with open(
            f"{_PROC}/{self.pid}/cmdline", encoding=_ENCODING, errors=_ENCODING_ERRORS
        ) as file:
            data = file.read()
        if not data:
            if _stat(self.pid)[1] == b"Z":
                raise ZombieProcess(f"process {self.pid} is a zombie")
            return []
        sep = "\x00" if data.endswith("\x00") else " "
        if data.endswith(sep):
            data = data[:-1]
        arguments = data.split(sep)
        if sep == "\x00" and len(arguments) == 1 and " " in data:
            arguments = data.split(" ")
        return arguments

    def create_time(self) -> float:
        """When the process started, in seconds since the epoch (to the clock tick)."""
        # psutil's arithmetic, in its order: the same float, so the same whole seconds.
        return float(self._started_ticks) / os.sysconf("SC_CLK_TCK") + _boot_time()

    def parent(self) -> "LinuxProcess | None":
        """The parent process, or None for the first process, a parent gone, or a parent id
        given to a process started since."""
        if self.pid == 1:
            return None
        try:
            parent = LinuxProcess(self.ppid)
        except (FileNotFoundError, ProcessLookupError):
            return None
        return parent if parent.create_time() <= self.create_time() else None


def _stat(pid: int) -> tuple[bytes, bytes, int, int]:
    """(name, state, parent id, start in clock ticks since boot) from /proc/PID/stat."""
    with open(f"{_PROC}/{pid}/stat", "rb") as file:
        data = file.read()
    # The name is between the first "(" and the last ")": it may hold either.
    close = data.rfind(b")")
    fields = data[close + 2 :].split()
    try:
        return data[data.find(b"(") + 1 : close], fields[0], int(fields[1]), int(fields[19])
    except (IndexError, ValueError):
        # A stat line in another layout (a kernel or sandbox that writes it otherwise) is a
        # process that cannot be read: the session key falls back as without a process table.
        raise OSError(f"{_PROC}/{pid}/stat has no start time where Linux writes it") from None


def _boot_time() -> float:
    """When the system booted, in seconds since the epoch: read each time, as psutil does (the
    kernel derives it from the clock, which a time sync may step)."""
    with open(f"{_PROC}/stat", "rb") as file:
        for line in file:
            if line.startswith(b"btime"):
                try:
                    return float(line.split()[1])
                except (IndexError, ValueError):
                    break
    raise OSError(f"no btime line in {_PROC}/stat")
