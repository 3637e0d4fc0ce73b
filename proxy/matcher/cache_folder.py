"""What the detector builds once per user and keeps in the user's cache folder, checked when read.

Compiled Hyperscan databases and the folded concept terms take seconds to build and a few
milliseconds to read back. They live in the user's cache folder, never inside the installed
package (which may be read-only, shared by every account, or replaced by an upgrade). A file's
name carries a digest of everything it is built from, so an upgrade that changes any input reads
another file, never an old one. A file holds the CRC-32 of its contents before them and is
replaced whole: a file that fails the check (cut short by a full disk, damaged, from another
layout) reads as absent, and is built and written again. (The check finds accidents, not
forgeries, which no check could: whoever can write the folder can write a matching sum. A
CRC-32 reads a proxy's few megabytes of databases at start-up in half the time SHA-256 does.)

Every upgrade, and every policy that compiles other patterns, names new files, and nothing reads
the old ones again: a file's modification time is moved forward when it is read (at most once a
day), and each file written removes those no process read for `UNUSED_DAYS`. The folder holds
what was used lately, not every version ever installed.
"""

import hashlib
import os
import tempfile
import time
import zlib
from pathlib import Path

LAYOUT = 2
"""The layout of a cache file (a checksum, then the contents); another layout, another folder."""

_CHECK_SIZE = 4

UNUSED_DAYS = 30
"""A file no process read for this long is removed by the next file written."""
_DAY = 24 * 60 * 60


def path() -> Path:
    """Where this user's built files are kept (under XDG_CACHE_HOME on Linux)."""
    # Imported here: only a process that builds or reads a cache needs it.
    from platformdirs import user_cache_path

    return user_cache_path("lazaretto", appauthor=False) / f"detect-{LAYOUT}"


def file_name(kind: str, inputs: list[bytes], suffix: str) -> str:
    """The file name of a `kind` of file built from `inputs`: other inputs, another name."""
    return f"{kind}-{inputs_digest(inputs)[:24]}{suffix}"


def inputs_digest(inputs: list[bytes]) -> str:
    """The SHA-256 of `inputs` (in hex), told apart however they are cut into parts."""
    digest = hashlib.sha256()
    for part in inputs:
        # Each part's length first, so no two lists of parts hash the same bytes.
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def read(name: str) -> bytes | None:
    """The contents kept under `name`, or None when absent, unreadable or failing the check."""
    file = path() / name
    try:
        with open(file, "rb") as handle:
            raw = handle.read()
            modified = os.fstat(handle.fileno()).st_mtime
    except OSError:
        return None
    check, contents = raw[:_CHECK_SIZE], raw[_CHECK_SIZE:]
    if len(raw) < _CHECK_SIZE or _checksum(contents) != check:
        return None
    if time.time() - modified > _DAY:
        _mark_used(file)
    return contents


def _mark_used(file: Path) -> None:
    """Move `file`'s modification time to now: read today, it is not removed as unused."""
    try:
        os.utime(file)
    except OSError:
        pass  # a folder this user cannot write: nothing is removed from it either


def write(name: str, contents: bytes) -> None:
    """Keep `contents` under `name`, whole or not at all (or not at all where it cannot)."""
    where = path()
    temporary: str | None = None
    try:
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        # A temporary file beside it, renamed over it: a reader finds the old file or the new one.
        with tempfile.NamedTemporaryFile(dir=where, prefix=".building-", delete=False) as handle:
            temporary = handle.name
            handle.write(_checksum(contents) + contents)
        os.replace(temporary, where / name)
    except OSError:
        # A read-only or full cache folder costs the next process a rebuild, never its answer.
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
        return
    _remove_unused(where)


def _remove_unused(where: Path) -> None:
    """Remove the files under `where` that no process read for `UNUSED_DAYS` (see the module
    docstring), and temporary files left by a writer that died that long ago."""
    oldest = time.time() - UNUSED_DAYS * _DAY
    try:
        with os.scandir(where) as entries:
            for entry in entries:
                try:
                    if entry.is_file(follow_symlinks=False) and entry.stat().st_mtime < oldest:
                        os.unlink(entry.path)
                except OSError:
                    pass  # removed by another process meanwhile
    except OSError:
        pass  # the folder cannot be listed: it keeps its files


def _checksum(contents: bytes) -> bytes:
    return zlib.crc32(contents).to_bytes(_CHECK_SIZE, "big")
