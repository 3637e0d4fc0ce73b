"""A Codex server table changed key by key, every line it keeps as it was.

tomlkit keeps a parsed document's text, but a key it is given goes after the table's closing blank
lines and comments, which tell of the table that follows, and a sub-table taken out takes those
lines with it. Here a new key goes right after the table's last key, ended as the file ends its
lines, and a sub-table's closing lines stay where they were.
"""

from typing import Any

from tomlkit.items import AoT, Array, Comment, Item, Table, Whitespace

from .toml_arrays import prefixed, unprefixed


def update_table(table, new: dict, prefix: list, wrapping: bool, newline: str) -> None:
    """Make a server's table (or inline table) hold `new`, key by key, so its comments and other
    lines stay where they are; `prefix` is what wrap puts in front of `args` (or unwrap takes
    off), `newline` how the file ends its lines."""
    for key in list(table.keys()):
        if key not in new:
            _delete_key(table, key)
    for key, value in new.items():
        current = table.get(key)
        if key == "args" and prefix and isinstance(current, Array):
            # The array's own text (lines, comments) stays; only the proxy's values come and go.
            arranged = prefixed(current, prefix) if wrapping else unprefixed(current, prefix)
            if arranged is not None:
                table[key] = arranged
                continue
        if key not in table:
            _add_key(table, key, value, newline)
        elif table[key] != value:
            table[key] = value


def _delete_key(table, key: str) -> None:
    """Take a key out; a sub-table's closing blank lines and comments (they tell of what follows
    it) stay, at the end of the table."""
    item = table.value.item(key) if isinstance(table, Table) else None
    closing = []
    if isinstance(item, Table):
        body = item.value.body
        while body and body[-1][0] is None and isinstance(body[-1][1], (Whitespace, Comment)):
            closing.insert(0, body.pop()[1])
    del table[key]
    for trivia in closing:
        table.value.append(None, trivia)


def _add_key(table, key: str, value: Any, newline: str) -> None:
    """A key the table lacked, on a line of its own right after the table's last key: the blank
    lines and comments that end a table tell of what follows it, and stay before that."""
    if not isinstance(table, Table):
        table[key] = value  # an inline table: all on its line
        return
    container = table.value
    body = container.body
    place = 0
    for index, (name, item) in enumerate(body):
        if name is not None and (not isinstance(item, (Table, AoT)) or name.is_dotted()):
            place = index + 1
    if place < len(body):
        # tomlkit has no public insert; this one has been there since its early releases.
        container._insert_at(place, key, value)
    else:
        container.append(key, value)
    added = container.item(key)
    if isinstance(added, Item):
        added.trivia.trail = newline
