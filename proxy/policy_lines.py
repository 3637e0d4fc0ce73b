"""Where each key of a policy file is written, so a mistake can be named by its line.

Neither `tomllib` nor `json` tells where a key stands. TOML is read again with tomlkit's own
parser, noting where each key it parses starts (tomlkit keeps every key object it parsed in the
document, dotted keys, table headers and inline tables alike). JSON is read with Pygments' JSON
lexer, whose tokens carry their offsets and mark object keys. Only a policy with a problem pays
for either.
"""

import bisect
import json
from typing import Any

from .policy import KeyPath, Problem


def placed(text: str, is_json: bool, problems: list[Problem]) -> list[Problem]:
    """The problems at their keys' lines (or their nearest written parent's), in file order."""
    positions = key_positions(text, is_json)
    found = []
    for problem in problems:
        key = problem.key
        while key and key not in positions:
            key = key[:-1]
        if key in positions:
            line, column = positions[key]
            problem = problem._replace(line=line, column=column)
        found.append(problem)
    return sorted(found, key=lambda problem: (problem.line or 0, problem.column or 0))


def key_positions(text: str, is_json: bool) -> dict[KeyPath, tuple[int, int | None]]:
    """(line, column), both from 1, of each key of the policy text, by its path; the column is
    None for a key that opens its line (`[servers.web]` too), where the line says it all."""
    offsets = _json_offsets(text) if is_json else _toml_offsets(text)
    starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]
    positions: dict[KeyPath, tuple[int, int | None]] = {}
    for path, offset in offsets.items():
        line = bisect.bisect_right(starts, offset)
        before = text[starts[line - 1] : offset]
        positions[path] = (line, len(before) + 1 if before.strip(" \t[") else None)
    return positions


def _toml_offsets(text: str) -> dict[KeyPath, int]:
    from tomlkit.container import Container
    from tomlkit.exceptions import ParseError
    from tomlkit.items import AoT, InlineTable, Key, Table
    from tomlkit.parser import Parser

    class KeyNoting(Parser):
        """tomlkit's parser, noting the offset each key starts at (its spaces skipped)."""

        def __init__(self, source: str) -> None:
            super().__init__(source)
            # By the key object's id, the object kept beside its offset: an id is unique only while
            # its object lives, and a dotted key's parts are made afresh each time they are read.
            self.starts: dict[int, tuple[Key, int]] = {}

        def _parse_key(self) -> Key:
            start = self._idx
            while start < len(text) and text[start] in " \t":
                start += 1
            key = super()._parse_key()
            # A dotted key's parts end up as the keys of the tables it makes: note each of them.
            for part in (key, *key):
                self.starts.setdefault(id(part), (part, start))
            return key

    parser = KeyNoting(text)
    try:
        document = parser.parse()
    except ParseError:
        return {}  # tomllib read it and tomlkit does not: the problems go without a line
    found: dict[KeyPath, int] = {}

    def walk(container: Container, path: KeyPath) -> None:
        for key, item in container.body:
            if key is None:
                continue
            here = (*path, key.key)
            noted = parser.starts.get(id(key))
            if noted is not None and noted[0] is key:
                # A table written in several places is named where it first appears.
                found.setdefault(here, noted[1])
            if isinstance(item, (Table, InlineTable)):
                walk(item.value, here)
            elif isinstance(item, AoT):
                for table in item.body:
                    walk(table.value, here)

    walk(document, ())
    return found


def _json_offsets(text: str) -> dict[KeyPath, int]:
    from pygments.lexers.data import JsonLexer
    from pygments.token import Name, Punctuation

    found: dict[KeyPath, int] = {}
    # The path of each open object, None for an array (whose members' keys are no policy keys).
    open_paths: list[KeyPath | None] = []
    last_key: KeyPath | None = None
    for offset, token, value in JsonLexer().get_tokens_unprocessed(text):
        inside = open_paths[-1] if open_paths else None
        if token in Name.Tag and inside is not None:
            last_key = (*inside, _key_text(value))
            found[last_key] = offset  # json.loads keeps a repeated key's last value: so do we
        elif token in Punctuation:
            # One token may hold several marks (`}],`).
            for char in value:
                if char == "{":
                    open_paths.append(_object_path(open_paths, last_key))
                elif char == "[":
                    open_paths.append(None)
                elif char in "}]" and open_paths:
                    open_paths.pop()
                if char in "{[,":
                    last_key = None
    return found


def _object_path(open_paths: list[KeyPath | None], last_key: KeyPath | None) -> KeyPath | None:
    """The path of an object that opens here: the document, a key's value, or None in an array."""
    if not open_paths:
        return ()
    return last_key if open_paths[-1] is not None else None


def _key_text(token: str) -> str:
    try:
        value: Any = json.loads(token)
    except ValueError:
        return token
    return value if isinstance(value, str) else token
