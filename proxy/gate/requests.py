"""What a client request sends to the server, and whether the gate counts it as outbound.

Every request a client sends can carry data out, not only `tools/call`: a resource URI, a prompt's
arguments, a completion's value, a method nobody documented. So every request is judged as one
*call*: a name (the tool, or the method), the arguments a person approves (the params without
their `_meta`, which changes from one retry to the next), and a verdict. Methods the protocol
defines for reading or for running the session are not outbound; a resource whose URI names a
network host is a fetch with arguments, so it is; a method the policy does not know is outbound.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..classify import OutboundBy, ToolVerdict, untrusted_tool
from ..policy import ServerPolicy
from .hosts import hosts_of_url

# Client requests that read the server's data or run the session, and carry no data of the
# user's out beyond their own arguments (which the host check still reads).
READING_METHODS = frozenset(
    {
        "initialize",
        "server/discover",
        "ping",
        "tools/list",
        "prompts/list",
        "prompts/get",
        "resources/list",
        "resources/templates/list",
        "completion/complete",
        "logging/setLevel",
        "tasks/get",
        "tasks/list",
        "tasks/result",
        "tasks/cancel",
    }
)
# Reads addressed by a URI: outbound when the URI names a network host, as fetching it would.
RESOURCE_METHODS = frozenset({"resources/read", "resources/subscribe", "resources/unsubscribe"})
# The param each method names what it runs or reads by, which the gate judges: a server may read a
# value that is no string as one (JavaScript takes ["post"] for "post" as a key, and `new URL`
# reads ["https://host/"] as the URL) while the gate judged another, so it must be a string.
NAMING_PARAMS = {
    "tools/call": "name",
    "prompts/get": "name",
    **dict.fromkeys(sorted(RESOURCE_METHODS), "uri"),
}
# Notifications a client sends to run the session; any other one is judged like a request.
SESSION_NOTIFICATIONS = frozenset(
    {
        "notifications/initialized",
        "notifications/cancelled",
        "notifications/progress",
        "notifications/roots/list_changed",
    }
)


@dataclass(slots=True)  # not frozen: a frozen init costs most of a call's classification
class Call:
    """One client request as the gate judges it."""

    name: str  # the tool for tools/call, else the method
    verdict: ToolVerdict
    arguments: Any  # what an approval is bound to
    scanned: Any  # what the host check reads: everything the request sends


def scanned_params(params: dict) -> dict:
    """The params as the host check reads them. A `_meta` key's prefix is the reverse-DNS name of
    whoever defined the key (`io.modelcontextprotocol/protocolVersion`), not a destination: only
    the name after it is read, with every value."""
    meta = params.get("_meta")
    if not isinstance(meta, dict):
        return params
    names = {
        key.rpartition("/")[2] if isinstance(key, str) else key: value
        for key, value in meta.items()
    }
    return {**params, "_meta": names}


def call_of(
    server: ServerPolicy, method: str, params: dict, tool_verdict: Callable[[str], ToolVerdict]
) -> Call:
    """The call a request makes (`tool_verdict` classifies a tool by the server's annotations)."""
    if method == "tools/call":
        raw_name = params.get("name")
        name = raw_name if isinstance(raw_name, str) else ""
        return Call(name, tool_verdict(name), params.get("arguments"), scanned_params(params))
    arguments = {key: value for key, value in params.items() if key != "_meta"}
    return Call(method, _method_verdict(server, method, params), arguments, scanned_params(params))


def network_host(uri: str) -> str | None:
    """The host a URI would reach over the network: any host of a web URL, and a host with a dot
    (or an IP literal) under another scheme; None for `file:`, `memory://notes` and the like."""
    web = uri.lstrip().lower().startswith(("http:", "https:", "ws:", "wss:", "ftp:", "//"))
    # Any parser's reading counts: a client may reach a host another parser does not see.
    return next((h for h in hosts_of_url(uri) if web or "." in h or ":" in h), None)


def _method_verdict(server: ServerPolicy, method: str, params: dict) -> ToolVerdict:
    outbound_by, reason = _method_outbound(server, method, params)
    outbound = outbound_by is not None
    untrusted, untrusted_reason = untrusted_tool(server, None)
    # A resource at a URL is read as a fetch is: a read when allow_hosts names its host.
    reads_urls = outbound_by is OutboundBy.METHOD and method in RESOURCE_METHODS
    return ToolVerdict(
        method,
        outbound,
        reason,
        untrusted,
        untrusted_reason,
        reads_urls=reads_urls,
        outbound_by=outbound_by,
    )


def _method_outbound(
    server: ServerPolicy, method: str, params: dict
) -> tuple[OutboundBy | None, str]:
    name = server.name
    if "*" in server.outbound or method in server.outbound:
        return OutboundBy.POLICY, f"policy: servers.{name}.outbound lists {method}"
    if method in server.not_outbound:
        return None, f"policy: servers.{name}.not_outbound lists {method}"
    if method in READING_METHODS:
        return None, f"{method} reads from the server"
    if method in RESOURCE_METHODS:
        uri = params.get("uri")
        host = network_host(uri) if isinstance(uri, str) else None
        if host is None:
            return None, f"{method} names a resource on the server, not a network host"
        return OutboundBy.METHOD, (
            f"its URI names the network host {host}, and reading a URL can carry data out"
        )
    return OutboundBy.METHOD, (
        f"the policy does not know the method {method}, so it counts as outbound"
    )
