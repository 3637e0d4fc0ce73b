"""A proxy's record of itself in the store while it runs: the proof hooks take that a server is proxied.

See `lazaretto.store.proxies`: the record names this process (id and start time), the server it
serves and its session, and goes when the proxy ends. A proxy killed outright leaves its record,
which proves nothing once no live process has that id and start time.
"""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from lazaretto.store import StoreUnavailable

from .processes import errors, process

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI


def start_time(pid: int) -> int | None:
    """When process `pid` started (whole seconds since the epoch, as psutil and the kernel say),
    or None when it is gone or cannot be looked at."""
    try:
        return int(process(pid).create_time())
    except errors():
        return None


@contextmanager
def announced(store: "StoreAPI", server: str, session: str, log) -> Iterator[None]:
    """This proxy is recorded as serving `server` in `session` for as long as the block runs.

    Without the record the hooks gate the server's calls themselves (a second token, never
    none): a store that cannot take it is logged, not fatal.
    """
    pid = os.getpid()
    started = start_time(pid)
    recorded = False
    if started is not None:
        try:
            store.proxies.register(pid=pid, started=started, server=server, session=session)
            recorded = True
        except StoreUnavailable as exc:
            log(f"could not record this proxy in the store ({exc}); the hooks gate {server} too")
    try:
        yield
    finally:
        if recorded and started is not None:
            try:
                store.proxies.unregister(pid=pid, started=started)
            except StoreUnavailable:
                pass  # a record left behind proves nothing once this process is gone
