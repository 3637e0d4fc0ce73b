"""Every host a tool call's arguments name (URLs, e-mail, bare names, IP literals) and the allow_hosts check."""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import unquote

from .host_names import host_spellings, is_ip, normalize_host
from .url_readings import authority_hosts, url_hosts, whole_host

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
# then the authority as an RFC 3986 parser reads it: up to the first / ? # (a backslash is an ordinary
# character there), or where free text ends a URL. The pattern starts at the first slash, so a scheme already
# read as the previous URL's host ("http://http://x") still starts a URL of its own. Groups: first slash,
# "file" scheme, ":" of any other scheme, further slashes, authority.
_URL = _Lazy(
    rf"([/\\])(?:(?<=(?i:(file)):[/\\])|(?<=(:)[/\\])|(?<![^{_DELIMITERS}][/\\]))([/\\]++)"
    r"([^\s/?#\"'<>`]*+)"
)
# The host at the front of what follows an authority's user info in free text (a port or prose stays behind).
_HOST_RUN = _Lazy(rf"(?>{_LITERAL}|{_NAME})")
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
_AT = _Lazy(rf"@(?<=[^\s@]@)((?>{_LITERAL}|{_DOMAIN}))(?!@)")
_MAILTO = re.compile(r"(?<![A-Za-z0-9+.\-])(?i:mailto):([^\s?#]+)")
_MAILTO_SCHEME = re.compile(r"(?i:mailto):")
_PATH_TOKEN = _Lazy(rf"{_TOKEN_START}((?>{_DOMAIN}))(?::[0-9]{{1,5}})?/")
_IPV6_CHARS = re.compile(r"[0-9A-Fa-f:.]+(?:%[\w.\-]+)?")
_AUTHORITY_END = re.compile(r"[/?#]")
_SPACE = re.compile(r"\s")
_FOUR_PARTS = re.compile(r"[0-9]+(?:\.[0-9]+){3}")
_WORDS = re.compile(r"[a-z]+")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")


def hosts_of_url(url: str) -> list[str]:
    """Every host one URL (scheme://..., //host, mailto:, bare host[:port][/path]) reaches, in every
    parser's reading, normalized; a reading whose host cannot be normalized is given as written,
    so that no allow list admits it. Empty when the URL names no host (`file:///x`, `urn:...`)."""
    text = url.strip()
    if _MAILTO_SCHEME.match(text):
        return _mail_domains(text[len("mailto:") :])
    raws = url_hosts(text)
    if not raws:
        return _bare_hosts(text, hostish=True)
    return list(dict.fromkeys(host for raw in raws for host in _readings(raw)))


def host_of_url(url: str) -> str | None:
    """The host a browser reaches for one URL (the WHATWG reading), to name it; None without one.
    A check must use `hosts_of_url`: other clients may reach other hosts."""
    return next(iter(hosts_of_url(url)), None)


def _bare_hosts(value: str, hostish: bool, single_label: bool = False) -> list[str]:
    """The hosts of a value written without "scheme://", as a tool that puts "https://" in front
    reads it, in every parser's reading: only names that read as hosts (see `_named_host`), and
    none when the value holds a space, which no host does."""
    if not value or "://" in value or _SPACE.search(value):
        return []
    raws = authority_hosts(_AUTHORITY_END.split(value, maxsplit=1)[0], True, whole_host)
    found = (_named_host(raw, hostish, single_label) for raw in raws)
    return list(dict.fromkeys(host for hosts in found for host in hosts))


def _readings(raw: str) -> tuple[str, ...]:
    """The hosts some client reaches for one host text, or the text as written when none reads it."""
    return host_spellings(raw) or (_written(raw),)


def _written(raw: str) -> str:
    """A host text no parser reads, as it will be shown and compared (never equal to a real host)."""
    written = unicodedata.normalize("NFKC", raw).lower()
    host = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in written[:253])
    return host + "..." if len(written) > 253 else host  # a cut name must not read as a shorter one


def _mail_domains(addresses: str) -> list[str]:
    """The domains of a mailto: body: comma-separated, percent-encoded addresses."""
    domains: dict[str, None] = {}
    for address in unquote(addresses.split("?", 1)[0]).split(","):
        _, at, domain = address.strip().rpartition("@")
        if at and domain:
            domains.update(dict.fromkeys(host_spellings(domain)))
    return list(domains)


def _hostish(key: str | None) -> bool:
    """Whether a JSON key says its value is a host, a URL or an address ("smtp_host", "webhookUrl", "to")."""
    if not key:
        return False
    words = _WORDS.findall(_CAMEL.sub(r"\1 \2", key[:200]).lower())
    return any(word in _HOSTISH_WORDS for word in words)


def _named_host(raw: str, hostish: bool, single_label: bool = False) -> tuple[str, ...]:
    """The hosts a name written without a scheme reaches, if it reads as one: a domain with a letter
    TLD, a dotted quad or a bracketed literal. File-like names ("notes.txt") count only under a
    host-ish key; single labels only where the caller allows."""
    spellings = host_spellings(raw)
    if not spellings or raw.startswith("["):
        return spellings
    host = spellings[0]
    if is_ip(host):
        # Under a host-ish key any IPv4 form is an address; elsewhere "3.11" and "20240101" are
        # numbers, and only four parts or a hex part ("0x7f.1") read as an address.
        folded = unicodedata.normalize("NFKC", raw).translate(_IDEOGRAPHIC_DOT).lower()
        written_as_ip = _FOUR_PARTS.fullmatch(folded) or "0x" in folded
        return spellings if ":" in host or hostish or written_as_ip else ()
    labels = host.split(".")
    if len(labels) == 1:
        return spellings if single_label or host == "localhost" else ()
    tld = labels[-1]
    if not (tld.startswith("xn--") or (tld.isalpha() and len(tld) > 1)):
        return ()
    if tld in _FILE_EXTENSIONS and not hostish:
        return ()
    return spellings


def _url_hosts(text: str, found: dict[str, None]) -> None:
    """Hosts of every URL inside a string written with two or more slashes, with a scheme or
    scheme-relative, in every parser's reading of its authority."""
    for first, file, colon, slashes, region in dict.fromkeys(_URL.regex.findall(text)):
        if file and len(slashes) == 2:
            continue  # "file:///etc": an empty host, then a path ("file:////server" is a Windows share)
        rfc = first + slashes == "//"
        for raw in authority_hosts(region, rfc, _host_run):
            host = normalize_host(raw)
            if (
                not (file or colon)
                and host is not None
                and "." not in host
                and ":" not in host
                and host != "localhost"
            ):
                continue  # "//TODO" in a code comment, not a scheme-relative URL
            _add(found, raw)


def _host_run(text: str) -> str | None:
    """The host at the front of an authority's host part inside free text."""
    match = _HOST_RUN.regex.match(text)
    return match.group() if match else None


def _add(found: dict[str, None], raw: str) -> None:
    """Record a URL's host in every spelling; one that cannot be normalized is recorded as written."""
    for host in _readings(raw):
        found.setdefault(host)


def _text_hosts(text: str, hostish: bool, found: dict[str, None]) -> None:
    """Hosts anywhere inside free text: URLs, e-mail addresses, mailto: and "name.tld/path" tokens."""
    if "//" in text or "\\\\" in text or "/\\" in text or "\\/" in text:
        _url_hosts(text, found)
    lowered = text.lower() if ":" in text else ""
    if any(scheme in lowered for scheme in ("http:", "https:", "ws:", "wss:", "ftp:")):
        for _userinfo, raw in dict.fromkeys(_SPECIAL_SHORT.regex.findall(text)):
            _add(found, raw)
    if "@" in text:
        for raw in dict.fromkeys(_AT.regex.findall(text)):
            found.update(dict.fromkeys(_named_host(raw, hostish)))
    if "mailto:" in lowered:
        for body in dict.fromkeys(_MAILTO.findall(text)):
            found.update(dict.fromkeys(_mail_domains(body)))
    if "/" in text and "." in text:
        for raw in dict.fromkeys(_PATH_TOKEN.regex.findall(text)):
            found.update(dict.fromkeys(_named_host(raw, hostish)))


def _whole_value_hosts(value: str, hostish: bool) -> list[str]:
    """The hosts a whole string value names in every parser's reading: a URL, a bare IPv6 address,
    or "host[:port][/path]" as a tool that puts "https://" in front reads it. Readings no resolver
    can look up are left out (free text records them as written)."""
    if _MAILTO_SCHEME.match(value):
        return []  # read as free text, address by address
    raws = url_hosts(value)
    if raws:
        return [host for raw in raws for host in host_spellings(raw)]
    if value.count(":") >= 2 and _IPV6_CHARS.fullmatch(value):
        return list(host_spellings(value))
    return _bare_hosts(value, hostish, single_label=hostish)


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
    found.update(dict.fromkeys(_whole_value_hosts(value, hostish)))
    _text_hosts(text, hostish, found)
    if value[:1] in "[{" and value[-1:] in "]}":
        try:
            inner = json.loads(value, strict=False)  # raw tabs and newlines too
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
            if host is None or (target is not self._exact and is_ip(host)):
                raise ValueError(f"allow_hosts entry is not a host pattern: {pattern!r}")
            target.add(host)

    def allows(self, host: str) -> bool:
        """Whether the list admits this host (normalized first; something that is not a host is never admitted)."""
        name = normalize_host(host)
        if name is None:
            return False
        if name in self._exact or name in self._domains:
            return True
        if is_ip(name):
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
