"""The host each real URL parser reaches for a URL: the test oracle of the host check.

WHATWG (the `ada` library), Python's urllib, httpx, urllib3 (under requests) and curl each parse the
URL; the resolver step after it is played as the C library plays it (`inet_aton` reads the old IPv4
forms, Python's socket layer encodes a non-ASCII name by IDNA 2003). curl runs for real against a
proxy on the loopback that records where curl asked to go, so nothing leaves the machine.
"""

import ipaddress
import shutil
import socket
import subprocess
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import ada_url
import httpx
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.util import parse_url


def reached(host: str) -> str:
    """The host a client connects to for a parsed host, as the resolver reads it."""
    name = host.strip("[]").lower().removesuffix(".")
    try:
        return ipaddress.ip_address(name.split("%", 1)[0]).compressed
    except ValueError:
        pass
    try:
        return socket.inet_ntoa(socket.inet_aton(name))  # the C library's numeric forms
    except OSError:
        pass
    return name if name.isascii() else name.encode("idna").decode("ascii")


def _whatwg(url: str) -> str | None:
    return ada_url.URL(url).hostname or None


def _urllib(url: str) -> str | None:
    return urllib.parse.urlsplit(url).hostname


def _httpx(url: str) -> str | None:
    return httpx.URL(url).raw_host.decode("ascii") or None


def _urllib3(url: str) -> str | None:
    return parse_url(url).host


PARSERS: dict[str, Callable[[str], str | None]] = {
    "whatwg": _whatwg,
    "urllib": _urllib,
    "httpx": _httpx,
    "urllib3": _urllib3,
}


def hosts_reached(url: str, curl: Callable[[str], str | None] | None = None) -> dict[str, str]:
    """{parser: host it reaches} for every parser that reads a host in `url` (errors are none)."""
    parsers = dict(PARSERS, curl=curl) if curl else PARSERS
    found = {}
    for name, parse in parsers.items():
        try:
            host = parse(url)
        except (ValueError, UnicodeError, httpx.InvalidURL, Urllib3Error):
            continue
        if host:
            found[name] = reached(host)
    return found


@contextmanager
def curl_parser() -> Iterator[Callable[[str], str | None] | None]:
    """curl as a parser (None when curl is not installed): each URL goes through a loopback proxy
    that records the host curl asked for and answers 502, so no request leaves the machine."""
    if shutil.which("curl") is None:
        yield None
        return
    listener = socket.create_server(("127.0.0.1", 0))
    asked: list[str] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with conn:
                asked.append(_request_host(_first_line(conn)))
                conn.sendall(b"HTTP/1.1 502 No\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    proxy = f"http://127.0.0.1:{listener.getsockname()[1]}"

    def parse(url: str) -> str | None:
        before = len(asked)
        subprocess.run(
            ["curl", "-q", "-s", "-o", "/dev/null", "--max-time", "10", "-x", proxy, url],
            check=False,
            timeout=30,
        )
        return asked[before] if len(asked) > before else None

    try:
        yield parse
    finally:
        stop.set()
        # Closing a socket does not wake a thread blocked in its accept(); shutting it down does.
        listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        thread.join(timeout=10)


def _first_line(conn: socket.socket) -> str:
    data = b""
    while b"\r\n" not in data and len(data) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.split(b"\r\n", 1)[0].decode("latin-1")


def _request_host(line: str) -> str:
    """The host of a proxy request line: `CONNECT host:443 ...` or `GET http://host/ ...`."""
    method, _, rest = line.partition(" ")
    target = rest.rpartition(" ")[0]
    if method == "CONNECT":
        return target.rpartition(":")[0]
    return urllib.parse.urlsplit(target).hostname or ""
