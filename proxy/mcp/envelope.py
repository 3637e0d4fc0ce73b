"""What a JSON-RPC message is, decided once, the way the clients decide it.

Both directions ask this module the same two questions: which of the four kinds a message is
(request, notification, result, error) and which request a response answers. The answers follow
what the official SDK clients accept rather than the letter of JSON-RPC, because a message the
proxy reads one way and a client another is a message that was never judged:

- anything that carries `result` or `error` is a response, whatever else it carries (a client
  takes `{"id": 3, "method": 5, "result": ...}` as the answer to request 3);
- an id is matched by the number it spells where either client reads one: `"3"`, `" 3"`, `3.0`,
  `"0x3"`, `"3e0"` all answer request 3 (the TypeScript SDK compares `Number(id)`, the Python SDK
  `int(id)`);
- the message the proxy forwards keeps only the envelope's keys, so no client can read a key the
  proxy did not judge as something else (a response's stray `method`, a request's `result`).
"""

import math
import re
from enum import StrEnum
from typing import Any, NamedTuple


class Kind(StrEnum):
    """The four JSON-RPC message kinds, and the shape that is none of them."""

    REQUEST = "request"
    NOTIFICATION = "notification"
    RESULT = "result"
    ERROR = "error"
    INVALID = "invalid"


# The keys each kind may carry on the way out; any other top-level key is dropped.
ENVELOPE: dict[Kind, frozenset[str]] = {
    Kind.REQUEST: frozenset({"jsonrpc", "id", "method", "params"}),
    Kind.NOTIFICATION: frozenset({"jsonrpc", "method", "params"}),
    Kind.RESULT: frozenset({"jsonrpc", "id", "result"}),
    Kind.ERROR: frozenset({"jsonrpc", "id", "error"}),
}


class Shape(NamedTuple):
    """A message's kind; for INVALID, why it is none of the four."""

    kind: Kind
    problem: str = ""

    @property
    def is_response(self) -> bool:
        """A result or an error: it answers a request."""
        return self.kind in _RESPONSES


# Read as a set, not as two attributes of Kind: Python 3.11 reads an Enum class's attribute
# through its metaclass's `__getattr__` hook, and every message asks.
_RESPONSES = frozenset({Kind.RESULT, Kind.ERROR})
_NOT_OBJECT = Shape(Kind.INVALID, "it is not a JSON object")
# The four valid shapes, made once: every message of both directions is one of them.
_REQUEST, _NOTIFICATION = Shape(Kind.REQUEST), Shape(Kind.NOTIFICATION)
_RESULT, _ERROR = Shape(Kind.RESULT), Shape(Kind.ERROR)


def shape_of(message: Any) -> Shape:
    """Classify one message (an element of a batch counts as one)."""
    if not isinstance(message, dict):
        return _NOT_OBJECT
    has_result, has_error = "result" in message, "error" in message
    if has_result or has_error:
        if "id" not in message:
            return Shape(Kind.INVALID, "it is a response without an id")
        if request_key(message["id"]) is None:
            return Shape(Kind.INVALID, "its id is neither a string nor an integer")
        if has_result and has_error:
            return Shape(Kind.INVALID, "it carries both a result and an error")
        if has_result:
            if not isinstance(message["result"], dict):
                return Shape(Kind.INVALID, "its result is not an object")
            return _RESULT
        return _ERROR if _valid_error(message["error"]) else _BAD_ERROR
    if "method" not in message:
        return Shape(Kind.INVALID, "it is neither a request, a notification nor a response")
    if not isinstance(message["method"], str):
        return Shape(Kind.INVALID, "its method is not a string")
    if "params" in message and not isinstance(message["params"], dict):
        return Shape(Kind.INVALID, "its params are not an object")
    if "id" not in message:
        return _NOTIFICATION
    if request_key(message["id"]) is None:
        return Shape(Kind.INVALID, "its id is neither a string nor an integer")
    return _REQUEST


_BAD_ERROR = Shape(Kind.INVALID, "its error is not an object with an integer code and a message")


def _valid_error(error: Any) -> bool:
    return (
        isinstance(error, dict)
        and isinstance(error.get("code"), int)
        and not isinstance(error.get("code"), bool)
        and isinstance(error.get("message"), str)
    )


def has_extra_keys(message: dict, kind: Kind) -> bool:
    """Whether the message carries a top-level key outside its kind's envelope."""
    return not ENVELOPE[kind].issuperset(message)


def enveloped(message: dict, kind: Kind) -> dict:
    """The message with only its kind's envelope keys (the same object when nothing is extra)."""
    allowed = ENVELOPE[kind]
    if allowed.issuperset(message):
        return message
    return {key: value for key, value in message.items() if key in allowed}


# --- ids -------------------------------------------------------------------------------------

# JavaScript's StringToNumber trims these before it reads a number.
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_JS_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_JS_PREFIXED = re.compile(r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+", re.ASCII)
# Longer strings spell no id a client sends; reading them as numbers would only cost time.
_LONGEST_NUMERIC = 400


def request_key(request_id: Any) -> int | str | None:
    """The key a request is tracked under: the integer an id spells, else the string itself;
    None for an id no client accepts (null, booleans, objects, fractions)."""
    if isinstance(request_id, bool):
        return None
    if isinstance(request_id, int):
        return request_id
    if isinstance(request_id, float):
        return int(request_id) if math.isfinite(request_id) and request_id.is_integer() else None
    if isinstance(request_id, str):
        numbers = _numbers_spelled(request_id)
        return numbers[0] if numbers else request_id
    return None


def response_keys(response_id: Any) -> list[int | str]:
    """Every key under which some client would match this response id, most exact first."""
    key = request_key(response_id)
    if key is None:
        return []
    keys: list[int | str] = [key]
    extra: list[int | None] = []
    if isinstance(response_id, str):
        extra.extend(_numbers_spelled(response_id))
    if isinstance(key, int):
        extra.append(_as_js(key))
    for candidate in extra:
        if candidate is not None and candidate not in keys:
            keys.append(candidate)
    return keys


def _numbers_spelled(text: str) -> list[int]:
    """The integers `text` spells for Python's int() and for JavaScript's Number(), if any."""
    if len(text) > _LONGEST_NUMERIC:
        return []
    found = []
    try:
        found.append(int(text))
    except ValueError:
        pass
    js = _js_integer(text)
    if js is not None and js not in found:
        found.append(js)
    return found


def _js_integer(text: str) -> int | None:
    """Number(text) in JavaScript, when it is a finite integer (as the double it would be)."""
    body = text.strip(_JS_SPACE)
    if not body:
        return 0  # Number("") is 0
    if _JS_PREFIXED.fullmatch(body):
        return _as_js(int(body, 0))
    if not _JS_DECIMAL.fullmatch(body):
        return None
    value = float(body)
    return int(value) if math.isfinite(value) and value.is_integer() else None


def _as_js(value: int) -> int | None:
    """An integer as a JavaScript number holds it (rounded to a double), None past its range."""
    try:
        return int(float(value))
    except OverflowError:
        return None
