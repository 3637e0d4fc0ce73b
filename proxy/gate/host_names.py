"""One host as written, read the way each resolver reads it: WHATWG's host parser and the others.

A URL's host goes through a host parser before anything connects: the WHATWG one (browsers, and
the `ada` library this module calls) percent-decodes it, maps it by UTS 46 (case, full-width
letters, ignored characters, the ideographic full stop) and reads numbers in their old IPv4 forms
(`0x7f.1`, `2130706433`, `0177.0.0.1`); Python's socket layer (urllib, http.client) encodes a
non-ASCII name by IDNA 2003 instead, which maps a few letters differently (`faß` to `fass`, a
zero-width joiner to nothing), and the C library's address parser reads the same old IPv4 forms.
`normalize_host` is the WHATWG reading; `host_spellings` is every host any of them reaches.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from urllib.parse import unquote

# Longer than any name, even with every character percent-encoded.
_MAX_WRITTEN = 253 * 9
# Characters that would make "http://<text>/" a different URL than a host: the host parser never
# sees them, so a text holding one is no host.
_NOT_IN_HOST = re.compile(r"[\s/\\?#@\[\]\x00-\x1f\x7f]")
_IPV4_TEXT = re.compile(r"[0-9.]+")


@functools.lru_cache(maxsize=4096)
def normalize_host(host: str) -> str | None:
    """The host the WHATWG host parser reads: lower-case ASCII (IDNA as xn--), no trailing dot,
    IPv4 as a dotted quad and IPv6 without brackets; None when the text is not a host."""
    text = host.strip()
    if not text or len(text) > _MAX_WRITTEN:
        return None
    if text.startswith("[") and text.endswith("]"):
        return _ip_literal(text[1:-1])
    if "%" in text:
        text = unquote(text)
    if ":" in text:
        return _ipv6(text)
    if _NOT_IN_HOST.search(text):
        return None
    # Imported by the first text that may be a host: loading the parser (a C library through
    # cffi) took 3 ms of every proxy's start-up, and most calls name no host at all.
    from ada_url import URL

    try:
        parsed = URL(f"http://{text}/").hostname
    except ValueError:
        return None
    return _dns_name(parsed)


@functools.lru_cache(maxsize=4096)
def host_spellings(host: str) -> tuple[str, ...]:
    """Every host some client reaches for this text: the WHATWG reading, the IDNA 2003 one Python's
    socket layer uses where it differs, and a percent-encoded name as written (RFC 3986 clients
    look it up undecoded). Empty when no reading finds a host."""
    readings = (normalize_host(host), _idna2003(host), _undecoded(host))
    return tuple(dict.fromkeys(name for name in readings if name))


def _idna2003(host: str) -> str | None:
    """The host Python's own `idna` codec (IDNA 2003, what `socket.getaddrinfo` applies to a
    non-ASCII name) makes of the text, read then as an ASCII host."""
    text = unquote(host.strip())
    if text.isascii() or _NOT_IN_HOST.search(text) or ":" in text:
        return None
    try:
        ascii_name = text.encode("idna").decode("ascii")
    except UnicodeError:
        return None
    return normalize_host(ascii_name)


def _undecoded(host: str) -> str | None:
    """A percent-encoded ASCII name as an RFC 3986 client hands it to the resolver."""
    text = host.strip()
    if "%" not in text or not text.isascii() or _NOT_IN_HOST.search(text) or ":" in text:
        return None
    return _dns_name(text.lower())


def _dns_name(parsed: str) -> str | None:
    """A WHATWG host a resolver can look up (no empty label, labels and name of DNS length), else
    None. Other characters stay: `a!b.evil.example` is a name evil.example's own servers answer."""
    name = parsed.removesuffix(".")
    if not name or len(name) > 253:
        return None
    if _IPV4_TEXT.fullmatch(name):
        return name  # the parser wrote it as a dotted quad
    if any(not label or len(label) > 63 for label in name.split(".")):
        return None
    return name


def _ip_literal(inner: str) -> str | None:
    """A bracketed literal: IPv6 (URLs), or IPv4 / "IPv6:..." (e-mail address literals)."""
    inner = inner.removeprefix("IPv6:").removeprefix("ipv6:")
    if ":" in inner:
        return _ipv6(inner)
    try:
        return str(ipaddress.IPv4Address(inner))
    except ValueError:
        return None


def _ipv6(text: str) -> str | None:
    """Compressed IPv6 without the zone (the zone picks an interface, not a host)."""
    try:
        return ipaddress.IPv6Address(text.split("%", 1)[0]).compressed
    except ValueError:
        return None


def is_ip(host: str) -> bool:
    """Whether a normalized host is an IP address rather than a name."""
    return ":" in host or host.replace(".", "").isdigit()
