"""Who is at the other end of a Unix socket: uid and pid as the kernel reports them.

Light on purpose (no dataclasses): a hook checks the station's uid with it on every tool call.
"""

import socket
import struct
import sys

# macOS: getsockopt level SOL_LOCAL and its LOCAL_PEERCRED / LOCAL_PEERPID options (sys/un.h).
_SOL_LOCAL = 0
_LOCAL_PEERCRED = 0x001
_LOCAL_PEERPID = 0x002
_XUCRED = "=IIh16I"  # cr_version, cr_uid, cr_ngroups, cr_groups[16]


class Peer:
    """The credentials of a connected process."""

    __slots__ = ("pid", "uid")

    def __init__(self, uid: int, pid: int | None) -> None:
        self.uid = uid
        self.pid = pid

    def as_detail(self) -> dict:
        """What the audit log records of it."""
        return {"uid": self.uid, "pid": self.pid}


def peer_of(sock: socket.socket) -> Peer:
    """The uid and pid of the process at the other end of `sock` (OSError where the OS cannot say)."""
    if hasattr(socket, "SO_PEERCRED"):
        size = struct.calcsize("3i")
        pid, uid, _gid = struct.unpack(
            "3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, size)
        )
        return Peer(uid, pid)
    if sys.platform == "darwin":
        raw = sock.getsockopt(_SOL_LOCAL, _LOCAL_PEERCRED, struct.calcsize(_XUCRED))
        uid = struct.unpack(_XUCRED, raw)[1]
        pid = struct.unpack("i", sock.getsockopt(_SOL_LOCAL, _LOCAL_PEERPID, 4))[0]
        return Peer(uid, pid)
    raise OSError("this system cannot report a Unix socket peer's credentials")
