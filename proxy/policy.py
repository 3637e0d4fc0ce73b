"""The policy file: Lazaretto's TOML, or mcp-gate's JSON read as is.

A policy cannot be silently wrong: a key it does not define, a value of the wrong kind and a
syntax error are all errors, each named with its file, line and key and what to do about it.
"""

import json
import os
import re
import tomllib
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any, NamedTuple

POLICY_ENV = "LAZARETTO_POLICY"
POLICY_FILE = "lazaretto.toml"
"""The policy's name in the user's config directory."""
# Every key a policy may hold. parse_policy reads only the keys listed here (any other is an
# error naming its line), and a test checks each is in the docs' policy reference: a key cannot be
# added without both.
TABLE_KEYS: dict[str, frozenset[str]] = {
    "detect": frozenset({"threshold"}),
    "taint": frozenset({"idle_expiry_minutes", "read_only_programs"}),
    "approval": frozenset({"ttl_minutes"}),
    "proxy": frozenset({"max_line_bytes", "request_timeout_seconds", "store_busy_timeout_seconds"}),
}
"""The keys of each table below the top level, by table (`[servers.NAME]` apart)."""
SERVER_KEYS = frozenset({"trust", "untrusted", "outbound", "not_outbound", "label", "lock"})
"""The keys of one `[servers.NAME]` entry."""
TOP_KEYS = frozenset({"allow_hosts", "servers", "label", *TABLE_KEYS})
"""The keys of the policy's top level."""

KeyPath = tuple[str, ...]
"""A key by its place: `("servers", "slack", "outbound")`; `()` is the file as a whole."""

DEFAULT_APPROVAL_TTL_MINUTES = 15.0
DEFAULT_STORE_BUSY_TIMEOUT_SECONDS = 5.0
DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024


class Trust(StrEnum):
    """`servers.NAME.trust`: whether every result of the server is exposure."""

    TRUSTED = "trusted"
    UNTRUSTED = "untrusted"


class Problem(NamedTuple):
    """One mistake in a policy: the key it is at, what is wrong and what to do, and where the key
    is written (found only once there is a problem to name)."""

    key: KeyPath
    message: str
    line: int | None = None
    column: int | None = None

    def place(self) -> str:
        """`line 4`, `line 1, column 40`, or `` for a problem of the file as a whole."""
        if self.line is None:
            return ""
        column = f", column {self.column}" if self.column else ""
        return f"line {self.line}{column}"

    def as_json(self) -> dict:
        """The problem for a JSON consumer (`lazaretto proxy`'s error data)."""
        return {
            "key": dotted(self.key),
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }


class PolicyError(ValueError):
    """A policy that cannot be used: each problem with its line, and what to do about it."""

    def __init__(self, source: Path | None, problems: list[Problem], *, checked: bool = True):
        self.source = source
        self.problems = problems
        self.checked = checked
        """The file was read and judged (False: it could not be read at all)."""
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        """One line per problem, `FILE, line N: what is wrong; what to do`, then how to check."""
        name = str(self.source) if self.source else "the policy"
        out = [
            f"{name}{', ' + problem.place() if problem.place() else ''}: {problem.message}"
            for problem in self.problems
        ]
        if self.checked:
            target = f" {self.source}" if self.source else ""
            out.append(f"Fix it, then check it again with: lazaretto policy check{target}")
        return out


class ServerPolicy(NamedTuple):
    """One `[servers.NAME]` entry; `has_entry` is False for a server the policy does not name."""

    name: str
    has_entry: bool = False
    trust: Trust | None = None
    untrusted: frozenset[str] = frozenset()
    outbound: frozenset[str] = frozenset()
    not_outbound: frozenset[str] = frozenset()
    label: bool | None = None
    lock: Path | None = None  # a pin lock file enforced instead of trust on first use


class Policy(NamedTuple):
    """Everything the proxy, the hooks and `scan` read from the policy."""

    source: Path | None = None
    """The file the policy was read from; with none there, the file it would be read from. None
    for a policy given as text."""
    read_from_source: bool = False
    """Whether `source` was there and read (False: no policy file yet, an empty policy)."""
    allow_hosts: tuple[str, ...] = ()
    # Read-only by its type (a Mapping), so the one empty table every Policy() starts with is
    # shared safely; a plain dict, so that a policy still pickles and copies.
    servers: Mapping[str, ServerPolicy] = {}
    threshold: float | None = None  # None: the detector's own default
    label: bool = False
    idle_expiry_minutes: float | None = None
    read_only_programs: frozenset[str] = frozenset()
    """Programs (`sed`) or a program's subcommands (`git stash`) a tainted session's shell may run
    besides those the hooks know to only read locally."""
    approval_ttl_minutes: float = DEFAULT_APPROVAL_TTL_MINUTES
    request_timeout_seconds: float | None = None
    # How long a write waits for another writer's lock.
    store_busy_timeout_seconds: float = DEFAULT_STORE_BUSY_TIMEOUT_SECONDS
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES

    def server(self, name: str) -> ServerPolicy:
        """The entry for `name`, or an empty one (which classifies as untrusted)."""
        return self.servers.get(name) or ServerPolicy(name)

    def labels(self, server: str) -> bool:
        """Whether untrusted text from `server` is wrapped in provenance tags."""
        entry = self.server(server).label
        return self.label if entry is None else entry


def default_policy_path() -> Path:
    """`lazaretto.toml` in the user's config directory."""
    from platformdirs import user_config_path

    return user_config_path("lazaretto", appauthor=False) / POLICY_FILE


def policy_path(explicit: str | os.PathLike | None = None) -> tuple[Path, bool]:
    """The file `load_policy` reads, and whether it was named (flag or environment) rather than
    the default."""
    chosen = explicit or os.environ.get(POLICY_ENV)
    return (Path(chosen).expanduser(), True) if chosen else (default_policy_path(), False)


def load_policy(explicit: str | os.PathLike | None = None) -> Policy:
    """Read `-p PATH`, else `LAZARETTO_POLICY`, else the user's config file; none at all is an empty policy.

    A path given explicitly (flag or environment) must exist; the default may be absent.
    """
    path, named = policy_path(explicit)
    if not path.exists():
        if named:
            raise missing_policy(path)
        return Policy(source=path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise unreadable_policy(path, exc) from exc
    return parse_policy(text, source=path)


def missing_policy(path: Path) -> PolicyError:
    """A policy named by flag or environment that is not there."""
    return PolicyError(
        path,
        [
            Problem(
                (),
                "policy file not found: write one (lazaretto policy init -o FILE), or point -p or "
                f"{POLICY_ENV} at the file you meant",
            )
        ],
        checked=False,
    )


def unreadable_policy(path: Path, exc: Exception) -> PolicyError:
    """A policy file that exists but cannot be read as UTF-8 text."""
    return PolicyError(
        path,
        [Problem((), f"cannot read the policy ({exc}): make it a readable UTF-8 text file")],
        checked=False,
    )


def is_json_policy(text: str, source: Path | None) -> bool:
    """mcp-gate's JSON: a `.json` file, or text that starts with `{`."""
    return (source is not None and source.suffix == ".json") or text.lstrip().startswith("{")


def parse_policy(text: str, *, source: Path | None = None) -> Policy:
    """Parse TOML, or JSON when the file is `.json` or starts with `{` (mcp-gate's format).

    Every problem is collected before one PolicyError names them all, each at its line.
    """
    # Imported here: the reader uses this module's types.
    from .policy_reading import read_policy

    is_json = is_json_policy(text, source)
    policy, problems = read_policy(_decode(text, is_json, source), source)
    if problems:
        # Imported here: finding a key's line reads the text again, which only a mistake needs.
        from .policy_lines import placed

        raise PolicyError(source, placed(text, is_json, problems))
    return policy


_TOML_PLACE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def _decode(text: str, is_json: bool, source: Path | None) -> Any:
    """The file's data, or a PolicyError naming the syntax error's line and column."""
    try:
        return json.loads(text) if is_json else tomllib.loads(text)
    except json.JSONDecodeError as exc:
        problem = Problem(
            (), f"not valid JSON: {exc.msg}; fix the syntax there", exc.lineno, exc.colno
        )
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        place = _TOML_PLACE.search(message)
        line, column = (int(place[1]), int(place[2])) if place else (None, None)
        reason = message[: place.start()] if place else message
        problem = Problem((), f"not valid TOML: {reason}; fix the syntax there", line, column)
    raise PolicyError(source, [problem])


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def dotted(key: KeyPath) -> str:
    """`servers.slack.outbound`, quoting a part that is no bare TOML key (`servers."my.server"`)."""
    return ".".join(part if _BARE_KEY.fullmatch(part) else json.dumps(part) for part in key)
