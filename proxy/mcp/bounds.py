"""What parsing a JSON text will cost, estimated before it is parsed, so a crafted one is refused.

Python's json builds an object for every value it reads: a line of short strings, numbers or
empty objects takes ten to twenty times its size once parsed (twelve million short strings in
60 MiB took 4 GB). Counting the separators and brackets costs a few C-speed passes over the
bytes and bounds the number of values from above. Only where that bound is over the budget are
the values outside strings counted one by one (a regular expression, linear, in constant
memory), so a long text full of commas (a CSV file, prose) is not mistaken for a million values.
A text whose values would not fit the budget is withheld unparsed (a message) or read as plain
text (JSON inside a text).
"""

import re

# What json spends per value it parses: an object header and a slot in its container (measured
# for strings, integers, floats, objects and arrays; interned keys and small numbers cost less).
_BYTES_PER_VALUE = 48
# Every line may cost this much beyond its multiple of its own size: below it a line is cheap
# whatever its shape, so ordinary messages are never estimated at all.
ALLOWANCE = 16 * 1024 * 1024
# Parsed values may take this many times the text they came from.
PARSED_PER_BYTE = 3


# A JSON string, or a separator outside strings: each match is at most one value json builds.
# The quantifiers are possessive: the engine keeps no backtracking state for each escape, so a
# string of a million escapes is matched in constant memory.
_TOKEN = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"|[,:\[{]', re.DOTALL)
_TOKEN_BYTES = re.compile(rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"|[,:\[{]', re.DOTALL)
_ALL_BUT_SEPARATORS = bytes(byte for byte in range(256) if byte not in b",:[{")


def parse_cost(data: bytes | str) -> int:
    """An upper estimate of the bytes json allocates to parse `data` (values and their text),
    counting separators anywhere, inside strings too."""
    if isinstance(data, bytes):
        # One pass that keeps only the four separators, where four counts would make four.
        values = len(data.translate(None, _ALL_BUT_SEPARATORS))
    else:
        values = data.count(",") + data.count(":") + data.count("[") + data.count("{")
    return len(data) + _BYTES_PER_VALUE * (values + 1)


def affordable(data: bytes | str) -> bool:
    """Whether parsing `data` stays within PARSED_PER_BYTE times its size plus the allowance."""
    if len(data) * _BYTES_PER_VALUE < ALLOWANCE:
        return True  # even a text of nothing but separators fits
    budget = PARSED_PER_BYTE * len(data) + ALLOWANCE
    if parse_cost(data) <= budget:
        return True
    # Count the values outside strings, one token at a time (nothing is copied), and stop as
    # soon as there are more than the budget allows.
    allowed = (budget - len(data)) // _BYTES_PER_VALUE
    tokens = _TOKEN_BYTES.finditer(data) if isinstance(data, bytes) else _TOKEN.finditer(data)
    return sum(1 for _ in zip(range(allowed + 1), tokens, strict=False)) <= allowed
