"""A large server line waits in an unlinked temporary file while its message is scanned."""

import tempfile
from typing import BinaryIO

# A server line this large waits in a temporary file while it is scanned; smaller ones stay in
# memory, where a copy costs less than the round trip through a file.
SPILL_BYTES = 1024 * 1024


class Arrived:
    """A server line's bytes as they arrived, forwarded unchanged when nothing rewrites the message.

    A large line is written to an unlinked temporary file while its message is scanned, so the scan
    does not run beside a second full copy of the message; without room on disk it stays in memory.
    """

    def __init__(self, raw: bytes) -> None:
        self._raw: bytes | None = raw
        self._file: BinaryIO | None = None
        self._size = len(raw)
        if len(raw) < SPILL_BYTES:
            return
        try:
            spill = tempfile.TemporaryFile()  # noqa: SIM115 - open until the line is forwarded or dropped
        except OSError:
            return
        try:
            spill.write(raw)
        except OSError:
            spill.close()
            return
        self._file, self._raw = spill, None

    def read(self) -> bytes | None:
        """The line, byte for byte; None if its temporary file could not be read back whole."""
        if self._file is None:
            return self._raw
        try:
            self._file.seek(0)
            data = self._file.read()
        except OSError:
            return None
        return data if len(data) == self._size else None

    def close(self) -> None:
        """Let go of the bytes: the message is being re-serialized, or it is done."""
        self._raw = None
        if self._file is not None:
            self._file.close()
            self._file = None
