"""A few shared bytes beside the store that change whenever a payload is withheld.

Every proxy keeps the withheld payloads' fingerprints in memory and must notice when another
process adds some. Asking SQLite (`PRAGMA data_version`) costs a file lock round trip and a
`stat`, a fifth of a small call's time through the proxy. Instead, a writer puts fresh random
bytes into the file `<store>-beacon` after it committed, and readers compare the bytes through
a shared memory map: no system call while nothing changes. Random bytes rather than a counter,
so that two writers at once never need a lock: any change reads as a change, even a torn one.
"""

import mmap
import os
import secrets
from pathlib import Path

SIZE = 8


class Beacon:
    """The beacon of one store file; unusable (every read None) where the file cannot be mapped."""

    def __init__(self, store_path: Path | None) -> None:
        self.path = None if store_path is None else store_path.with_name(store_path.name + "-beacon")
        self._map: mmap.mmap | None = None

    def read(self) -> bytes | None:
        """The current bytes, or None when there is no beacon to read (then ask the store)."""
        beacon = self._mapped()
        return None if beacon is None else beacon[:SIZE]

    def ring(self) -> None:
        """Announce a commit other processes should notice (after it is committed)."""
        beacon = self._mapped()
        if beacon is not None:
            beacon[:SIZE] = secrets.token_bytes(SIZE)

    def close(self) -> None:
        """Unmap the file; the next read or ring maps it again."""
        if self._map is not None:
            self._map.close()
            self._map = None

    def _mapped(self) -> mmap.mmap | None:
        if self._map is not None or self.path is None:
            return self._map
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return None
        try:
            if os.fstat(fd).st_size < SIZE:
                os.ftruncate(fd, SIZE)
            self._map = mmap.mmap(fd, SIZE)
        except (OSError, ValueError):
            return None
        finally:
            os.close(fd)
        return self._map
