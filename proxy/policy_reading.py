"""Reading decoded policy data into a Policy, noting every mistake with what to do about it.

Nothing stops at the first problem: `parse_policy` names them all, each at its line.
"""

import json
import math
import re
from pathlib import Path
from typing import Any

from .gate.hosts import HostAllowList
from .policy import (
    DEFAULT_APPROVAL_TTL_MINUTES,
    DEFAULT_MAX_LINE_BYTES,
    DEFAULT_STORE_BUSY_TIMEOUT_SECONDS,
    SERVER_KEYS,
    TABLE_KEYS,
    TOP_KEYS,
    KeyPath,
    Policy,
    Problem,
    ServerPolicy,
    Trust,
    dotted,
)

# A program's name as found on PATH, alone or with one subcommand: no path, no pattern.
_PROGRAM_ENTRY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+-]*(?: [A-Za-z0-9_][A-Za-z0-9_.:+-]*)?")


def read_policy(data: Any, source: Path | None) -> tuple[Policy, list[Problem]]:
    """The policy `data` says, and every problem found in it (the policy is unusable with any)."""
    reader = _Reader(source)
    policy = reader.policy(data)
    return policy, reader.problems


def _shown(value: Any) -> str:
    """A value as the message names it: short, and with nothing a terminal would obey."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = json.dumps(value)
        return text if len(text) <= 60 else text[:57] + '..."'
    if isinstance(value, (int, float)):
        return str(value)
    if value is None:
        return "null"
    return {list: "a list", dict: "a table"}.get(type(value), f"a {type(value).__name__}")


def _known_keys(path: KeyPath) -> frozenset[str]:
    if not path:
        return TOP_KEYS
    if path[0] == "servers":
        return SERVER_KEYS
    return TABLE_KEYS[path[0]]


def _table_name(path: KeyPath) -> str:
    if not path:
        return "the top level"
    return "`[servers.NAME]`" if path[0] == "servers" else f"`[{path[0]}]`"


def _home_of(key: str, path: KeyPath) -> str | None:
    """The table a key of another table belongs in, when it was written in the wrong one."""
    homes = [
        ("the top level", TOP_KEYS - {"servers", *TABLE_KEYS}),
        ("`[servers.NAME]`", SERVER_KEYS),
    ]
    homes += [(f"`[{table}]`", keys) for table, keys in TABLE_KEYS.items()]
    here = _table_name(path)
    return next((name for name, keys in homes if key in keys and name != here), None)


def unknown_key_message(path: KeyPath, key: str, value: Any) -> str:
    """What is wrong with a key the policy does not define, and what to do: the key it looks
    like, or the table it belongs in."""
    known = _known_keys(path)
    where = f"in `{dotted(path)}`" if path else "at the top level"
    shown = dotted((key,))
    head = f"unknown key `{shown}` {where}"
    if not path and isinstance(value, dict) and set(value) & SERVER_KEYS:
        return f"{head}: a server's entry goes under servers; did you mean `[servers.{shown}]`?"
    home = _home_of(key, path)
    if home:
        return f"{head}: `{shown}` belongs in {home}; move it there"
    close = _close_matches(key, sorted(known)) or [
        name for name in sorted(known) if name.lower() == key.lower().replace("-", "_")
    ]
    if close:
        return f"{head}: did you mean `{close[0]}`? Rename it, or remove it"
    keys = ", ".join(f"`{name}`" for name in sorted(known))
    return f"{head}: remove it ({_table_name(path)} takes {keys})"


class _Reader:
    """Reads decoded policy data into a Policy, noting every problem rather than stopping at one."""

    def __init__(self, source: Path | None) -> None:
        self.source = source
        self.problems: list[Problem] = []

    def problem(self, key: KeyPath, message: str) -> None:
        self.problems.append(Problem(key, message))

    def policy(self, data: Any) -> Policy:
        if not isinstance(data, dict):
            self.problem((), "the top level must be a table (an object in JSON)")
            return Policy(source=self.source)
        data = self.known(data, ())
        servers = self.table(data, "servers")
        detect = self.table(data, "detect")
        taint = self.table(data, "taint")
        approval = self.table(data, "approval")
        proxy = self.table(data, "proxy")
        return Policy(
            source=self.source,
            read_from_source=self.source is not None,
            allow_hosts=self.hosts(data.get("allow_hosts", [])),
            servers={name: self.server(name, entry) for name, entry in servers.items()},
            threshold=self.number(detect, ("detect", "threshold")),
            label=self.flag(data, ("label",), False),
            idle_expiry_minutes=self.number(taint, ("taint", "idle_expiry_minutes")),
            read_only_programs=self.programs(taint, ("taint", "read_only_programs")),
            approval_ttl_minutes=self.number(approval, ("approval", "ttl_minutes"))
            or DEFAULT_APPROVAL_TTL_MINUTES,
            request_timeout_seconds=self.number(proxy, ("proxy", "request_timeout_seconds")),
            store_busy_timeout_seconds=self.number(proxy, ("proxy", "store_busy_timeout_seconds"))
            or DEFAULT_STORE_BUSY_TIMEOUT_SECONDS,
            max_line_bytes=int(
                self.number(proxy, ("proxy", "max_line_bytes")) or DEFAULT_MAX_LINE_BYTES
            ),
        )

    def known(self, table: dict, path: KeyPath) -> dict:
        """The table's known keys; each other one is a problem."""
        keys = _known_keys(path)
        for key in table.keys() - keys:
            self.problem((*path, key), unknown_key_message(path, key, table[key]))
        return {key: value for key, value in table.items() if key in keys}

    def table(self, data: dict, key: str) -> dict:
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.problem(
                (key,),
                f"`{key}` must be a table (`[{key}]` with its keys on the lines below), "
                f"not {_shown(value)}",
            )
            return {}
        return value if key == "servers" else self.known(value, (key,))

    def server(self, name: str, entry: Any) -> ServerPolicy:
        path = ("servers", name)
        if not isinstance(entry, dict):
            if name in SERVER_KEYS:
                self.problem(
                    path,
                    f"`{name}` belongs in one server's entry: write `[servers.NAME]`, with the "
                    f"server's name, above `{name} = ...`",
                )
            else:
                self.problem(
                    path,
                    f"`{dotted(path)}` must be a table of the server's keys (`[{dotted(path)}]` "
                    f"then `trust = ...`), not {_shown(entry)}",
                )
            return ServerPolicy(name, has_entry=True)
        entry = self.known(entry, path)
        return ServerPolicy(
            name=name,
            has_entry=True,
            trust=self.trust(entry, (*path, "trust")),
            untrusted=frozenset(self.strings(entry, (*path, "untrusted"))),
            outbound=frozenset(self.strings(entry, (*path, "outbound"))),
            not_outbound=frozenset(self.strings(entry, (*path, "not_outbound"))),
            label=self.flag(entry, (*path, "label"), None),
            lock=self.lock(entry, (*path, "lock")),
        )

    def trust(self, entry: dict, key: KeyPath) -> Trust | None:
        value = entry.get("trust")
        if value is None or value in list(Trust):
            return None if value is None else Trust(value)
        words = [str(trust) for trust in Trust]
        close = _close_matches(value.lower(), words) if isinstance(value, str) else []
        hint = f'; did you mean "{close[0]}"?' if close else ": write one of the two"
        self.problem(
            key, f'`{dotted(key)}` must be "trusted" or "untrusted", not {_shown(value)}{hint}'
        )
        return None

    def strings(self, entry: dict, key: KeyPath) -> list[str]:
        value = entry.get(key[-1], [])
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return value
        example = f'{key[-1]} = ["{value}"]' if isinstance(value, str) else f'{key[-1]} = ["name"]'
        self.problem(
            key, f"`{dotted(key)}` must be a list of strings, like `{example}`, not {_shown(value)}"
        )
        return []

    def programs(self, table: dict, key: KeyPath) -> frozenset[str]:
        names = self.strings(table, key)
        for name in names:
            if not _PROGRAM_ENTRY.fullmatch(name):
                self.problem(
                    key,
                    f"the `{dotted(key)}` entry {_shown(name)} is not a program: write its name as "
                    'found on PATH (`"sed"`), or a program and one subcommand (`"git stash"`)',
                )
        # Programs are compared by their lower-cased name, as the hooks read `/usr/bin/Sed.exe`.
        return frozenset(
            " ".join([*(w.lower() for w in n.split()[:1]), *n.split()[1:]]) for n in names
        )

    def hosts(self, value: Any) -> tuple[str, ...]:
        names = self.strings({"allow_hosts": value}, ("allow_hosts",))
        for name in names:
            try:
                HostAllowList([name])
            except ValueError:
                self.problem(
                    ("allow_hosts",),
                    f"the `allow_hosts` entry {_shown(name)} is not a host pattern: write a host "
                    "(`github.com`), `*.github.com` for its subdomains, or `.github.com` for both",
                )
        return tuple(names)

    def number(self, table: dict, key: KeyPath) -> float | None:
        # A JSON null is the key left out, as TOML can only leave it out.
        value = table.get(key[-1])
        if value is None:
            return None
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if number and math.isfinite(value) and value > 0:
            return float(value)
        self.problem(
            key,
            f"`{dotted(key)}` must be a number above 0, not {_shown(value)}: write one, or remove "
            "the key for the default",
        )
        return None

    def flag(self, table: dict, key: KeyPath, default: bool | None) -> Any:
        value = table.get(key[-1], default)
        if value is default or isinstance(value, bool):
            return value
        self.problem(
            key,
            f"`{dotted(key)}` must be true or false, not {_shown(value)}: write one, or remove"
            " the key for the default",
        )
        return default

    def lock(self, entry: dict, key: KeyPath) -> Path | None:
        value = entry.get("lock")
        if value is None:
            return None
        if not isinstance(value, str):
            self.problem(
                key,
                f"`{dotted(key)}` must be the path of a pin lock file, as a string, not "
                f"{_shown(value)}: quote the path, or remove the key",
            )
            return None
        path = Path(value).expanduser()
        # A relative lock path is read beside the policy file, not from wherever the client runs us.
        if not path.is_absolute() and self.source is not None:
            path = self.source.parent / path
        return path


def _close_matches(word: str, words: list[str]) -> list[str]:
    """The one of `words` closest to `word`, if any is close (difflib's ratio of 0.6 or more)."""
    # Imported by the first mistake: a policy without one, as at most starts, needs no difflib.
    import difflib

    return difflib.get_close_matches(word, words, n=1, cutoff=0.6)
