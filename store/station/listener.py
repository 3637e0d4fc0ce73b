"""The station's socket: listening, a thread per client, the connection cap, and who connected."""

import os
import socket
import socketserver
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .peer import Peer, peer_of
from .protocol import ErrorCode, error_reply
from .wire import encode

MAX_CONNECTIONS = 512
"""Connections served at once; more are refused, so a flood cannot exhaust the station's threads."""


class Listener:
    """Accepts clients on the station's Unix socket; each, with its credentials, goes to `serve`.

    `serve(peer, reader, writer)` runs in the connection's own thread until the client is done.
    """

    def __init__(
        self, path: Path, serve: Callable[[Peer, Any, Any], None], log: Callable[[str], None]
    ) -> None:
        self.path = path
        self._serve = serve
        self._log = log
        self._connections = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._server: socketserver.ThreadingUnixStreamServer | None = None
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()

    def bind(self) -> None:
        """Listen on the socket, which any local account may connect to."""
        listener = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                listener.handle(self.request, self.rfile, self.wfile)

        old_umask = os.umask(0o111)
        try:
            self._server = socketserver.ThreadingUnixStreamServer(str(self.path), Handler)
        finally:
            os.umask(old_umask)
        # Any local account may connect: what a request may do depends on its proof, not its uid.
        os.chmod(self.path, 0o666)
        self._server.daemon_threads = True

    def serve_forever(self) -> None:
        """Accept clients until `shutdown` is called."""
        assert self._server is not None, "bind() first"
        self._server.serve_forever(poll_interval=0.2)

    def shutdown(self) -> None:
        """Stop accepting, end every open connection, and remove the socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        with self._open_lock:
            for sock in self._open:
                try:
                    sock.shutdown(socket.SHUT_RDWR)  # its thread reads end of file and stops
                except OSError:
                    pass
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    def handle(self, sock: socket.socket, reader: Any, writer: Any) -> None:
        """Serve one client, unless too many are served already or its credentials are unknown."""
        if not self._connections.acquire(blocking=False):
            writer.write(
                encode(error_reply(None, ErrorCode.FORBIDDEN, "too many connections; try again"))
            )
            return
        try:
            try:
                peer = peer_of(sock)
            except OSError as exc:
                self._log(f"refused a connection whose credentials cannot be read: {exc}")
                return
            with self._open_lock:
                self._open.add(sock)
            try:
                self._serve(peer, reader, writer)
            finally:
                with self._open_lock:
                    self._open.discard(sock)
        finally:
            self._connections.release()


def remove_stale_socket(path: Path) -> None:
    """Remove a socket file nobody listens on; refuse to start beside a station that answers."""
    if not path.exists() and not path.is_symlink():
        return
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        path.unlink()
        return
    finally:
        probe.close()
    raise RuntimeError(f"another station is already listening on {path}")
