"""The parse-cost estimate: the same for a JSON text's bytes and its characters, and an upper bound."""

import json

from hypothesis import given
from hypothesis import strategies as st

from lazaretto.proxy.mcp.bounds import _BYTES_PER_VALUE, parse_cost

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(_JSON, st.booleans())
def test_bytes_and_characters_are_estimated_alike_and_bound_the_values(value, ascii_only):
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert parse_cost(text.encode()) - len(text.encode()) == parse_cost(text) - len(text)
    # Every value but the first follows a separator or an opening bracket, counted inside strings too.
    values = sum(1 for _ in _values(value))
    assert parse_cost(text.encode()) >= len(text.encode()) + _BYTES_PER_VALUE * values


def _values(value):
    yield value
    if isinstance(value, list):
        for item in value:
            yield from _values(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _values(item)
