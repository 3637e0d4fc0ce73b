"""The gate every client request passes before the server sees it: the store, hosts, then taint."""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from lazaretto.store import StoreUnavailable

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

from ..classify import ToolVerdict, reads_only
from ..mcp.jsonrpc import REFUSED, ErrorReason, error_response
from ..policy import Policy
from .hosts import HostAllowList, HostScanTooLarge, hosts_in
from .remedies import Remedies, named_hosts, remedies


class Refusal(NamedTuple):
    """Why a call was refused, what would change it, and the token that can let it through once."""

    code: ErrorReason
    reason: str
    token: str | None
    remedies: Remedies = Remedies()
    """The policy lines and commands that would change the verdict."""
    hosts: tuple[str, ...] = ()
    """The hosts not on allow_hosts, for a `host_not_allowed` refusal."""

    def response(self, request_id: Any, server: str, tool: str) -> dict:
        """The JSON-RPC error the agent receives: no argument is echoed back but the refused hosts."""
        if self.token:
            how = (
                f" A person can let this exact call through once with: lazaretto approve {self.token}"
                " (tell the user; the agent cannot approve it)."
            )
        else:
            how = " No approval token could be issued; tell the user."
        change = self.remedies.sentence()
        data: dict[str, Any] = {
            "reason": self.code,
            "token": self.token,
            "server": server,
            "tool": tool,
            "remedies": self.remedies.as_list(),
        }
        if self.code == ErrorReason.HOST_NOT_ALLOWED:
            data["hosts"] = list(self.hosts)
        return error_response(
            request_id,
            REFUSED,
            f"lazaretto refused {server}/{tool}: {self.reason}.{change}{how}",
            data,
        )


@dataclass(frozen=True)
class _Verdict:
    """What `_verdict` found: no code lets the call through."""

    code: ErrorReason | None = None
    reason: str = ""
    details: dict = field(default_factory=dict)
    """What the blocked call's record keeps (hosts, the outbound and taint reasons)."""
    taint_sources: tuple[dict, ...] = ()


PASS = _Verdict()


class Gate:
    """Checks one server's calls against the policy and the session's taint."""

    def __init__(self, store: "StoreAPI", policy: Policy, server: str, session: str) -> None:
        self._store = store
        self._policy = policy
        self._server = server
        self._session = session
        self._allow = HostAllowList(policy.allow_hosts)
        self._has_allow_list = bool(self._allow)  # asked of every call; the policy is fixed

    def check(
        self,
        verdict: ToolVerdict,
        arguments: Any,
        request_id: Any = None,
        *,
        scanned: Any = None,
        unknown_hosts: str | None = None,
    ) -> Refusal | None:
        """None lets the call through; a Refusal (with a token for a person) is answered instead.

        `arguments` is what an approval is bound to; `scanned`, if given, is everything the request
        sends (its whole params), read for hosts instead. `unknown_hosts`: why the caller cannot
        tell every host the call reaches (a hook reading a shell command whose destination is only
        known when it runs); with allow_hosts, that refuses."""
        found = self._verdict(
            verdict,
            arguments if scanned is None else scanned,
            unknown_hosts,
            reading=verdict.reads_urls and reads_only(arguments),
        )
        if found.code is None:
            return None
        if found.code == ErrorReason.STORE_UNAVAILABLE:
            return self._refusal(verdict, found, None)  # no token can be recorded either
        try:
            if self._store.blocked.consume_approved(
                session=self._session, server=self._server, tool=verdict.name, arguments=arguments
            ):
                return None
            token = self._store.blocked.record(
                session=self._session,
                server=self._server,
                tool=verdict.name,
                arguments=arguments,
                reason_code=found.code,
                reason=found.reason,
                request_id=None if request_id is None else str(request_id),
                ttl_minutes=self._policy.approval_ttl_minutes,
                **found.details,
            )
        except StoreUnavailable as exc:
            unrecorded = _Verdict(
                found.code,
                f"{found.reason}; and the store cannot be written ({exc})",
                found.details,
                found.taint_sources,
            )
            return self._refusal(verdict, unrecorded, None)
        return self._refusal(verdict, found, token)

    def judge(self, verdict: ToolVerdict, scanned: Any) -> Refusal | None:
        """The same verdict as `check`, for what cannot be answered or approved (a notification)."""
        found = self._verdict(verdict, scanned)
        return None if found.code is None else self._refusal(verdict, found, None)

    def _refusal(self, verdict: ToolVerdict, found: _Verdict, token: str | None) -> Refusal:
        assert found.code is not None
        hosts = list(found.details.get("hosts") or [])
        return Refusal(
            found.code,
            found.reason,
            token,
            remedies(
                self._policy,
                self._server,
                found.code,
                verdict,
                hosts=hosts,
                taint_sources=found.taint_sources,
                has_allow_list=self._has_allow_list,
            ),
            tuple(hosts) if found.code == ErrorReason.HOST_NOT_ALLOWED else (),
        )

    def _reading_hint(self, verdict: ToolVerdict, reading: bool) -> str:
        """For a fetch-like tool: why this call is no read of a host the policy allows."""
        if not verdict.reads_urls:
            return ""
        if not self._has_allow_list:
            return "; a fetch is a read only of hosts on allow_hosts, and the policy lists none"
        if not reading:
            return (
                "; its arguments send data (a body, or a method other than GET), so it is no read"
            )
        return "; its arguments name no host, so allow_hosts cannot vouch for it"

    def _verdict(
        self,
        verdict: ToolVerdict,
        arguments: Any,
        unknown_hosts: str | None = None,
        *,
        reading: bool = False,
    ) -> _Verdict:
        """`reading`: a fetch-like call that only reads; outbound unless allow_hosts vouches for it."""
        named: list[str] | None = None
        if self._has_allow_list and unknown_hosts:
            return _Verdict(
                ErrorReason.HOST_CHECK_FAILED,
                f"where it connects cannot be checked against allow_hosts ({unknown_hosts})",
                {"outbound_reason": verdict.outbound_reason},
            )
        if self._has_allow_list:
            try:
                named = hosts_in(arguments)
                bad = self._allow.disallowed(named)
            except HostScanTooLarge as exc:
                return _Verdict(
                    ErrorReason.HOST_CHECK_FAILED,
                    f"its arguments are too large to check for hosts ({exc})",
                    {"outbound_reason": verdict.outbound_reason},
                )
            if bad:
                count = f"{len(bad)} host{'s' if len(bad) > 1 else ''}"
                return _Verdict(
                    ErrorReason.HOST_NOT_ALLOWED,
                    f"its arguments name {count} not on allow_hosts: {named_hosts(bad)}",
                    {"hosts": bad, "outbound_reason": verdict.outbound_reason},
                )
        if not verdict.outbound:
            return PASS
        if reading and named:
            # Every host it names is on allow_hosts (checked above): it reads from sites the
            # policy allows, which is what a fetch server is for, tainted or not.
            return PASS
        if not self._store.writable():
            # The taint of a read that failed to record is unknown: refuse until the store is back.
            return _Verdict(
                ErrorReason.STORE_UNAVAILABLE,
                f"{verdict.name} is outbound and the store cannot be written"
                f" ({self._store.write_failure})",
                {"outbound_reason": verdict.outbound_reason},
            )
        try:
            state = self._store.sessions.state(
                self._session, idle_expiry_minutes=self._policy.idle_expiry_minutes
            )
        except StoreUnavailable as exc:
            return _Verdict(
                ErrorReason.STORE_UNAVAILABLE,
                f"{verdict.name} is outbound and the session's taint cannot be read ({exc})",
                {"outbound_reason": verdict.outbound_reason},
            )
        if not state.tainted:
            return PASS
        if named is None:
            try:
                # Not a check (there is no allow list), but the reviewer should see where the call points.
                named = hosts_in(arguments)
            except HostScanTooLarge:
                named = []
        return _Verdict(
            ErrorReason.TAINTED_OUTBOUND,
            f"this session read untrusted content ({state.summary()}), and {verdict.name} is outbound"
            f" ({verdict.outbound_reason}{self._reading_hint(verdict, reading)})",
            {
                "outbound_reason": verdict.outbound_reason,
                "taint_reason": state.summary(),
                "hosts": named,
            },
            tuple(state.reasons),
        )
