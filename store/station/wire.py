"""The bytes on the station's socket: one JSON object per line, every non-ASCII character escaped.

Light on purpose: a hook that only forwards its event imports this and nothing else of the store.
"""

import json

VERSION = 1
"""The protocol's version: a station answers only requests of its own version."""

MAX_LINE = 256 * 1024 * 1024
"""The longest line either side reads: above the proxy's largest message, with room for escapes."""


def encode(message: dict) -> bytes:
    """One line of the wire format (ASCII, so any text, lone surrogates too, crosses as it was)."""
    return json.dumps(message, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


def decode(line: bytes):
    """The JSON value of one line (ValueError if it is not JSON)."""
    return json.loads(line)


def version_of(raw: bytes) -> int | None:
    """The store version a station published (16 bytes: its start's random epoch, then a counter)."""
    return int.from_bytes(raw, "big") if len(raw) == 16 else None
