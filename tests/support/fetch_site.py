"""The real PyPI fetch server (`mcp-server-fetch`) and a local web site for it to read."""

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FETCH_BIN = Path(__file__).resolve().parent.parent / "pypi-servers" / "bin" / "mcp-server-fetch"
FETCH_SERVER = [str(FETCH_BIN), "--allow-private-ips"]
"""The server as a user runs it; it refuses loopback addresses unless told, and the site is local."""

MISSING = f"{FETCH_BIN} is not installed: run tests/install-pypi-servers"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def local_site(folder: Path) -> Iterator[str]:
    """Serve `folder` on 127.0.0.1 (a free port) for as long as the block runs; yields its base URL."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
