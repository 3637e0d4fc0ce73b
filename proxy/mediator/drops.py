"""Every dropped message said in the proxy's log and, sampled past a count, in the audit log."""

from collections.abc import Callable
from typing import TYPE_CHECKING

from lazaretto.store import StoreUnavailable

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

# After this many dropped messages, only every DROP_SAMPLE-th one gets an audit row of its own
# (with the count since the last): a server spewing garbage cannot fill the store with rows.
DROPS_AUDITED_EACH = 100
DROP_SAMPLE = 100


class DropLog:
    """Why a message was dropped, for one server of one session."""

    def __init__(
        self, store: "StoreAPI", session: str, server: str, log: Callable[[str], None]
    ) -> None:
        self._store = store
        self._session = session
        self._server = server
        self._log = log
        self._drops = 0
        self._unaudited = 0

    def __call__(self, side: str, what: str, method: str | None) -> None:
        self._drops += 1
        self._log(f"dropped a {side} message: {what}")
        if self._drops > DROPS_AUDITED_EACH and self._drops % DROP_SAMPLE:
            self._unaudited += 1
            return
        detail = {"side": side, "method": method}
        if self._unaudited:
            detail["dropped_since_last_row"] = self._unaudited
        try:
            self._store.audit.record(
                "proxy",
                "drop",
                session=self._session,
                subject=self._server,
                reason=f"dropped a {side} message: {what}",
                detail=detail,
            )
            self._unaudited = 0
        except StoreUnavailable as exc:
            self._unaudited += 1
            self._log(f"could not audit the drop: {exc}")
