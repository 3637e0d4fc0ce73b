"""JSON-RPC 2.0 over newline-delimited stdio: parsing a line, writing one, building errors."""

import json
import re
from enum import StrEnum
from typing import Any

import orjson

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INTERNAL_ERROR = -32603
# Lazaretto's refusals; the numbers are part of the documented contract.
REFUSED = -32002
PIN_DRIFT = -32003
NOT_STARTED = -32004
"""The proxy could not start (its policy or its pin lock file is unusable): the error says why."""


class ErrorReason(StrEnum):
    """`error.data.reason` of Lazaretto's errors (a documented contract); refusals are stored too."""

    TAINTED_OUTBOUND = "tainted_outbound"
    HOST_NOT_ALLOWED = "host_not_allowed"
    HOST_CHECK_FAILED = "host_check_failed"
    STORE_UNAVAILABLE = "store_unavailable"
    PIN_DRIFT = "pin_drift"
    WITHHELD = "withheld"
    TIMEOUT = "timeout"
    UNREADABLE_REPLY = "unreadable_reply"
    INVALID_REPLY = "invalid_reply"
    OVERSIZED_REPLY = "oversized_reply"
    SERVER_EXITED = "server_exited"
    POLICY_ERROR = "policy_error"


# Finds the id of a message we could not parse, so the client is not left waiting.
_ID_PREFIX = re.compile(rb'"id"\s*:\s*(-?\d{1,20}|"(?:[^"\\]|\\.){0,200}")')


class LineError(ValueError):
    """A line that is not one JSON value we can inspect; the text says why."""


def parse_line(raw: bytes) -> tuple[Any, bool]:
    """Decode one line (strict UTF-8 JSON): the value, and whether some object repeated a key;
    raise LineError with a reason otherwise."""
    return parse_text(decode_line(raw), raw)


def decode_line(raw: bytes) -> str:
    """The line as text: strict UTF-8 (json's own encoding detection is skipped); LineError otherwise."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LineError(f"not valid UTF-8 at byte {exc.start}") from exc


class _RepeatedKey(Exception):
    """An object named one key twice."""


def _unique_object(pairs: list[tuple[str, Any]]) -> dict:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _RepeatedKey
    return found


_UNIQUE = json.JSONDecoder(object_pairs_hook=_unique_object)
# orjson pays where a text is short (most of json's time there is its own Python around the scan,
# and a call back into Python for each object's keys) or holds many objects (a call back for each);
# a long text of few objects json reads about as fast, and the checks that keep orjson's reading
# exact (a pass over every byte each) cost more than they save.
_SHORT = 768
_MANY_OBJECTS = 8
# What orjson would read otherwise than json: a colon written as an escape inside a string (the
# count of colons, see parse_text, cannot tell it from an object's own; any `\u003` escape is
# sent the exact way), and an integer of 19 digits or more (past 64 bits orjson makes it a float),
# found as a run of nineteen zeros once every digit is a zero and every other byte a space.
_ESCAPED_COLON = "\\u003"
_DIGITS = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_NUMBER = b"0" * 19
_DIGIT_BYTES = b"0123456789"


def parse_text(text: str, raw: bytes | None = None) -> tuple[Any, bool]:
    """One decoded line as a JSON value, and whether some object in it repeated a key (the value
    then holds the last of each, as json and JavaScript read it); LineError otherwise. `raw`: the
    bytes `text` was decoded from (strict UTF-8), when the caller has them: orjson reads those,
    and the text is not encoded again.

    Parsers disagree on repeated keys (some keep the first), so a line with one is never passed
    on as it came: the caller refuses it or forwards its own serialization of what it judged.

    A short text, or one of many objects, is read by orjson, about twice as fast as `json`
    calling back into Python for every object to see its keys. orjson keeps the last of a repeated key too,
    without saying so; but a colon outside strings is an object's member and inside them a
    character of the string, so the value written again (orjson, at C speed) holds as many
    colons as the text exactly when no member was lost. What orjson refuses or reads its own way
    (NaN, integers past 64 bits, lone surrogates, deep nesting) and a text with an escaped colon
    go to `json`, which decides as it always did.
    """
    if (len(text) > _SHORT and text.count("{") < _MANY_OBJECTS) or _ESCAPED_COLON in text:
        return _parse_exactly(text)
    try:
        value = orjson.loads(text if raw is None else raw)
        written = orjson.dumps(value)
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return _parse_exactly(text)
    data = text.encode("utf-8", "surrogatepass") if raw is None else raw
    if _long_number(data):
        return _parse_exactly(text)
    # A colon is one byte in UTF-8, and no byte of another character's encoding.
    return value, data.count(b":") != written.count(b":")


def _long_number(data: bytes) -> bool:
    """Whether `data` holds a run of nineteen digits. Most lines hold fewer digits than that in
    all, which one count tells without the translated copy."""
    if len(data) - len(data.translate(None, _DIGIT_BYTES)) < len(_LONG_NUMBER):
        return False
    return _LONG_NUMBER in data.translate(_DIGITS)


def _parse_exactly(text: str) -> tuple[Any, bool]:
    """`parse_text` by the standard library's parser, an object's keys checked as it is built."""
    try:
        try:
            return _UNIQUE.decode(text), False
        except _RepeatedKey:
            return json.loads(text), True
    except json.JSONDecodeError as exc:
        raise LineError(f"not valid JSON ({exc.msg} at column {exc.colno})") from exc
    except RecursionError as exc:
        raise LineError("nested too deeply to inspect") from exc


def dump_line(message: Any) -> bytes:
    """Serialize compactly on one line; escape only when a lone surrogate would break UTF-8."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = None
    # The text goes before the newline is appended: two full copies of a large message at most.
    del text
    if data is None:
        data = json.dumps(message, separators=(",", ":")).encode("ascii")
    return data + b"\n"


def recover_id(raw: bytes) -> Any:
    """Best effort: the id of a line that could not be parsed, or None."""
    match = _ID_PREFIX.search(raw[:4096])
    if not match:
        return None
    try:
        return json.loads(match.group(1))
    except ValueError:
        return None


def error_response(request_id: Any, code: int, message: str, data: Any = None) -> dict:
    """A JSON-RPC error object for `request_id`."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}
