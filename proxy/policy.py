"""The policy file: Lazaretto's TOML, or mcp-gate's JSON read as is."""

import json
import os
import sys
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from .gate.hosts import HostAllowList

POLICY_ENV = "LAZARETTO_POLICY"
POLICY_FILE = "lazaretto.toml"
"""The policy's name in the user's config directory."""
# Every key a policy may hold. parse_policy reads only the keys listed here (any other is named on
# stderr and ignored), and a test checks each is in the docs' policy reference: a key cannot be
# added without both.
TABLE_KEYS: dict[str, frozenset[str]] = {
    "detect": frozenset({"threshold"}),
    "taint": frozenset({"idle_expiry_minutes"}),
    "approval": frozenset({"ttl_minutes"}),
    "proxy": frozenset({"max_line_bytes", "request_timeout_seconds", "store_busy_timeout_seconds"}),
}
"""The keys of each table below the top level, by table (`[servers.NAME]` apart)."""
SERVER_KEYS = frozenset({"trust", "untrusted", "outbound", "not_outbound", "label", "lock"})
"""The keys of one `[servers.NAME]` entry."""
TOP_KEYS = frozenset({"allow_hosts", "servers", "label", *TABLE_KEYS})
"""The keys of the policy's top level."""


class Trust(StrEnum):
    """`servers.NAME.trust`: whether every result of the server is exposure."""

    TRUSTED = "trusted"
    UNTRUSTED = "untrusted"


class PolicyError(ValueError):
    """A policy file that cannot be read or does not have the documented shape."""


@dataclass(frozen=True)
class ServerPolicy:
    """One `[servers.NAME]` entry; `has_entry` is False for a server the policy does not name."""

    name: str
    has_entry: bool = False
    trust: Trust | None = None
    untrusted: frozenset[str] = frozenset()
    outbound: frozenset[str] = frozenset()
    not_outbound: frozenset[str] = frozenset()
    label: bool | None = None
    lock: Path | None = None  # a pin lock file enforced instead of trust on first use


@dataclass(frozen=True)
class Policy:
    """Everything the proxy, the hooks and `scan` read from the policy."""

    source: Path | None = None
    allow_hosts: tuple[str, ...] = ()
    servers: dict[str, ServerPolicy] = field(default_factory=dict)
    threshold: float | None = None  # None: the detector's own default
    label: bool = False
    idle_expiry_minutes: float | None = None
    approval_ttl_minutes: float = 15.0
    request_timeout_seconds: float | None = None
    store_busy_timeout_seconds: float = 5.0  # how long a write waits for another writer's lock
    max_line_bytes: int = 64 * 1024 * 1024

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


def load_policy(explicit: str | os.PathLike | None = None) -> Policy:
    """Read `-p PATH`, else `LAZARETTO_POLICY`, else the user's config file; none at all is an empty policy.

    A path given explicitly (flag or environment) must exist; the default may be absent.
    """
    chosen = explicit or os.environ.get(POLICY_ENV)
    path = Path(chosen).expanduser() if chosen else default_policy_path()
    if not path.exists():
        if chosen:
            raise PolicyError(f"policy file not found: {path}")
        return Policy()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"cannot read policy {path}: {exc}") from exc
    return parse_policy(text, source=path)


def parse_policy(text: str, *, source: Path | None = None) -> Policy:
    """Parse TOML, or JSON when the file is `.json` or starts with `{` (mcp-gate's format)."""
    where = source or "policy"
    is_json = (source is not None and source.suffix == ".json") or text.lstrip().startswith("{")
    try:
        data = json.loads(text) if is_json else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise PolicyError(f"{where}: not valid {'JSON' if is_json else 'TOML'}: {exc}") from exc
    if not isinstance(data, dict):
        raise PolicyError(f"{where}: the top level must be a table/object")
    data = _known(data, TOP_KEYS, where)
    servers = {
        name: _server(name, entry, where) for name, entry in _table(data, "servers", where).items()
    }
    detect = _table(data, "detect", where)
    taint = _table(data, "taint", where)
    approval = _table(data, "approval", where)
    proxy = _table(data, "proxy", where)
    allow_hosts = tuple(_strings(data.get("allow_hosts", []), "allow_hosts", where))
    try:
        HostAllowList(allow_hosts)
    except ValueError as exc:
        raise PolicyError(f"{where}: allow_hosts: {exc}") from exc
    return Policy(
        source=source,
        allow_hosts=allow_hosts,
        servers=servers,
        threshold=_number(detect.get("threshold"), "detect.threshold", where),
        label=_bool(data.get("label", False), "label", where),
        idle_expiry_minutes=_number(
            taint.get("idle_expiry_minutes"), "taint.idle_expiry_minutes", where
        ),
        approval_ttl_minutes=_number_or(
            approval.get("ttl_minutes"), 15.0, "approval.ttl_minutes", where
        ),
        request_timeout_seconds=_number(
            proxy.get("request_timeout_seconds"), "proxy.request_timeout_seconds", where
        ),
        store_busy_timeout_seconds=_number_or(
            proxy.get("store_busy_timeout_seconds"), 5.0, "proxy.store_busy_timeout_seconds", where
        ),
        max_line_bytes=int(
            _number_or(proxy.get("max_line_bytes"), 64 * 1024 * 1024, "proxy.max_line_bytes", where)
        ),
    )


def _server(name: str, entry: Any, where: object) -> ServerPolicy:
    if not isinstance(entry, dict):
        raise PolicyError(f"{where}: servers.{name} must be a table/object")
    entry = _known(entry, SERVER_KEYS, where, f"servers.{name}")
    trust = entry.get("trust")
    if trust is not None and trust not in list(Trust):
        raise PolicyError(
            f'{where}: servers.{name}.trust must be "trusted" or "untrusted", not {trust!r}'
        )
    label = entry.get("label")
    lock = entry.get("lock")
    if lock is not None and not isinstance(lock, str):
        raise PolicyError(f"{where}: servers.{name}.lock must be a path")
    lock_path = None
    if lock is not None:
        lock_path = Path(lock).expanduser()
        # A relative lock path is read beside the policy file, not from wherever the client runs us.
        if not lock_path.is_absolute() and isinstance(where, Path):
            lock_path = where.parent / lock_path
    return ServerPolicy(
        name=name,
        has_entry=True,
        trust=None if trust is None else Trust(trust),
        untrusted=frozenset(
            _strings(entry.get("untrusted", []), f"servers.{name}.untrusted", where)
        ),
        outbound=frozenset(_strings(entry.get("outbound", []), f"servers.{name}.outbound", where)),
        not_outbound=frozenset(
            _strings(entry.get("not_outbound", []), f"servers.{name}.not_outbound", where)
        ),
        label=None if label is None else _bool(label, f"servers.{name}.label", where),
        lock=lock_path,
    )


def _table(data: dict, key: str, where: object) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise PolicyError(f"{where}: {key} must be a table/object")
    return value if key == "servers" else _known(value, TABLE_KEYS[key], where, key)


def _known(table: dict, keys: frozenset[str], where: object, path: str = "") -> dict:
    """The table's known keys; each other one is named on stderr and ignored."""
    for key in sorted(table.keys() - keys):
        what = f"key {path}.{key}" if path else f"policy key {key!r}"
        print(f"lazaretto: {where}: unknown {what} ignored", file=sys.stderr)
    return {key: value for key, value in table.items() if key in keys}


def _strings(value: Any, key: str, where: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise PolicyError(f"{where}: {key} must be a list of strings")
    return value


def _number(value: Any, key: str, where: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise PolicyError(f"{where}: {key} must be a positive number")
    return float(value)


def _number_or(value: Any, default: float, key: str, where: object) -> float:
    # A JSON null is the key left out, as it is for the numbers without a default.
    number = _number(value, key, where)
    return default if number is None else number


def _bool(value: Any, key: str, where: object) -> bool:
    if not isinstance(value, bool):
        raise PolicyError(f"{where}: {key} must be true or false")
    return value
