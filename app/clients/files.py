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
    """The file's text with its own line ends, or "" when it does not exist; ValueError (saying
    why) when it cannot be read."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
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


def backup_texts(path: Path) -> list[str]:
    """The text of each backup of a config file that can still be read, newest first."""
    texts = []
    for saved in backups_of(path):
        try:
            texts.append(read_text(saved))
        except ValueError:
            continue
    return texts


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


class ChangedMeanwhile(OSError):
    """The file changed between reading it and writing it (its client wrote it): nothing was written."""


def write_atomic(path: Path, text: str, expected: str | None = None) -> None:
    """Replace the file in one step, keeping its permissions (a crash leaves the old or the new
    file). A link is followed: the file it points to is replaced, the link stays (settings kept in
    a dotfiles folder stay there). With `expected`, the file must still hold that text."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o777 if target.exists() else 0o600
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        if expected is not None and read_text(target) != expected:
            raise ChangedMeanwhile(
                f"{path} changed while Lazaretto was editing it; nothing was written, run it again"
            )
        os.replace(temporary, target)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; a folder cannot be opened so on Windows)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


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
    write_atomic(change.path, change.new, change.old)
    return saved
