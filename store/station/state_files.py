"""The station's small JSON files (passphrase hash, authenticator secret, spent codes, lock):
each replaced atomically and readable only by the station's account."""

import json
import os
from pathlib import Path


def read_state(path: Path) -> dict | None:
    """The file's object, or None when there is no such file (ValueError if it is not JSON)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None


def write_state(path: Path, record: dict) -> None:
    """Replace the file atomically and durably; only its owner may read it."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(path.name + ".new")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(record, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
