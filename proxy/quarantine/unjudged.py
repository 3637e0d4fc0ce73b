"""A payload the pipeline failed to judge, kept whole in the quarantine for a person to read.

Nothing is lost when judging fails: the agent is told the result was withheld and why in words
(never the exception's text, which may quote the payload), and the whole payload waits in the
store as one withheld field, with the error as its reason, where a person can read and release it.
"""

import json
from typing import TYPE_CHECKING, Any

from lazaretto.store import StoreUnavailable, sha256_hex

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

UNJUDGED = "uninspectable"
"""The signal a field kept whole carries: the pipeline's error, for the reviewer."""


def keep_unjudged(
    store: "StoreAPI",
    *,
    session: str,
    server: str,
    tool: str | None,
    method: str,
    request_id: str | None,
    payload: Any,
    error: BaseException,
) -> str | None:
    """Store `payload` whole as a withheld field; its quarantine id, or None if the store failed."""
    original = json.dumps(payload, ensure_ascii=False, default=repr)
    reason = f"{type(error).__name__}: {error}"[:200]
    try:
        return store.quarantine.withhold(
            session=session,
            server=server,
            tool=tool,
            method=method,
            request_id=request_id,
            path="",
            content_hash=sha256_hex(original),
            fingerprint=None,
            payload_fingerprints=[],
            original=original,
            cleaned="",
            score=1.0,
            signals=[{"name": UNJUDGED, "weight": 1.0, "excerpt": reason, "start": 0, "end": 0}],
            decoded=[],
            removed=[],
        )
    except StoreUnavailable:
        return None
