"""Can the station's account run Lazaretto's code, and can nobody else change it? (as sudo checks)

The station runs Lazaretto's code under its account. Code a user can edit (a virtualenv in a home
directory, say) lets that user, and the agent with them, change what the station does; code in a
folder other accounts cannot enter (a Python under /root) leaves a station that cannot start.
"""

import os
import stat
import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path


def problems() -> list[str]:
    """Why the interpreter or Lazaretto's code can be changed by someone other than root."""
    return _each(_with_parents(_code_paths()), _writable_by_others)


def unreadable() -> list[str]:
    """Why another account (the station's) could not run that code: a folder or file it cannot read."""
    listed = set(_code_paths())
    return _each(_with_parents(listed), lambda path: _unreadable_by_others(path, path in listed))


def _code_paths() -> list[Path]:
    import lazaretto.app
    import lazaretto.proxy
    import lazaretto.store

    paths: list[Path] = [Path(sys.executable).resolve(), Path(sysconfig.get_paths()["stdlib"])]
    for package in (lazaretto.app, lazaretto.store, lazaretto.proxy):
        for folder in package.__path__:
            paths.append(Path(folder))
            paths.extend(Path(folder).rglob("*.py"))
    for entry in sys.path:
        if entry and os.path.isdir(entry) and "site-packages" in entry:
            paths.append(Path(entry))
            paths.extend(Path(entry).iterdir())
    return paths


def _each(paths: Iterable[Path], check) -> list[str]:
    return [problem for problem in map(check, paths) if problem]


def _with_parents(paths: Iterable[Path]) -> list[Path]:
    seen: dict[Path, None] = {}
    for path in paths:
        seen[path] = None
        for parent in path.parents:
            seen[parent] = None
    return list(seen)


def _writable_by_others(path: Path) -> str | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if info.st_uid != 0:
        return f"{path} belongs to uid {info.st_uid}, not root"
    # Group- or world-writable, unless a sticky directory (like /tmp) that only its owner's files use.
    if info.st_mode & 0o022 and not (os.path.isdir(path) and info.st_mode & 0o1000):
        return f"{path} is writable by other accounts"
    return None


def _unreadable_by_others(path: Path, listed: bool) -> str | None:
    """A parent folder must let others pass; the code's own folders must also be listable by them."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISDIR(info.st_mode):
        needed = stat.S_IROTH | stat.S_IXOTH if listed else stat.S_IXOTH
        what = "enter and list" if listed else "enter"
    else:
        needed, what = stat.S_IROTH, "read"
    if mode & needed != needed:
        return f"{path} (mode {mode:04o}): other accounts cannot {what} it"
    return None
