"""The HTTP client every request to one remote server goes through: TLS always verified, no redirects."""

import ssl

import httpx

from .options import RemoteOptions

# Connect and write within 30 s; an event stream may stay quiet for five minutes (the SDK's own
# defaults), after which it counts as broken. The policy's request timeout bounds a whole call.
TIMEOUT = httpx.Timeout(30.0, read=300.0)


def tls_context(ca_file: str | None) -> ssl.SSLContext:
    """The system's trust store, plus a private CA when one is given; there is no way to skip checks."""
    context = ssl.create_default_context()
    if ca_file:
        context.load_verify_locations(cafile=ca_file)
    return context


def open_client(options: RemoteOptions, auth: httpx.Auth | None = None) -> httpx.Client:
    """A pooled client with the configured headers; redirects are answered as errors, so a token
    never follows one to another host."""
    return httpx.Client(
        headers={"User-Agent": "lazaretto-proxy", **options.headers},
        verify=tls_context(options.ca_file),
        auth=auth,
        timeout=TIMEOUT,
        follow_redirects=False,
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=16),
    )
