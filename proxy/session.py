"""Which agent client is this? The session key every proxy and hook of one client agrees on."""

import os
from collections.abc import Mapping
from typing import NamedTuple

from .processes import ProcessView, errors, process

SESSION_ENV = "LAZARETTO_SESSION"

# Processes that sit between a client and its proxies without being the client: shells,
# launchers and package runners, and Lazaretto itself when proxies are chained.
_PASS_THROUGH = frozenset(
    """sh bash dash zsh ksh mksh fish tcsh csh ash busybox env sudo doas nohup timeout nice ionice
    setsid stdbuf xargs script uv uvx pipx poetry pdm hatch rye direnv npx pnpm yarn bunx
    lazaretto""".split()
)


class SessionInfo(NamedTuple):
    """The key, and for display the client process it was derived from."""

    key: str
    client_pid: int | None = None
    client_name: str | None = None
    client_started: int | None = None
    """The client's start (seconds since the epoch): with its pid, what tells that it exited."""


def discover_session(
    environ: Mapping[str, str] | None = None, parent_pid: int | None = None
) -> SessionInfo:
    """`LAZARETTO_SESSION`, else the nearest ancestor that is not a shell or wrapper.

    The key includes the client's start time, so a recycled process id never inherits an
    old session's taint. `environ` and `parent_pid` default to this process's own; the station
    passes a hook's, found from the kernel's credentials of the hook's connection.
    """
    explicit = (os.environ if environ is None else environ).get(SESSION_ENV)
    if explicit:
        return SessionInfo(explicit)
    parent_pid = os.getppid() if parent_pid is None else parent_pid
    try:
        client = client_process(parent_pid)
        name, started = client.name(), int(client.create_time())
        return SessionInfo(f"{name}-{client.pid}-{started}", client.pid, name, started)
    except errors():
        # Without a process table the parent pid is the best key there is.
        return SessionInfo(f"ppid-{parent_pid}", parent_pid)


def client_process(parent_pid: int | None = None) -> ProcessView:
    """The agent client this process (or the one whose parent is `parent_pid`) runs under: the
    nearest ancestor that is not a shell, a launcher or Lazaretto itself. Raises an error of
    `processes.errors()` without a process table."""
    current = process(os.getppid() if parent_pid is None else parent_pid)
    while True:
        parent = current.parent()
        if parent is None or parent.pid <= 1 or not _is_pass_through(current):
            return current
        current = parent


def _is_pass_through(current: ProcessView) -> bool:
    name = current.name().lower().removesuffix(".exe")
    if name in _PASS_THROUGH:
        return True
    if name.startswith("python"):
        # `python -m lazaretto.app ...` or a `lazaretto` console script run by python.
        cmdline = current.cmdline()
        return any("lazaretto" in os.path.basename(part) for part in cmdline[1:3])
    return False
