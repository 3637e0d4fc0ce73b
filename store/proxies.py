"""The proxies that run now, as each proxy says of itself: what makes a server count as proxied.

A proxy records itself when it starts (its process id and start time, the server it serves, its
session) and takes the record away when it ends. A hook reads these records, not command lines:
a process that only looks like a proxy (`exec -a`, a server that renames itself) wrote none. A
record counts only while a live process has that id and that start time, so one a crashed proxy
left behind, or one that names another process, proves nothing. Through a station the process
id is the connection's own, as the kernel reports it: a client records itself, no other process.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .store import Store


class RunningProxies:
    """One row per running proxy, written by the proxy itself."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def register(self, *, pid: int, started: int, server: str, session: str) -> None:
        """The proxy with process id `pid`, started at `started` (epoch seconds), serves `server`."""
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO running_proxies (pid, started, server, session, at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT(pid) DO UPDATE SET started = excluded.started,"
                " server = excluded.server, session = excluded.session, at = excluded.at",
                (pid, started, server, session, self._store.now()),
            )

    def unregister(self, *, pid: int, started: int) -> None:
        """The proxy `pid` (started at `started`) ends: its record goes."""
        with self._store.write() as conn:
            conn.execute(
                "DELETE FROM running_proxies WHERE pid = ? AND started = ?", (pid, started)
            )

    def of_session(self, session: str) -> list[dict]:
        """The records of `session`'s proxies (each still to be checked against its process)."""
        return self._store.query(
            "SELECT pid, started, server FROM running_proxies WHERE session = ?", (session,)
        )
