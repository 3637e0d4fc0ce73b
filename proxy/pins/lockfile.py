"""The pin lock file: its format, written by `lazaretto pin export`, read by `pin check` and the proxy.

```json
{"lazaretto_lock": 1,
 "servers": {"NAME": {"command": [...],
                      "entries": {"KIND:NAME": {"sha256": "...", "surface": {...}}}}}}
```

A lock file pins what a person reviewed; a version this code does not know could mean anything,
so it is refused with a reason rather than read as far as it goes.
"""

import json
from dataclasses import dataclass
from pathlib import Path

from lazaretto.store import canonical_json

LOCK_VERSION = 1
"""The format written here; a lock file of another version is refused."""


class LockError(ValueError):
    """A lock file that cannot be used: unreadable, not a lock file, or of another version."""


@dataclass(frozen=True)
class Lock:
    """The entries a lock file pins for one server (enforced instead of trust on first use)."""

    path: str
    entries: dict[tuple[str, str], dict]


def lock_document(rows: list[dict]) -> dict:
    """The lock file's content for pins rows: per server its command and each entry's sha256 and surface."""
    servers: dict[str, dict] = {}
    for row in sorted(rows, key=lambda r: r["pinned_at"]):
        server = servers.setdefault(
            row["server"], {"command": json.loads(row["command"]), "entries": {}}
        )
        server["entries"][f"{row['kind']}:{row['name']}"] = {
            "sha256": row["sha256"],
            "surface": json.loads(row["canonical"]),
        }
    return {"lazaretto_lock": LOCK_VERSION, "servers": servers}


def lock_text(rows: list[dict]) -> str:
    """The lock file as written: sorted keys, indented, so that it diffs well in review."""
    return json.dumps(lock_document(rows), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def read_lock(path: str | Path) -> dict[str, dict]:
    """Every server of a lock file by name; LockError saying why when it cannot be used."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise LockError(f"cannot read {path}: {exc}") from exc
    except ValueError as exc:
        raise LockError(f"{path} is not valid JSON ({exc})") from exc
    if not isinstance(data, dict) or "lazaretto_lock" not in data:
        raise LockError(f"{path} is not a Lazaretto lock file (it has no lazaretto_lock version)")
    version = data["lazaretto_lock"]
    if version != LOCK_VERSION:
        newer = (
            isinstance(version, int) and not isinstance(version, bool) and version > LOCK_VERSION
        )
        raise LockError(
            f"{path} is lock version {version!r}, "
            + (
                f"written by a newer Lazaretto; this one reads version {LOCK_VERSION}: upgrade it"
                if newer
                else f"which this Lazaretto does not know (it reads version {LOCK_VERSION})"
            )
        )
    servers = data.get("servers")
    if not isinstance(servers, dict) or not all(
        isinstance(s, dict) and isinstance(s.get("entries"), dict) for s in servers.values()
    ):
        raise LockError(f"{path}: `servers` must map each name to its `entries`")
    for name, server in servers.items():
        for key, item in server["entries"].items():
            if not (isinstance(item, dict) and isinstance(item.get("sha256"), str)):
                raise LockError(f"{path}: servers.{name}.entries.{key} has no sha256")
    return servers


def server_lock(path: str | Path, server: str) -> Lock:
    """One server's entries of a lock file, as the proxy enforces them (none if it is not there)."""
    entries = {}
    for key, item in read_lock(path).get(server, {}).get("entries", {}).items():
        kind, _, name = key.partition(":")
        entries[(kind, name)] = {
            "kind": kind,
            "name": name,
            "sha256": item["sha256"],
            "canonical": canonical_json(item.get("surface")),
        }
    return Lock(str(path), entries)
