"""The 2024-11-05 HTTP+SSE transport, for servers that predate Streamable HTTP.

One GET stream carries everything the server sends; its first event names the endpoint that every
client message is POSTed to. The specification's fallback: tried when the first POST to the URL is
answered 400, 404 or 405 without a modern MCP error.
"""

import threading
from collections.abc import Callable
from urllib.parse import urljoin, urlsplit

import httpx

from .bodies import Oversized, as_line, events, hang_up, is_event_stream
from .failures import http_status

_ENDPOINT_WAIT = 10.0


class LegacyEndpoint:
    """A connected HTTP+SSE server: POST to its endpoint, read its one event stream."""

    def __init__(
        self,
        client: httpx.Client,
        url: str,
        sink,
        *,
        max_bytes: int,
        host: str,
        log: Callable[[str], None],
    ) -> None:
        self.client = client
        self.url = url
        self.sink = sink
        self.max_bytes = max_bytes
        self.host = host
        self.log = log
        self.post_url: str | None = None
        self._ready = threading.Event()
        self._closing = threading.Event()
        self._response: httpx.Response | None = None

    @classmethod
    def connect(cls, client: httpx.Client, url: str, sink, **kwargs) -> "LegacyEndpoint | None":
        """Open the stream and wait for its `endpoint` event; None when the server sends none."""
        endpoint = cls(client, url, sink, **kwargs)
        threading.Thread(target=endpoint._read, name="legacy-sse", daemon=True).start()
        if not endpoint._ready.wait(_ENDPOINT_WAIT) or endpoint.post_url is None:
            endpoint.close()
            return None
        endpoint.log(
            f"the server speaks the HTTP+SSE transport (2024-11-05); posting to {endpoint.post_url}"
        )
        return endpoint

    def post(self, body: bytes) -> None:
        """Send one message; its answer comes on the stream."""
        assert self.post_url is not None  # connect() returns only endpoints that have one
        response = self.client.post(
            self.post_url, content=body, headers={"Content-Type": "application/json"}
        )
        if not 200 <= response.status_code < 300:
            raise http_status(response.status_code, self.host)

    def close(self) -> None:
        """Stop reading; the server sees the stream close."""
        self._closing.set()
        if self._response is not None:
            hang_up(self._response)

    def _read(self) -> None:
        try:
            with self.client.stream(
                "GET", self.url, headers={"Accept": "text/event-stream"}
            ) as response:
                self._response = response
                if response.status_code != 200 or not is_event_stream(response):
                    return
                for event in events(response, self.max_bytes):
                    if self.post_url is None:
                        if event.event != "endpoint":
                            return
                        self.post_url = self._same_origin(event.data)
                        self._ready.set()
                        if self.post_url is None:
                            return
                    elif event.data and event.event in ("", "message"):
                        self.sink.deliver([as_line(event.data)])
        except Oversized as exc:
            self.sink.oversized(exc.head, exc.size)
        except (httpx.HTTPError, OSError) as exc:
            if not self._closing.is_set():
                self.log(f"the HTTP+SSE stream broke: {exc}")
        finally:
            connected = self.post_url is not None
            self._ready.set()
            if connected and not self._closing.is_set():
                self.sink.ended(f"{self.host} closed its event stream")

    def _same_origin(self, data: str) -> str | None:
        """The endpoint's absolute URL, if it is on the server's own origin (a token must not go elsewhere)."""
        target = urljoin(self.url, data.strip())
        a, b = urlsplit(self.url), urlsplit(target)
        if (a.scheme, a.hostname, a.port) != (b.scheme, b.hostname, b.port):
            self.log(f"refused the endpoint {target}: it is not on {self.url}'s origin")
            return None
        return target
