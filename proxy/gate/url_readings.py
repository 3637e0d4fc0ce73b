"""The hosts one URL names to each family of URL parsers, where they disagree.

Browsers and the WHATWG URL standard (the `ada` library here) end a web URL's authority at a
backslash as at a slash; RFC 3986 parsers (Python's urllib, httpx, curl) read a backslash as an
ordinary character, so `http://github.com\\@evil.example/` reaches github.com in one and
evil.example in the other. A tool may also percent-decode a URL before handing it to either.
Every reading counts: the host check must hold for whichever parser the tool happens to use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# Schemes whose URLs always have a host, which read any run of / or \ before it (WHATWG "special").
SPECIAL = frozenset({"http", "https", "ws", "wss", "ftp"})
# Where an RFC 3986 authority ends (a decoded text is cut again here).
_AUTHORITY_END = re.compile(r"[/?#]")
_PORT = re.compile(r"[0-9]*")
# Parsers drop surrounding controls and spaces, and tabs and newlines anywhere.
_EDGES = "".join(map(chr, range(0x21)))
_INSIDE = {9: None, 10: None, 13: None}


def authority_hosts(region: str, rfc: bool, host_of: Callable[[str], str | None]) -> list[str]:
    """The host text each reading of an authority names, deduplicated, WHATWG's first.

    `region` runs from after the slashes to the first / ? or #. WHATWG ends it at a backslash
    too; RFC 3986 (only when `rfc`: the URL has exactly two forward slashes) does not. Either
    reads user info up to the last "@". Each is read again after percent-decoding. `host_of`
    takes the host off the front of what follows the user info (a port, or anything a free
    text adds, left behind).
    """
    texts = [region]
    if "%" in region:
        texts.append(_AUTHORITY_END.split(unquote(region), maxsplit=1)[0])
    hosts: dict[str, None] = {}
    for text in texts:
        cuts = [text.split("\\", 1)[0], text] if rfc else [text.split("\\", 1)[0]]
        for cut in cuts:
            host = host_of(cut.rpartition("@")[2])
            if host:
                hosts.setdefault(host)
    return list(hosts)


def whole_host(hostport: str) -> str | None:
    """The host of a whole authority's "host[:port]" as an HTTP client splits it; None when the
    port is not a number (no client connects to `app.main:app`)."""
    if hostport.startswith("["):
        end = hostport.find("]")
        host, rest = (hostport[: end + 1], hostport[end + 1 :]) if end >= 0 else (hostport, "")
    else:
        host, _, port = hostport.partition(":")
        rest = f":{port}" if port else ""
    if rest and not (rest.startswith(":") and _PORT.fullmatch(rest[1:])):
        return None
    return host or None


def url_hosts(url: str) -> list[str]:
    """The host text of one whole URL (`scheme://...`, `http:host`, `//host`) in every reading:
    WHATWG's host as `ada` parses it (already normalized), then the split readings. Empty for a
    URL without a host (`file:///x`, `urn:...`, `mailto:`)."""
    text = url.strip(_EDGES).translate(_INSIDE)
    scheme = _SCHEME.match(text)
    if scheme:
        name, rest = scheme.group(1).lower(), text[scheme.end() :]
    elif text[:2] in ("//", "\\\\", "/\\", "\\/"):
        name, rest = "", text
    else:
        return []
    slashes = len(rest) - len(rest.lstrip("/\\"))
    # Special schemes (and a scheme-relative URL, which a web page resolves) skip any run of
    # slashes; "file:////server/share" names a Windows share.
    if not (name in SPECIAL or not name or slashes == 2 or (name == "file" and slashes >= 4)):
        return []
    found = dict.fromkeys(_whatwg_host(text if name else f"http:{text}"))
    region = _AUTHORITY_END.split(rest[slashes:], maxsplit=1)[0]
    rfc = rest[:slashes] == "//"
    found.update(dict.fromkeys(authority_hosts(region, rfc, whole_host)))
    return list(found)


def _whatwg_host(url: str) -> list[str]:
    """The host the WHATWG parser reads, when it parses the URL and finds one."""
    from ada_url import URL  # imported by the first URL (see `host_names.normalize_host`)

    try:
        host = URL(url).hostname
    except ValueError:
        return []
    return [host] if host else []
