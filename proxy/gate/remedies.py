"""What would change a refusal, named in the refusal itself: the policy line, or the command.

A refusal that only says no leaves the person guessing which line of which file decided it. Each
one names the lines of the policy file the proxy read that would have let the call through
(marking the tainting server trusted, taking the tool off `outbound`, adding it to
`not_outbound`, a host to `allow_hosts`), and the commands that act on this one session.
"""

from collections.abc import Iterable
from typing import NamedTuple

from ..classify import OutboundBy, ToolVerdict, untrusted_tool
from ..hooks.clients import CLIENTS
from ..mcp.jsonrpc import ErrorReason
from ..policy import Policy, Trust, dotted

MAX_TRUST_LINES = 3
"""Tainting servers named one by one; past this many, `lazaretto status` lists the rest."""
MAX_HOSTS_NAMED = 5
"""Hosts named in a sentence (`data.hosts` holds them all)."""
UNTAINT = "a person clearing this session's taint with `lazaretto untaint`"
RESTART = (
    " (proxies read the policy as they start: restart the client's MCP servers after a change)"
)


class Remedies(NamedTuple):
    """What would change a refusal: lines of the policy file, and what a person can do."""

    file: str = ""
    lines: tuple[str, ...] = ()
    """Each a line of the policy file, as `X under [servers.NAME], if ...`."""
    actions: tuple[str, ...] = ()

    def sentence(self) -> str:
        """` What would change it: in FILE, A; or B; or C.`, or `` when nothing would."""
        parts = [f"in {self.file}, {'; or '.join(self.lines)}{RESTART}"] if self.lines else []
        parts += self.actions
        return f" What would change it: {'; or '.join(parts)}." if parts else ""

    def as_list(self) -> list[str]:
        """One whole phrase each, the file named in each (`error.data.remedies`)."""
        return [f"in {self.file}: {line}" for line in self.lines] + list(self.actions)


def policy_file(policy: Policy) -> str:
    """The policy file as a remedy names it, saying so when there is none yet."""
    if policy.source is None:
        return "the policy file"
    if policy.read_from_source:
        return str(policy.source)
    # Said from what was read, not looked up again: a station judging a hook's call may not be
    # allowed to look into the person's config directory.
    return f"{policy.source} (none yet: `lazaretto policy init` writes one)"


def named_hosts(hosts: list[str]) -> str:
    """`a.example, b.example and 3 more`."""
    shown = ", ".join(hosts[:MAX_HOSTS_NAMED])
    more = len(hosts) - MAX_HOSTS_NAMED
    return f"{shown} and {more} more" if more > 0 else shown


def remedies(
    policy: Policy,
    server: str,
    code: ErrorReason,
    verdict: ToolVerdict,
    *,
    hosts: Iterable[str] = (),
    taint_sources: Iterable[dict] = (),
    has_allow_list: bool = False,
) -> Remedies:
    """The policy lines and commands that would change the refusal `code` of `verdict`."""
    where = policy_file(policy)
    named = list(hosts)
    if code == ErrorReason.HOST_NOT_ALLOWED:
        line = f"{named_hosts(named)} added to `allow_hosts`, if the agent may reach them"
        return Remedies(where, (line,))
    if code == ErrorReason.HOST_CHECK_FAILED:
        return Remedies(
            where, actions=(f"only an approval (`allow_hosts` in {where} asks for it)",)
        )
    if code == ErrorReason.STORE_UNAVAILABLE:
        return Remedies(
            where, actions=("the store usable again (`lazaretto doctor` says why not)",)
        )
    lines = _trust_lines(policy, taint_sources)
    lines += _outbound_lines(policy, server, verdict, named, has_allow_list)
    return Remedies(where, tuple(lines), (UNTAINT,))


def trust_line(policy: Policy, server: str, tool: str | None) -> str | None:
    """The policy line that would make `server`'s results (of `tool`) trusted, or None when the
    policy trusts them already (what tainted was a withheld field, which taints whatever the trust)."""
    entry = policy.server(server)
    untrusted, _ = untrusted_tool(entry, tool)
    if not untrusted:
        return None
    name = dotted((server,))
    listed = "*" if "*" in entry.untrusted else tool if tool in entry.untrusted else None
    taken_out = f'"{listed}" taken out of `servers.{name}.untrusted`' if listed else ""
    if entry.trust == Trust.TRUSTED:
        return taken_out
    trusted = f'`trust = "trusted"` under `[servers.{name}]`'
    return f"{trusted} and {taken_out}" if taken_out else trusted


def _trust_lines(policy: Policy, taint_sources: Iterable[dict]) -> list[str]:
    lines: dict[str, str] = {}
    for source in taint_sources:
        server = source.get("server")
        # The hooks record a client's own tools (WebFetch, a network command) under the
        # client's name: no policy entry judges those.
        if not isinstance(server, str) or server in CLIENTS or server in lines:
            continue
        line = trust_line(policy, server, source.get("tool"))
        if line:
            lines[server] = line
    named = [
        f"{line}, if everything {server} returns is yours"
        for server, line in list(lines.items())[:MAX_TRUST_LINES]
    ]
    if len(lines) > MAX_TRUST_LINES:
        named.append(f"the same for {len(lines) - MAX_TRUST_LINES} more (`lazaretto status`)")
    return named


def _outbound_lines(
    policy: Policy, server: str, verdict: ToolVerdict, hosts: list[str], has_allow_list: bool
) -> list[str]:
    tool, name = verdict.name, dotted((server,))
    by = verdict.outbound_by
    if by is OutboundBy.POLICY:
        if "*" in policy.server(server).outbound:
            return [f'`servers.{name}.outbound` naming the tools that write instead of "*"']
        return [f'"{tool}" taken out of `servers.{name}.outbound`']
    if by is OutboundBy.FETCH_HOST:
        return [f"{named_hosts(hosts) if hosts else 'its host'} added to `allow_hosts`"]
    if by is OutboundBy.SHELL_PROGRAM:
        return ["the program added to `taint.read_only_programs`, if it only reads locally"]
    if by is None or by is OutboundBy.BUILTIN:
        return []
    lines = []
    if verdict.reads_urls and not has_allow_list:
        lines.append("the sites it may read listed in `allow_hosts` (a fetch of them reads)")
    lines.append(f'`not_outbound = ["{tool}"]` under `[servers.{name}]`, if it sends nothing out')
    return lines
