"""Answers a server wrote for the model, remembered once the judge found them clean, so that a
proxy relays them again without loading the judge.

A server answers `initialize` (and lists its tools, prompts and templates) with the same text at
every start, and an untrusted proxy must judge that text before relaying it: loading the judge to
do so was most of its start-up. Once the judge found every field of such an answer clean, a file
in the user's cache folder (`matcher.cache_folder`) says so. Its name is a digest of everything
the verdict is made from besides code: the answer as parsed, its method, the whole policy, the
interpreter and where this copy of Lazaretto is. It lists the code: the file of every module the
process had loaded when the verdict was made (the judge ran no other) and the data files beside
Lazaretto's modules, each with its size, change time and inode. An answer is clean by this file
only while every one of those files is unchanged; anything else (no file, a damaged one, a changed
file, a folder that cannot be read or written) loads the judge, as without this file. The files
written longest ago are removed past `MOST_KEPT`.

The file is as trustworthy as the compiled scans beside it: whoever can write the user's cache
folder can change what the judge finds either way.
"""

import json
import os
import sys
from typing import TYPE_CHECKING, Any

from ..matcher import cache_folder

if TYPE_CHECKING:
    from ..policy import Policy

KIND = "clean-answer"
"""The prefix of these files' names in the cache folder."""

MOST_KEPT = 256
"""How many such files are kept at most: a few answers for each server a user runs."""

_FORMAT = b"1"
"""The shape of the file and of the inputs its name is made from: another shape, other names."""

Signature = list[tuple[str, int, int, int]]
"""Files by (path, size, change time in nanoseconds, inode)."""


class CleanAnswers:
    """The answers judged clean under one policy, as kept in the cache folder."""

    def __init__(self, policy: "Policy", most: int = MOST_KEPT) -> None:
        self._policy = _canonical(policy)
        self._most = most
        self._written: set[str] = set()

    def known(self, method: str, payload: Any) -> bool:
        """Whether the judge found every field of `payload`, answering `method`, clean before,
        with every file it was made by unchanged since."""
        inputs = self.inputs(method, payload)
        if inputs is None:
            return False
        kept = cache_folder.read(_name(inputs))
        if kept is None:
            return False
        try:
            entry = json.loads(kept)
            signature = [tuple(file) for file in entry["files"]]
            return entry["inputs"] == inputs and signature == _signature(
                [path for path, *_ in signature]
            )
        except (ValueError, TypeError, KeyError, OSError, RecursionError):
            return False

    def remember(self, method: str, payload: Any) -> None:
        """Keep that the judge, just now in this process, found every field of `payload` clean."""
        self.keep(self.inputs(method, payload))

    def keep(self, inputs: str | None) -> None:
        """`remember` of the payload whose `inputs` were taken when the judge found it clean
        (later, as it was then: the payload itself may have changed since)."""
        if inputs is None or inputs in self._written:
            return
        self._written.add(inputs)
        try:
            files = _signature(_code_files())
        except OSError:
            return  # a module's file gone meanwhile: the code that judged it is not told
        name = _name(inputs)
        cache_folder.write(name, json.dumps({"inputs": inputs, "files": files}).encode())
        self._forget_oldest(name)

    def _forget_oldest(self, written: str) -> None:
        """Remove the files used longest ago (written, or read on another day: see
        `cache_folder`) but the one just `written`, past the `most` newest (a policy edited, a
        server upgraded: each makes new files, and the old ones would never be read again)."""
        try:
            others = [
                (entry.stat().st_mtime_ns, entry.path)
                for entry in os.scandir(cache_folder.path())
                if entry.name.startswith(f"{KIND}-") and entry.name != written
            ]
        except OSError:
            return
        for _, path in sorted(others)[: max(0, len(others) + 1 - self._most)]:
            try:
                os.unlink(path)
            except OSError:
                pass  # removed by another proxy meanwhile, or a folder that cannot be written

    def inputs(self, method: str, payload: Any) -> str | None:
        """The digest of everything the verdict on `payload` answering `method` is made from,
        besides code; None for a payload JSON cannot write back as it came, or nested deeper than
        it writes (never remembered). The whole digest is kept in the file and compared: its name
        holds only part of it."""
        try:
            answer = json.dumps(payload, ensure_ascii=False, allow_nan=False).encode()
        except (ValueError, TypeError, RecursionError):
            return None
        # The interpreter, and where this copy of Lazaretto is (another copy, other files).
        interpreter = f"{sys.version}\n{sys.executable}\n{__file__}".encode()
        return cache_folder.inputs_digest(
            [_FORMAT, interpreter, method.encode(), self._policy, answer]
        )


def _name(inputs: str) -> str:
    return f"{KIND}-{inputs[:24]}.json"


def _canonical(policy: "Policy") -> bytes:
    """Every setting of `policy` as bytes that are the same in every process (sets sorted)."""
    settings = {
        **policy._asdict(),
        "servers": {name: entry._asdict() for name, entry in policy.servers.items()},
    }
    return json.dumps(settings, sort_keys=True, default=_sorted_or_repr).encode()


def _sorted_or_repr(value: Any) -> Any:
    if isinstance(value, frozenset | set):
        return sorted(map(repr, value))
    return repr(value)


def _code_files() -> list[str]:
    """The file of every module loaded in this process, and every other file beside one of
    Lazaretto's (the detector's data)."""
    files: set[str] = set()
    folders: set[str] = set()
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not isinstance(path, str):
            continue
        path = os.path.abspath(path)  # as another process, in another folder, finds it
        files.add(path)
        if name.startswith("lazaretto."):
            folders.add(os.path.dirname(path))
    for folder in folders:
        with os.scandir(folder) as entries:
            files.update(entry.path for entry in entries if entry.is_file())
    return sorted(files)


def _signature(paths: list[str]) -> Signature:
    """Each of `paths` with its size, change time and inode; raises OSError for one that is gone."""
    signature = []
    for path in paths:
        status = os.stat(path)
        signature.append((path, status.st_size, status.st_mtime_ns, status.st_ino))
    return signature
