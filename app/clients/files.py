"""Client config files: JSON edited in place, TOML through tomlkit, backups, atomic writes."""

import difflib
import glob
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import ParseError

from .jsonedit import edit_json

KEEP_BACKUPS = 5
"""Backups kept per config file, the newest: each change makes one, and they would pile up."""


@dataclass
class ConfigText:
    """A config file's text as read (empty for a missing file) and the text it would become."""

    path: Path
    old: str
    new: str
    remove: bool = False
    """Delete the file instead of writing `new`: it held only what Lazaretto had put there."""

    @property
    def changed(self) -> bool:
        """Whether writing would change the file."""
        return self.remove or self.old != self.new

    def diff(self) -> str:
        """A unified diff of the change ("" when nothing changes)."""
        return "".join(
            difflib.unified_diff(
                self.old.splitlines(keepends=True),
                self.new.splitlines(keepends=True),
                fromfile=f"{self.path} (now)",
                tofile=f"{self.path} (after)",
            )
        )


def read_text(path: Path) -> str:
    """The file's text, or "" when it does not exist; ValueError (saying why) when it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except IsADirectoryError:
        raise ValueError(
            f"{path} is a directory, not a settings file; nothing was changed"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path} cannot be read ({exc}); nothing was changed") from exc


def json_text(old: str, data: Any) -> str:
    """The new text of a JSON config: only what changed is rewritten, in the file's indentation and escaping."""
    indent = re.search(r"\n([ \t]+)\S", old)
    ascii_only = bool(re.search(r"\\u[0-9a-fA-F]{4}", old)) and old.isascii()
    return edit_json(old, data, indent.group(1) if indent else None, ascii_only)


def load_json(text: str, path: Path) -> Any:
    """Parse a JSON config (an empty file is an empty object)."""
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc}); nothing was changed") from exc


def load_toml(text: str, path: Path) -> tomlkit.TOMLDocument:
    """Parse a TOML config keeping its comments and layout."""
    try:
        return tomlkit.parse(text)
    except ParseError as exc:
        raise ValueError(f"{path} is not valid TOML ({exc}); nothing was changed") from exc


def dump_toml(document: tomlkit.TOMLDocument) -> str:
    """The document's text, with every untouched line as it was."""
    return tomlkit.dumps(document)


def backups_of(path: Path) -> list[Path]:
    """The backups of a config file, newest first (their names sort by time)."""
    return sorted(path.parent.glob(f"{glob.escape(path.name)}.lazaretto-backup-*"), reverse=True)


def backup(path: Path) -> Path | None:
    """Copy the file beside itself before it is changed, keeping the newest `KEEP_BACKUPS` of
    them; None when there is nothing to keep."""
    if not path.exists():
        return None
    stamp = datetime.now().strftime("%Y%m%dT%H%M%S%f")
    target = path.with_name(f"{path.name}.lazaretto-backup-{stamp}")
    shutil.copy2(path, target)
    for old in backups_of(path)[KEEP_BACKUPS:]:
        old.unlink(missing_ok=True)
    return target


def saved_note(saved: Path | None) -> str:
    """How a change reports its backup."""
    if saved is None:
        return ""
    return f" (backup: {saved}; the newest {KEEP_BACKUPS} backups of the file are kept)"


def write_atomic(path: Path, text: str) -> None:
    """Replace the file in one step, keeping its permissions (a crash leaves the old or the new file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o600
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def apply(change: ConfigText) -> Path | None:
    """Back the file up and write the new text (or remove the file); return the backup's path.

    A file that is removed held only Lazaretto's entries, so it gets no backup.
    """
    if not change.changed:
        return None
    if change.remove:
        change.path.unlink(missing_ok=True)
        return None
    saved = backup(change.path)
    write_atomic(change.path, change.new)
    return saved
