"""Reading a file of the user's for a hook: a regular file, up to a bound, never waiting on it.

A hook reads the policy and the scripts a command runs. Opened as they are, a FIFO or a device
would hold the hook until the client's timeout lets the call through; so a path is opened without
blocking and read only when it is a regular file. Light on purpose (os and stat only): the thin
hook imports it.
"""

import os
import stat


def read_regular(path: str, limit: int) -> bytes | None:
    """Up to `limit` + 1 bytes of the regular file at `path`, or None when it is not one or cannot
    be read."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(descriptor)
