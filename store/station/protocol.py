"""The station's protocol: requests, answers, and the errors a refusal stands for.

A request is `{"v": 1, "id": N, "op": "sessions.taint", "args": {...}}`, plus `"proof"` for a
decision (`{"code": ..., "decision": ...}`: a one-time code and the decision `station.begin` named)
or an unlock (the reviewer passphrase). The answer is `{"id": N, "ok": true, "result": ...}` or
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
    WRONG_CODE = "wrong_code"
    CODE_USED = "code_used"
    CODE_CONFLICT = "code_conflict"
    """Another connection's decision waited for a code while this one could have been typed."""
    NOT_BEGUN = "not_begun"
    """The code came without the decision its connection began, or for another one."""
    LOCKED = "locked"
    NO_PASSPHRASE = "no_passphrase"
    NOT_ENROLLED = "not_enrolled"
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
    """A decision without a fresh code for it, or an unlock without the right passphrase: wrong,
    missing, used, met by another decision, or clearances locked."""

    def __init__(self, message: str, code: ErrorCode, locked_until: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.locked_until = locked_until


PROOF_CODES = frozenset(
    {
        ErrorCode.PROOF_REQUIRED,
        ErrorCode.WRONG_PASSPHRASE,
        ErrorCode.WRONG_CODE,
        ErrorCode.CODE_USED,
        ErrorCode.CODE_CONFLICT,
        ErrorCode.NOT_BEGUN,
        ErrorCode.LOCKED,
        ErrorCode.NO_PASSPHRASE,
        ErrorCode.NOT_ENROLLED,
    }
)
"""Refusals for want of proof: each is audited with the sender's uid."""


def code_proof(code: str, decision: str) -> dict:
    """The proof of a decision: the code typed for it, and the id `station.begin` gave it."""
    return {"code": code, "decision": decision}


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
