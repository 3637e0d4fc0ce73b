"""Whether rendering a URL sends a request off the allow list."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from urllib.parse import urljoin

from lazaretto.proxy.gate.hosts import HostAllowList, hosts_of_url


@cache
def _scheme() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


# Browsers drop tabs and newlines inside a URL and read a backslash as a slash.
_URL_IGNORED = {9: None, 10: None, 13: None}


class UrlJudge:
    """Judges URLs against `allow_hosts`, relative ones against the page's `<base>` if it has one."""

    def __init__(self, allow_hosts: tuple[str, ...], base: str | None = None) -> None:
        self.allow_hosts = allow_hosts
        self.base = base

    def allowed(self, url: str) -> bool:
        """True for a relative URL with no off-list base (nothing leaves the page), or one whose
        host is on the list (one without a host, such as `data:`, is not)."""
        url = url.strip().translate(_URL_IGNORED)
        relative = not _scheme().match(url) and url[:2].replace("\\", "/") != "//"
        if relative:
            if not self.base:
                return True
            url = urljoin(self.base.strip(), url)
        # Every host any URL parser reads: a browser and a fetch library may disagree.
        hosts = hosts_of_url(url)
        return bool(hosts) and not _allow_list(self.allow_hosts).disallowed(hosts)


@lru_cache(maxsize=32)
def _allow_list(patterns: tuple[str, ...]) -> HostAllowList:
    return HostAllowList(patterns)
