"""Which tools are outbound and which results are untrusted, each verdict with its reason."""

import re
from enum import StrEnum
from typing import Any, NamedTuple

from .policy import ServerPolicy, Trust

# Verbs that write, send or reach out. A tool name is split into words, so `get_messages`
# is not outbound while `post_message` and `sendEmail` are.
OUTBOUND_WORDS = frozenset(
    """send post write create update delete remove push publish upload exec execute run shell http
    https request fetch put patch submit share email mail reply comment invite transfer pay deploy
    merge commit edit insert move rename curl wget webhook notify forward broadcast dispatch tweet
    """.split()
)
# Tool names whose first word is one of these read rather than write, even if a later word is
# outbound-sounding (`get_message`, `list_commits`, `read_email`).
READ_WORDS = frozenset("get list read search find query view show describe count lookup".split())
# A tool whose only outbound word is one of these reads what a URL names (`fetch`, `fetch_url`,
# `webFetch`): with allow_hosts, a call that names only allowed hosts is a read, not outbound.
FETCH_WORDS = frozenset({"fetch"})
# Arguments that make a fetch send rather than read: a body, or a method other than GET or HEAD.
_SENDING_KEYS = frozenset({"body", "data", "json", "form", "files", "payload", "content"})
_READING_METHODS = frozenset({"GET", "HEAD"})

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def tool_words(name: str) -> list[str]:
    """`postMessage`, `post_message`, `post-message`, `slack.post` -> lower-case words."""
    return [word.lower() for word in _WORD.findall(name)]


class OutboundBy(StrEnum):
    """What made a tool outbound: it says which policy line would change the verdict."""

    POLICY = "policy"  # servers.NAME.outbound lists it
    ANNOTATIONS = "annotations"  # its MCP annotations do not say it only reads
    NAME = "name"  # an outbound verb in its name
    UNLISTED = "unlisted"  # the server did not list it
    METHOD = "method"  # a request method the policy does not know, or a URI naming a host
    BUILTIN = "builtin"  # a client's built-in tool the hooks judge (a network command)
    FETCH_HOST = "fetch_host"  # a client's built-in fetch of a host not on allow_hosts
    SHELL_PROGRAM = "shell_program"  # a shell program not known to only read locally (tainted)


class ToolVerdict(NamedTuple):
    """How one tool counts for the gate, and why."""

    name: str
    outbound: bool
    outbound_reason: str
    untrusted: bool
    untrusted_reason: str
    annotations: dict | None = None
    reads_urls: bool = False
    """Outbound only for its fetch-like name: see `reads_only`."""
    outbound_by: OutboundBy | None = None
    """What made it outbound (None when it is not)."""

    def as_row(self) -> dict[str, Any]:
        """The shape `store.tools.record_many` takes."""
        return {
            "name": self.name,
            "outbound": self.outbound,
            "outbound_reason": self.outbound_reason,
            "untrusted": self.untrusted,
            "untrusted_reason": self.untrusted_reason,
            "annotations": self.annotations,
        }


def classify(
    server: ServerPolicy, tool: str, annotations: dict | None = None, *, listed: bool = True
) -> ToolVerdict:
    """Apply the policy, then the tool's MCP annotations, then its name. `listed`: False for a
    name missing from the tools the server listed, which is no tool the gate knows."""
    outbound_by, outbound_reason = _outbound(server, tool, annotations, listed)
    outbound = outbound_by is not None
    untrusted, untrusted_reason = untrusted_tool(server, tool)
    listed = "*" in server.outbound or tool in server.outbound
    writes = bool(annotations) and annotations.get("readOnlyHint") is not True
    reads_urls = outbound and not listed and not writes and _fetch_like(tool)
    return ToolVerdict(
        tool,
        outbound,
        outbound_reason,
        untrusted,
        untrusted_reason,
        annotations,
        reads_urls=reads_urls,
        outbound_by=outbound_by,
    )


def _fetch_like(tool: str) -> bool:
    hits = {word for word in tool_words(tool) if word in OUTBOUND_WORDS}
    return bool(hits) and hits <= FETCH_WORDS


def reads_only(arguments: Any) -> bool:
    """Whether a fetch-like call's arguments only read: no body, no method but GET or HEAD."""
    if not isinstance(arguments, dict):
        return arguments is None
    if _SENDING_KEYS & {str(key).lower() for key in arguments}:
        return False
    method = arguments.get("method")
    return method is None or (isinstance(method, str) and method.upper() in _READING_METHODS)


def untrusted_tool(server: ServerPolicy, tool: str | None) -> tuple[bool, str]:
    """Whether a result of `tool` (None: a non-tool surface such as resources/read) is exposure."""
    name = server.name
    if not server.has_entry:
        return True, f"server {name!r} has no policy entry, so it is untrusted"
    if server.trust == Trust.UNTRUSTED:
        return True, f"policy: servers.{name}.trust = untrusted"
    if "*" in server.untrusted or (tool is not None and tool in server.untrusted):
        return (
            True,
            f"policy: servers.{name}.untrusted lists {'*' if '*' in server.untrusted else tool}",
        )
    if server.trust == Trust.TRUSTED:
        return False, f"policy: servers.{name}.trust = trusted"
    if server.untrusted:
        return False, f"policy: servers.{name}.untrusted does not list {tool or 'this surface'}"
    # An entry that only lists outbound tools says nothing about trust: stay closed.
    return True, f"policy: servers.{name} does not say it is trusted"


def untrusted_task(server: ServerPolicy, tool: str | None) -> tuple[bool, str]:
    """Whether a task's result is exposure: as its tool's, or, when the tool that started it is
    not known (it was started through another connection), as any tool's of the server."""
    untrusted, why = untrusted_tool(server, tool)
    if tool is not None or untrusted or not server.untrusted:
        return untrusted, why
    return True, (
        f"the tool that started the task is not known, and servers.{server.name}.untrusted lists"
        " tools"
    )


def _outbound(
    server: ServerPolicy, tool: str, annotations: dict | None, listed: bool
) -> tuple[OutboundBy | None, str]:
    """What makes the tool outbound (None: nothing does), and the reason in words."""
    name = server.name
    if "*" in server.outbound or tool in server.outbound:
        return (
            OutboundBy.POLICY,
            f"policy: servers.{name}.outbound lists {'*' if '*' in server.outbound else tool}",
        )
    if tool in server.not_outbound:
        return None, f"policy: servers.{name}.not_outbound lists {tool}"
    if not listed:
        # A lenient server may run it as a listed tool (its case or spaces folded), one the
        # policy or the annotations may say writes.
        return OutboundBy.UNLISTED, (
            f"the server did not list {tool!r}, so the gate cannot tell which tool it runs"
        )
    by_name = _outbound_by_name(tool)
    if annotations:
        read_only = annotations.get("readOnlyHint") is True
        if not read_only:
            hint = (
                "destructiveHint"
                if annotations.get("destructiveHint") is not False
                else "openWorldHint"
            )
            return (
                OutboundBy.ANNOTATIONS,
                f"annotations: not readOnlyHint ({hint} {annotations.get(hint, 'default true')})",
            )
        # The MCP spec: annotations from an untrusted server must not relax a decision.
        if server.trust == Trust.TRUSTED or by_name is None:
            return None, "annotations: readOnlyHint = true"
        return (
            OutboundBy.NAME,
            f"{by_name}; its readOnlyHint is ignored because the server is not trusted",
        )
    if by_name:
        return OutboundBy.NAME, by_name
    return None, f"name {tool!r} has no outbound verb and no annotation says it writes"


def _outbound_by_name(tool: str) -> str | None:
    words = tool_words(tool)
    if words and words[0] in READ_WORDS:
        return None
    hits = [word for word in words if word in OUTBOUND_WORDS]
    return f"name {tool!r} contains the outbound verb {hits[0]!r}" if hits else None
