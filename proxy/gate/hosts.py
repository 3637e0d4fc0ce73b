"""Every host a tool call's arguments name (URLs, e-mail, bare names, IP literals) and the allow_hosts check."""

from __future__ import annotations

import functools
import ipaddress
import json
import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import unquote

# A walk over one call's arguments stops (and fails closed) past this many units:
# one per JSON node plus one per character of every string scanned.
MAX_WORK = 50_000_000


class HostScanTooLarge(ValueError):
    """The arguments are too large to enumerate their hosts; the caller must refuse the call."""


class _Lazy:
    """A pattern compiled on first use: most processes that import this module (a hook's check of a
    shell command, a proxy starting) never look for a host, and compiling these took about 2 ms of each."""

    def __init__(self, source: str) -> None:
        self.source = source

    @functools.cached_property
    def regex(self) -> re.Pattern:
        """The compiled pattern."""
        return re.compile(self.source)


# Schemes whose URLs always have a host, which read any run of / or \ before it (WHATWG "special").
_SPECIAL = frozenset({"http", "https", "ws", "wss", "ftp"})

# Whole values ending in these look like file names rather than hosts, unless a host-ish key holds them.
_FILE_EXTENSIONS = frozenset(
    "py md txt json js ts tsx jsx mjs rs go sh yml yaml toml lock html htm css csv xml pdf png jpg jpeg gif"
    " svg ini cfg conf log c h cpp hpp java rb php sql ipynb".split()
)

_HOSTISH_WORDS = frozenset(
    "host hostname hosts domain domains server servers endpoint endpoints url urls uri uris href src link"
    " address addresses addr to cc bcc recipient recipients email emails mail origin remote proxy webhook"
    " site".split()
)

# Characters that IDNA mapping removes (soft hyphen, zero-width space, word joiner, variation selectors, BOM...):
# dropping them here keeps "git<soft hyphen>hub.com" equal to what a resolver would look up.
_IGNORED = dict.fromkeys(
    [0xAD, 0x34F, 0x200B, 0x2060, 0xFEFF, *range(0x180B, 0x1810), *range(0xFE00, 0xFE10)]
)
# The ideographic full stop survives NFKC (full-width and half-width stops become it); resolvers read it as a dot.
_IDEOGRAPHIC_DOT = {0x3002: "."}

# One label character: %, -, _, ASCII letters and digits, or any non-ASCII character that is not a space or a dot.
_HC = (
    r"[^\x00-\x24\x26-\x2c\x2e\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f\s\u2024\u3002\ufe52\uff0e\uff61]"
)
# Characters that map to "." (the ASCII dot, the ideographic, full-width, half-width and small full stops).
_DOT = r"[.\u2024\u3002\ufe52\uff0e\uff61]"
# Label and dot classes are disjoint, so these never backtrack more than linearly.
_NAME = rf"{_HC}+(?:{_DOT}{_HC}+)*"
# Outside URLs a name is matched only up to DNS limits (63-character labels, 127 of them), so scanning a run
# of "a.a.a..." from one start stops early instead of crossing the whole run.
_DOMAIN = rf"{_HC}{{1,63}}(?:{_DOT}{_HC}{{1,63}}){{1,126}}"
_LITERAL = r"\[[0-9A-Za-z:.%]*\]"
# Not followed by an optional ":port" and then "@": the name before that is user info, not the host.
_NOT_USERINFO = r"(?!(?::[^\s/\\?#@:]*)?@)"
# Characters after which a "//host" or a "host/path" token may start inside free text (or the text's start).
_DELIMITERS = r"\s\"'(<\[{=,;|`>"
_TOKEN_START = rf"(?<![^{_DELIMITERS}])"

# Two or more slashes (or backslashes) after a scheme's ":" or where a token starts (scheme-relative "//host"),
# optional user info up to the last "@", then the host. The pattern starts at the first slash, so a scheme
# already read as the previous URL's host ("http://http://x") still starts a URL of its own. Groups: "file"
# scheme, ":" of any other scheme, further slashes, user info, host. Host and user info are atomic so that a
# failed check never retries a shorter, wrong host.
_URL = _Lazy(
    rf"[/\\](?:(?<=(?i:(file)):[/\\])|(?<=(:)[/\\])|(?<![^{_DELIMITERS}][/\\]))([/\\]++)"
    rf"((?>(?:[^\s/\\?#@]*@)+))?((?>{_LITERAL}|{_NAME}))(?(4)|{_NOT_USERINFO})"
)
# Special schemes with fewer than two slashes ("http:evil.example", "https:/evil.example"). The pattern starts
# at ":" (one fixed-width look-behind per scheme length). User info here is at most "user:password@", so
# every attempt scans a bounded stretch.
_SPECIAL_SHORT = _Lazy(
    r":(?:"
    + "|".join(
        rf"(?<=(?<![A-Za-z0-9+.\-])(?i:{names}):)" for names in ("ws", "wss|ftp", "http", "https")
    )
    + rf")(?![/\\]{{2}})[/\\]?((?>[^\s/\\?#@:]*(?::[^\s/\\?#@:]*)?@))?((?>{_LITERAL}|{_NAME}))"
    rf"(?(1)|{_NOT_USERINFO})"
)
# An e-mail domain: after a local part, not followed by another "@" (that one is user info inside a URL).
# Starts with the literal "@" so the engine skips ahead to candidates instead of trying every position.
_AT = _Lazy(rf"@(?<=[^\s@\\]@)((?>{_LITERAL}|{_DOMAIN}))(?!@)")
_MAILTO = re.compile(r"(?<![A-Za-z0-9+.\-])(?i:mailto):([^\s?#]+)")
_PATH_TOKEN = _Lazy(rf"{_TOKEN_START}((?>{_DOMAIN}))(?::[0-9]{{1,5}})?/")
# A whole value that is "host", "host:port" or either followed by a path, query or fragment; only the
# first _BARE_HEAD characters are read, as no host is longer.
_BARE = _Lazy(rf"((?>{_LITERAL}|{_NAME}))(?::[0-9]{{1,5}})?(?=[/?#]|\Z)")
_BARE_HEAD = 253 * 9 + 8
_IPV6_CHARS = re.compile(r"[0-9A-Fa-f:.]+(?:%[\w.\-]+)?")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_DOTTED_QUAD = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}")
_IPV4_PART = re.compile(r"0x[0-9a-f]*|[0-9]+")
_ASCII_LABEL = re.compile(r"[a-z0-9_\-]+")
_WORDS = re.compile(r"[a-z]+")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")


@functools.lru_cache(maxsize=4096)
def normalize_host(host: str) -> str | None:
    """Lower-case, NFKC, IDNA->punycode (xn--), trailing dot dropped, IPv6 without brackets; None if not a host."""
    text = host.strip()
    if len(text) > 253 * 9:
        return None  # longer than any name, even with every character percent-encoded
    if text.startswith("[") and text.endswith("]"):
        return _ip_literal(text[1:-1])
    if "%" in text:
        text = unquote(text)
    if ":" in text:
        return _ipv6(text)
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).lower())
    text = text.translate(_IGNORED).translate(_IDEOGRAPHIC_DOT)
    text = text.removesuffix(".")
    if not text or len(text) > 253:
        return None
    labels = text.split(".")
    if _IPV4_PART.fullmatch(labels[-1]):
        # WHATWG reads a name that ends in a number as an IPv4 address, in any of its old forms.
        return _ipv4(labels)
    encoded = []
    for label in labels:
        if not label.isascii():
            if any(_bad_in_label(c) for c in label):
                return None
            label = "xn--" + label.encode("punycode").decode("ascii")
        elif not _ASCII_LABEL.fullmatch(label):
            return None
        if len(label) > 63:
            return None
        encoded.append(label)
    return ".".join(encoded)


def _bad_in_label(char: str) -> bool:
    """A character no resolvable label holds: a control, format or space character, or ASCII punctuation."""
    return unicodedata.category(char)[0] in "CZ" or (
        char.isascii() and not _ASCII_LABEL.fullmatch(char)
    )


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


def _ipv4(labels: list[str]) -> str | None:
    """Dotted quad of a WHATWG IPv4 host (1 to 4 parts, each decimal, 0-octal or 0x-hex), None when invalid."""
    if len(labels) > 4:
        return None
    numbers = []
    for part in labels:
        if not _IPV4_PART.fullmatch(part):
            return None
        if part.startswith("0x"):
            digits, base = part[2:] or "0", 16
        elif len(part) > 1 and part.startswith("0"):
            digits, base = part[1:], 8
        else:
            digits, base = part, 10
        try:
            numbers.append(int(digits, base))
        except ValueError:
            return None
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        return None
    value = numbers[-1] + sum(n << (8 * (3 - i)) for i, n in enumerate(numbers[:-1]))
    return str(ipaddress.IPv4Address(value))


def _is_ip(host: str) -> bool:
    """Whether a normalized host is an IP address rather than a name."""
    return ":" in host or host.replace(".", "").isdigit()


def _authority_host(raw: str) -> str | None:
    """The host of a URL authority's host part, after percent-decoding (so "%40" splits user info like "@")."""
    host = raw
    if "%" in host and not host.startswith("["):
        host = unquote(host).rpartition("@")[2]
    return normalize_host(host)


def host_of_url(url: str) -> str | None:
    """The normalized host of one URL-ish string (scheme://..., //host, mailto:, bare host[:port][/path]) or None."""
    # Parsers drop surrounding controls and spaces, and tabs and newlines anywhere.
    text = url.strip("".join(map(chr, range(0x21)))).translate({9: None, 10: None, 13: None})
    bare = _bare_host(text)
    if bare:
        return normalize_host(bare)
    scheme = _SCHEME.match(text)
    if scheme:
        name, rest = scheme.group(1).lower(), text[scheme.end() :]
        if name == "mailto":
            return next(iter(_mail_domains(rest)), None)
        slashes = len(rest) - len(rest.lstrip("/\\"))
        # Special schemes skip any run of slashes; "file:////server/share" names a Windows share.
        if not (name in _SPECIAL or slashes == 2 or (name == "file" and slashes >= 4)):
            return None
        rest = rest[slashes:]
    elif text[:2] in ("//", "\\\\", "/\\", "\\/"):
        rest = text.lstrip("/\\")
    else:
        return None
    authority = re.split(r"[/\\?#]", rest, maxsplit=1)[0]
    hostport = authority.rpartition("@")[2]
    if hostport.startswith("["):
        host = hostport[: hostport.find("]") + 1] if "]" in hostport else hostport
    else:
        host = hostport.split(":", 1)[0]
    return _authority_host(host) if host else None


def _bare_host(value: str) -> str | None:
    """The host part of a whole value written "host[:port][/path]", as written, or None."""
    head = value[:_BARE_HEAD]
    match = _BARE.regex.match(head)
    if match is None or (match.end() == len(head) < len(value)):
        return None
    return match.group(1)


def _mail_domains(addresses: str) -> list[str]:
    """The domains of a mailto: body: comma-separated, percent-encoded addresses."""
    domains = []
    for address in unquote(addresses.split("?", 1)[0]).split(","):
        _, at, domain = address.strip().rpartition("@")
        host = normalize_host(domain) if at and domain else None
        if host:
            domains.append(host)
    return domains


def _hostish(key: str | None) -> bool:
    """Whether a JSON key says its value is a host, a URL or an address ("smtp_host", "webhookUrl", "to")."""
    if not key:
        return False
    words = _WORDS.findall(_CAMEL.sub(r"\1 \2", key[:200]).lower())
    return any(word in _HOSTISH_WORDS for word in words)


def _named_host(raw: str, hostish: bool, single_label: bool = False) -> str | None:
    """A host written without a scheme, if it reads as one: a domain with a letter TLD, or a dotted quad.

    File-like names ("notes.txt") count only under a host-ish key; single labels only where the caller allows.
    """
    host = normalize_host(raw)
    if host is None:
        return None
    if _is_ip(host):
        folded = unicodedata.normalize("NFKC", raw).translate(_IDEOGRAPHIC_DOT)
        return host if ":" in host or _DOTTED_QUAD.fullmatch(folded) else None
    labels = host.split(".")
    if len(labels) == 1:
        return host if single_label or host == "localhost" else None
    tld = labels[-1]
    if not (tld.startswith("xn--") or (tld.isalpha() and len(tld) > 1)):
        return None
    if tld in _FILE_EXTENSIONS and not hostish:
        return None
    return host


def _url_hosts(text: str, found: dict[str, None]) -> None:
    """Hosts of every URL inside a string written with two or more slashes, with a scheme or scheme-relative."""
    for file, colon, slashes, _userinfo, raw in dict.fromkeys(_URL.regex.findall(text)):
        if file and len(slashes) == 2:
            continue  # "file:///etc": an empty host, then a path ("file:////server" is a Windows share)
        host = _authority_host(raw)
        if (
            not (file or colon)
            and host is not None
            and "." not in host
            and ":" not in host
            and host != "localhost"
        ):
            continue  # "//TODO" in a code comment, not a scheme-relative URL
        _add_url_host(found, raw, host)


def _add_url_host(found: dict[str, None], raw: str, host: str | None) -> None:
    """Record a URL's host; one that cannot be normalized is recorded as written, so no allow list matches it."""
    if host is None:
        written = unicodedata.normalize("NFKC", raw).lower()
        host = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in written[:253])
        if len(written) > 253:
            host += "..."  # a cut name must not read as a shorter, valid one
    found.setdefault(host)


def _text_hosts(text: str, hostish: bool, found: dict[str, None]) -> None:
    """Hosts anywhere inside free text: URLs, e-mail addresses, mailto: and "name.tld/path" tokens."""
    if "//" in text or "\\\\" in text or "/\\" in text or "\\/" in text:
        _url_hosts(text, found)
    lowered = text.lower() if ":" in text else ""
    if any(scheme in lowered for scheme in ("http:", "https:", "ws:", "wss:", "ftp:")):
        for _userinfo, raw in dict.fromkeys(_SPECIAL_SHORT.regex.findall(text)):
            _add_url_host(found, raw, _authority_host(raw))
    if "@" in text:
        for raw in dict.fromkeys(_AT.regex.findall(text)):
            host = _named_host(raw, hostish) if not raw.startswith("[") else normalize_host(raw)
            if host:
                found.setdefault(host)
    if "mailto:" in lowered:
        for body in dict.fromkeys(_MAILTO.findall(text)):
            for host in _mail_domains(body):
                found.setdefault(host)
    if "/" in text and "." in text:
        for raw in dict.fromkeys(_PATH_TOKEN.regex.findall(text)):
            host = _named_host(raw, hostish)
            if host:
                found.setdefault(host)


def _whole_value_host(value: str, hostish: bool) -> str | None:
    """The host a whole string value names: a URL, "host[:port][/path]", or a bare IP literal."""
    raw = _bare_host(value)
    if raw:
        return (
            normalize_host(raw)
            if raw.startswith("[")
            else _named_host(raw, hostish, single_label=hostish)
        )
    if value.count(":") >= 2 and _IPV6_CHARS.fullmatch(value):
        return _ipv6(value)
    if value.startswith(("/", "\\")) or _SCHEME.match(value):
        return host_of_url(value)
    return None


class _Budget:
    """Work spent on one walk; past the limit the walk raises rather than answering partly."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self, units: int) -> None:
        self.left -= units
        if self.left < 0:
            raise HostScanTooLarge(f"tool arguments exceed {MAX_WORK} units of host-scanning work")


def _scan_string(
    text: str, key: str | None, found: dict[str, None], pending: list, budget: _Budget
) -> None:
    """Hosts in one string: as a whole value, as free text, and inside it when it holds JSON."""
    budget.spend(len(text))
    hostish = _hostish(key)
    value = text.strip()
    host = _whole_value_host(value, hostish)
    if host:
        found.setdefault(host)
    _text_hosts(text, hostish, found)
    if value[:1] in "[{" and value[-1:] in "]}":
        try:
            inner = json.loads(value)
        except (ValueError, RecursionError):
            return
        pending.append((inner, key))


def hosts_in(value: object) -> list[str]:
    """Every host named anywhere in a JSON value, normalized, deduplicated, in first-seen order.

    Raises HostScanTooLarge when the value is too large to scan completely.
    """
    found: dict[str, None] = {}
    budget = _Budget(MAX_WORK)
    # An explicit stack of (value, key that holds it), pushed in reverse so items come out in document order.
    pending: list[tuple[object, str | None]] = [(value, None)]
    while pending:
        item, key = pending.pop()
        budget.spend(1)
        if isinstance(item, str):
            _scan_string(item, key, found, pending, budget)
        elif isinstance(item, dict):
            for name, child in reversed(list(item.items())):
                pending.append((child, name if isinstance(name, str) else key))
                if isinstance(name, str):
                    pending.append((name, None))
        elif isinstance(item, (list, tuple)):
            pending.extend((child, key) for child in reversed(item))
    return list(found)


class HostAllowList:
    """The hosts a tool call may name: "github.com" exactly, "*.github.com" its subdomains, ".github.com" both."""

    def __init__(self, patterns: Iterable[str]) -> None:
        self._exact: set[str] = set()
        self._subdomains_of: set[str] = set()
        self._domains: set[str] = set()
        for pattern in patterns:
            text = pattern.strip()
            if text.startswith("*."):
                target, rest = self._subdomains_of, text[2:]
            elif text.startswith("."):
                target, rest = self._domains, text[1:]
            else:
                target, rest = self._exact, text
            host = normalize_host(rest) if "*" not in rest else None
            # A pattern that names no host is an error, not an entry to skip: skipping could empty the list,
            # and an empty list switches the check off.
            if host is None or (target is not self._exact and _is_ip(host)):
                raise ValueError(f"allow_hosts entry is not a host pattern: {pattern!r}")
            target.add(host)

    def allows(self, host: str) -> bool:
        """Whether the list admits this host (normalized first; something that is not a host is never admitted)."""
        name = normalize_host(host)
        if name is None:
            return False
        if name in self._exact or name in self._domains:
            return True
        if _is_ip(name):
            return False
        labels = name.split(".")
        for i in range(1, len(labels)):
            parent = ".".join(labels[i:])
            if parent in self._subdomains_of or parent in self._domains:
                return True
        return False

    def disallowed(self, hosts: Iterable[str]) -> list[str]:
        """The hosts the list does not admit, deduplicated, in the order given."""
        return [host for host in dict.fromkeys(hosts) if not self.allows(host)]

    def __bool__(self) -> bool:
        return bool(self._exact or self._subdomains_of or self._domains)
