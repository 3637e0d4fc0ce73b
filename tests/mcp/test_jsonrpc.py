"""Parsing a line: the value json reads, and whether an object repeated a key, told exactly."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from lazaretto.proxy.mcp.jsonrpc import _MANY_OBJECTS, _parse_exactly, parse_text

# Keys few enough to repeat often, colons and escapes where a count of colons could be fooled.
KEYS = st.sampled_from(["a", "b", ":", "a:", "\\", '"', "é", "\u003a"])
STRINGS = st.text(alphabet=st.sampled_from('ab:"\\{}[],é\u2028\x00'), max_size=8)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True), STRINGS
)


def _objects(children):
    """Objects written as lists of members, so a key may come twice."""
    return st.lists(st.tuples(KEYS, children), max_size=4).map(
        lambda members: "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in members) + "}"
    )


def _arrays(children):
    return st.lists(children, max_size=4).map(lambda items: "[" + ",".join(items) + "]")


JSON_TEXT = st.recursive(
    SCALARS.map(json.dumps), lambda children: _objects(children) | _arrays(children), max_leaves=12
)


def _among_many(text: str) -> str:
    """The text as the last item of an array of objects enough for orjson to read it."""
    return "[" + "{}," * _MANY_OBJECTS + text + "]"


@settings(max_examples=600, deadline=None)
@given(JSON_TEXT, st.sampled_from(["", " ", "\n"]), st.booleans())
def test_the_fast_reading_is_the_exact_one(text, space, many):
    text = text.replace(":", space + ":" + space) if space and '"' not in text else text
    text = _among_many(text) if many else text
    value, repeated = parse_text(text)
    exact, exact_repeated = _parse_exactly(text)
    assert repeated == exact_repeated
    assert json.dumps(value, sort_keys=True) == json.dumps(exact, sort_keys=True)


def test_a_repeated_key_is_told_however_its_colons_are_written():
    empty = [{}] * _MANY_OBJECTS
    for text, value, repeated in [
        ('{"a":"x:y","a":1}', {"a": 1}, True),
        ('{"a":"\\u003a","b":1}', {"a": ":", "b": 1}, False),
        ('{"a":"\\u003A","a":1}', {"a": 1}, True),
        ('{"a\\":":{"b":1,"b":2}}', {'a":': {"b": 2}}, True),
        ('{"n":18446744073709551616,"m":1}', {"n": 2**64, "m": 1}, False),
        ('{"s":"\\ud800","s":1}', {"s": 1}, True),
    ]:
        assert parse_text(text) == (value, repeated)
        assert parse_text(_among_many(text)) == ([*empty, value], repeated)
