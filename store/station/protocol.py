"""The station's protocol: requests, answers, and the errors a refusal stands for.

A request is `{"v": 1, "id": N, "op": "sessions.taint", "args": {...}}`, plus `"proof"` (the
reviewer passphrase) for a decision. The answer is `{"id": N, "ok": true, "result": ...}` or
`{"id": N, "ok": false, "error": {"code": ..., "message": ...}}`. While it works on a hook event
the station may ask the hook something only the user's account can see (`{"id": N, "ask": ...}`),
which the hook answers with `{"id": N, "answer": ...}`. Lines are JSON with every non-ASCII
character escaped (`wire`), so any text (lone surrogates too) crosses as it was.
"""

from enum import StrEnum
from typing import Any

from ..connection import StoreUnavailable
from ..decisions import DecisionError
from ..tokens import TokenError


class ErrorCode(StrEnum):
    """Why the station did not carry out a request."""

    BAD_REQUEST = "bad_request"
    VERSION = "version"
    FORBIDDEN = "forbidden"
    PROOF_REQUIRED = "proof_required"
    WRONG_PASSPHRASE = "wrong_passphrase"
    LOCKED = "locked"
    NO_PASSPHRASE = "no_passphrase"
    DECISION = "decision"
    TOKEN = "token"
    STORE_UNAVAILABLE = "store_unavailable"
    INTERNAL = "internal"


class StationError(StoreUnavailable):
    """The station refused or could not read a request: the caller fails closed, as without a store."""

    def __init__(self, message: str, code: ErrorCode = ErrorCode.INTERNAL) -> None:
        super().__init__(message)
        self.code = code


class ProofError(RuntimeError):
    """A decision or an unlock without the right passphrase: wrong, missing, or clearances locked."""

    def __init__(self, message: str, code: ErrorCode, locked_until: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.locked_until = locked_until


PROOF_CODES = frozenset(
    {
        ErrorCode.PROOF_REQUIRED,
        ErrorCode.WRONG_PASSPHRASE,
        ErrorCode.LOCKED,
        ErrorCode.NO_PASSPHRASE,
    }
)


def error_reply(request_id: Any, code: ErrorCode, message: str, **extra: Any) -> dict:
    """A refusal to carry out one request."""
    return {
        "id": request_id,
        "ok": False,
        "error": {"code": str(code), "message": message, **extra},
    }


def raise_error(error: dict) -> None:
    """Raise the exception a station error stands for, on the client side."""
    code = error.get("code")
    message = str(error.get("message") or code)
    if code == ErrorCode.STORE_UNAVAILABLE:
        raise StoreUnavailable(message)
    if code == ErrorCode.DECISION:
        raise DecisionError(message)
    if code == ErrorCode.TOKEN:
        raise TokenError(message)
    if code in PROOF_CODES:
        raise ProofError(message, ErrorCode(code), error.get("locked_until"))
    try:
        known = ErrorCode(code)
    except ValueError:
        known = ErrorCode.INTERNAL
    raise StationError(f"the station refused the request: {message}", known)
