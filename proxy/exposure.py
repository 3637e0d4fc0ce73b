"""Taint: the one place where reading untrusted text marks a session exposed.

The proxy's answers, its cleaner and the client hooks all record exposure through `Exposure`, so
the rule is written once: one open taint event per source is enough, and a source already
recorded is not written again while nothing else has committed to the store.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

# Request methods whose answers (results and errors alike) carry text from the server's data,
# rather than the server's own pinned description of itself (tools/list, prompts/list,
# resources/templates/list, initialize).
EXPOSURE_METHODS = frozenset(
    {
        "tools/call",
        "tasks/result",
        "tasks/get",
        "tasks/list",
        "resources/read",
        "resources/list",
        "prompts/get",
        "completion/complete",
    }
)
# Server requests whose text a client hands to the model.
MODEL_READ_REQUESTS = frozenset({"sampling/createMessage"})


class Exposure:
    """Records one session's untrusted reads in the store."""

    def __init__(self, store: "StoreAPI", session: str, log: Callable[[str], None] | None = None):
        self._store = store
        self._session = session
        self._log = log
        # (server, tool, method) -> the store's data_version when its open taint was last seen.
        self._seen: dict[tuple, int] = {}

    def recorded(self, server: str, tool: str | None, method: str) -> bool:
        """Whether this source's taint was seen open since anything last committed: `record` would
        do nothing, so a caller need not put its reason into words (raises StoreUnavailable)."""
        return self._seen.get((server, tool, method)) == self._store.data_version()

    def record(
        self, *, server: str, tool: str | None, method: str, reason: str, request_id: str | None
    ) -> None:
        """Taint the session with this read (raises StoreUnavailable: the caller withholds)."""
        source = (server, tool, method)
        version = self._store.data_version()
        if self._seen.get(source) == version:
            return
        sessions = self._store.sessions
        first = not sessions.has_open_taint(self._session, server, tool) and sessions.taint(
            self._session,
            server=server,
            tool=tool,
            method=method,
            reason=reason,
            request_id=request_id,
        )
        if first and self._log is not None:
            self._log(f"tainted session {self._session}: {reason}")
        self._seen[source] = version
