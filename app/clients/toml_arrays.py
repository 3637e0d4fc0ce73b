"""Put values in front of a TOML array and take them off again, keeping the array's text byte for byte.

`wrap` puts `proxy -n NAME -- COMMAND` in front of a Codex server's `args`; `unwrap` must give back
the array as the person wrote it, over several lines, with its comments. tomlkit keeps a parsed
array's text, but inserting and deleting items reflows the whitespace around them, so the values
are put in as text right after the opening bracket (and its whitespace), and taken off as the same
text. tomlkit parses every array that results, so nothing that is not TOML is ever written.
"""

import tomlkit
from tomlkit.items import Array

_WHITESPACE = " \t\r\n"


def _split(text: str) -> tuple[str, str]:
    """`[` and the whitespace after it, and the rest of the array's text."""
    index = 1
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return text[:index], text[index:]


def _values_text(values: list[str]) -> str:
    return ", ".join(tomlkit.item(value).as_string() for value in values)


def _parsed(text: str) -> Array:
    value = tomlkit.parse(f"x = {text}")["x"]
    assert isinstance(value, Array)
    return value


def prefixed(array: Array, values: list[str]) -> Array:
    """The array with `values` in front, its own text after them unchanged."""
    head, rest = _split(array.as_string())
    separator = ", " if len(array) else ""
    return _parsed(head + _values_text(values) + separator + rest)


def unprefixed(array: Array, values: list[str]) -> Array | None:
    """The array as it was before `prefixed(array, values)`; None when its text is not that."""
    head, rest = _split(array.as_string())
    put = _values_text(values)
    if list(array)[: len(values)] != values:
        return None
    for separator in (", ", ""):
        if rest.startswith(put + separator):
            candidate = _parsed(head + rest[len(put + separator) :])
            # Without a separator the array held nothing else; with one, it held the rest.
            if list(candidate) == list(array)[len(values) :] and bool(separator) == bool(
                len(candidate)
            ):
                return candidate
    return None
