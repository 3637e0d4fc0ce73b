"""A few bytes beside the store that change whenever a payload is withheld.

Every proxy keeps the withheld payloads' fingerprints in memory and must notice when another
process adds some. Asking SQLite (`PRAGMA data_version`) costs a `stat` and a file lock round
trip, a fifth of a small call's time through the proxy. Instead, a writer puts fresh random
bytes into the file `<store>-beacon` after it committed, and readers compare the bytes with one
`pread`. Random bytes rather than a counter, so that two writers at once never need a lock: any
change reads as a change, even a torn one. A read rather than a shared memory map, so that a
file truncated under a running proxy reads as a change instead of killing it with SIGBUS.
"""

import os
import secrets
from pathlib import Path

SIZE = 8


class Beacon:
    """The beacon of one store file; unusable (every read None) where the file cannot be opened.

    A station keeps its store where clients cannot reach and publishes the beacon beside its
    socket instead (`path`), readable by all: it tells only that something was withheld.
    """

    def __init__(
        self,
        store_path: Path | None,
        *,
        path: str | Path | None = None,
        writable: bool = True,
        mode: int = 0o600,
    ) -> None:
        if path is not None:
            self.path: Path | None = Path(path)
        else:
            self.path = (
                None if store_path is None else store_path.with_name(store_path.name + "-beacon")
            )
        self._writable = writable
        self._mode = mode
        self._fd: int | None = None

    def read(self) -> bytes | None:
        """The current bytes, or None when there is no beacon to read (then ask the store)."""
        fd = self._opened()
        if fd is None:
            return None
        try:
            return os.pread(fd, SIZE, 0)
        except OSError:
            return None

    def ring(self) -> None:
        """Announce a commit other processes should notice (after it is committed)."""
        fd = self._opened() if self._writable else None
        if fd is not None:
            try:
                os.pwrite(fd, secrets.token_bytes(SIZE), 0)
            except OSError:
                pass  # readers without a beacon change ask the store at least once a second

    def close(self) -> None:
        """Close the file; the next read or ring opens it again."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _opened(self) -> int | None:
        if self._fd is None and self.path is not None:
            flags = os.O_RDWR | os.O_CREAT if self._writable else os.O_RDONLY
            try:
                self._fd = os.open(self.path, flags, self._mode)
            except OSError:
                return None
        return self._fd
