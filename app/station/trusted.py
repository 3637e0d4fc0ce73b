"""Is the code the station would run out of reach of other accounts? (as sudo checks its own files)

The station runs Lazaretto's code under its account. Code a user can edit (a virtualenv in a home
directory, say) lets that user, and the agent with them, change what the station does.
"""

import os
import sys
from collections.abc import Iterable
from pathlib import Path


def problems() -> list[str]:
    """Why the interpreter or Lazaretto's code can be changed by someone other than root."""
    import lazaretto.app
    import lazaretto.proxy
    import lazaretto.store

    paths: list[Path] = [Path(sys.executable).resolve()]
    for package in (lazaretto.app, lazaretto.store, lazaretto.proxy):
        for folder in package.__path__:
            paths.append(Path(folder))
            paths.extend(Path(folder).rglob("*.py"))
    for entry in sys.path:
        if entry and os.path.isdir(entry) and "site-packages" in entry:
            paths.append(Path(entry))
            paths.extend(Path(entry).iterdir())
    found: list[str] = []
    for path in _with_parents(paths):
        problem = _writable_by_others(path)
        if problem:
            found.append(problem)
    return found


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
