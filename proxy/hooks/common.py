"""What every client's hooks share: the session, the proxy's cleaner and gate, taint, cloned directories."""

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lazaretto.store import StoreUnavailable

from ..classify import OutboundBy, ToolVerdict, classify, untrusted_tool
from ..exposure import Exposure
from ..gate.check import Gate
from ..gate.hosts import HostAllowList, HostScanTooLarge, hosts_in
from ..gate.requests import call_of
from ..policy import (
    POLICY_ENV,
    POLICY_FILE,
    Policy,
    missing_policy,
    parse_policy,
    unreadable_policy,
)
from . import environment
from .builtins import clone_targets, command_paths, egresses, reads_network, real
from .commands import check_command, refusal_text
from .local_reads import first_not_local
from .proxied import ProxyUnknown, behind_proxy
from .shell import invocations


@dataclass(frozen=True)
class Reply:
    """What a hook prints (a JSON object, or nothing), writes to stderr, and exits with."""

    stdout: dict | None = None
    exit_code: int = 0
    stderr: str = ""


def deny_pre_tool_use(reason: str) -> Reply:
    """The PreToolUse refusal Claude Code and Codex share: JSON for the model, and exit 2 with the
    reason on stderr, which no other hook's answer can override."""
    output = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": reason,
    }
    return Reply({"hookSpecificOutput": output}, 2, reason)


@dataclass(frozen=True)
class Cleaned:
    """A tool output after the proxy's pipeline: same shape, `changed` if anything was replaced."""

    value: Any
    changed: bool


class HookContext:
    """One hook run: the policy, the store, and the session the client's proxies share."""

    def __init__(self, client: str, data: dict) -> None:
        self.client = client
        self.data = data
        env = environment.current()
        cwd = data.get("cwd")
        self.cwd: str = cwd if isinstance(cwd, str) else _first_root(data, env)
        self.policy: Policy = hook_policy(env)
        self.store, self._owns_store = env.open_store()
        info = env.session()
        self.session = info.key
        self.exposure = Exposure(self.store, self.session)
        client_session = data.get("session_id") or data.get("conversation_id")
        try:
            self.store.sessions.ensure(
                info.key,
                client_pid=info.client_pid,
                client_name=info.client_name,
                client_session_id=str(client_session) if client_session else None,
                client_started=info.client_started,
            )
        except StoreUnavailable:
            # Every decision below that needs the store fails closed on its own.
            pass

    def close(self) -> None:
        """Release the store connection (one the station lent stays open)."""
        if self._owns_store:
            self.store.close()

    # -- exposure ---------------------------------------------------------------------------

    def expose(self, server: str, tool: str, reason: str, request_id: str | None) -> None:
        """Taint the session with an untrusted read, as the proxy does."""
        self.exposure.record(
            server=server, tool=tool, method="tools/call", reason=reason, request_id=request_id
        )

    def untrusted_dir(self, paths: list[str]) -> dict | None:
        """The cloned, not yet trusted directory one of `paths` lies in, or None."""
        for path in paths:
            row = self.store.directories.untrusted_for(real(path))
            if row is not None:
                return row
        return None

    def command_exposure(self, command: str, cwd: str) -> str | None:
        """Why a shell command's output is untrusted text, or None for a local command."""
        program = reads_network(command, cwd)
        if program:
            return f"it ran {program}, which prints what another machine sent"
        row = self.untrusted_dir(command_paths(command, cwd))
        if row:
            return f"it read inside {row['path']}, a cloned directory not yet trusted"
        return None

    def record_clones(self, command: str, cwd: str) -> None:
        """Mark what `git clone` / `gh repo clone` will create as untrusted, before it exists."""
        for target in clone_targets(command, cwd):
            self.store.directories.mark_untrusted(
                real(target), session=self.session, reason=f"cloned by the agent: {command[:200]}"
            )

    # -- cleaning -----------------------------------------------------------------------------

    def clean_mcp(
        self,
        server: str,
        tool: str | None,
        output: Any,
        request_id: str | None,
        method: str = "tools/call",
    ) -> Cleaned:
        """An MCP tool's output (text, content blocks, a result, or structured JSON) through the
        proxy's cleaner; with `method` and no tool, the answer to that request of the server's
        (a resource read)."""
        untrusted, why = untrusted_tool(self.policy.server(server), tool)
        subject = f"{server}/{tool or method}"
        if untrusted:
            self.exposure.record(
                server=server,
                tool=tool,
                method=method,
                reason=f"{subject} returned untrusted content ({why})",
                request_id=request_id,
            )
        shaped = _as_call_result(output)
        if shaped is None:
            return Cleaned(output, False)
        payload, unwrap = shaped
        cleaned = self._clean(server, tool, request_id, payload, untrusted, method)
        return Cleaned(output, False) if cleaned is None else Cleaned(unwrap(cleaned), True)

    def clean_fields(
        self,
        server: str,
        tool: str,
        output: Any,
        keys: frozenset[str],
        untrusted: bool,
        request_id: str | None,
    ) -> Cleaned:
        """A built-in tool's output: the text under `keys` cleaned, every other field kept as it was.

        An output that is plain text rather than the documented object is cleaned whole.
        """
        if isinstance(output, str):
            cleaned = self.clean_fields(
                server, tool, {"text": output}, frozenset({"text"}), untrusted, request_id
            )
            return Cleaned(cleaned.value["text"], cleaned.changed)
        subset = _subset(output, keys)
        if not subset:
            return Cleaned(output, False)
        cleaned = self._clean(server, tool, request_id, {"structuredContent": subset}, untrusted)
        if cleaned is None:
            return Cleaned(output, False)
        return Cleaned(_merge(output, cleaned["structuredContent"], keys), True)

    def _clean(
        self,
        server: str,
        tool: str | None,
        request_id: str | None,
        payload: dict,
        untrusted: bool,
        method: str = "tools/call",
    ) -> dict | None:
        # Imported here: a hook that only checks a call never cleans, and importing the cleaning
        # pipeline was a third of such a hook's start-up.
        from ..quarantine.cleaner import FieldCleaner

        return FieldCleaner(self.store, self.policy, server, self.session, self.exposure)(
            method, tool, request_id, payload, untrusted
        )

    # -- gating -------------------------------------------------------------------------------

    def gate(
        self,
        server: str,
        tool: str,
        verdict: ToolVerdict,
        arguments: Any,
        request_id: str | None,
        *,
        scanned: Any = None,
        unknown_hosts: str | None = None,
    ) -> str | None:
        """The proxy's gate and token flow for one call; the refusal sentence, or None to let it run.

        `scanned`: what to read for hosts, when not the arguments the approval is bound to."""
        refusal = Gate(self.store, self.policy, server, self.session).check(
            verdict, arguments, request_id, scanned=scanned, unknown_hosts=unknown_hosts
        )
        if refusal is None:
            return None
        return refusal.response(request_id, server, tool)["error"]["message"]

    def mcp_refusal(
        self,
        server: str,
        tool: str,
        arguments: Any,
        request_id: str | None,
        *,
        command: object = None,
        url: object = None,
    ) -> str | None:
        """The proxy's gate for a call to an MCP server no proxy stands in front of; None lets it run.

        A call to a proxied server is left to that proxy, which gates it with the same rules (one
        token, not two). `command` / `url`: how the client says it runs the server (Cursor).
        """
        known = self.store.tools.get(server, tool)
        annotations = json.loads(known["annotations"]) if known and known["annotations"] else None
        verdict = classify(self.policy.server(server), tool, annotations)
        return self._unproxied_refusal(
            server, verdict, arguments, arguments, request_id, command=command, url=url
        )

    def request_refusal(
        self, server: str, method: str, params: dict, request_id: str | None
    ) -> str | None:
        """The proxy's gate for a request (`resources/read`...) the client makes of an MCP server
        no proxy stands in front of, judged as the proxy judges it; None lets it run."""
        policy = self.policy.server(server)
        call = call_of(policy, method, params, lambda tool: classify(policy, tool))
        return self._unproxied_refusal(
            server, call.verdict, call.arguments, call.scanned, request_id
        )

    def _unproxied_refusal(
        self,
        server: str,
        verdict: ToolVerdict,
        arguments: Any,
        scanned: Any,
        request_id: str | None,
        *,
        command: object = None,
        url: object = None,
    ) -> str | None:
        # Reading the client's processes costs more than the gate: only a refusal needs it.
        if Gate(self.store, self.policy, server, self.session).judge(verdict, scanned) is None:
            return None
        try:
            if behind_proxy(server, self.store, self.session, command=command, url=url):
                return None
            unsure = ""
        except ProxyUnknown as exc:
            unsure = f" (whether a proxy stands in front of {server} is not known: {exc})"
        refused = self.gate(server, verdict.name, verdict, arguments, request_id, scanned=scanned)
        return refused + unsure if refused and unsure else refused

    def shell_refusal(
        self, client: str, tool: str, command: str, cwd: str, request_id: str | None
    ) -> str | None:
        """Why a shell command is refused (a human-only verb, the store, hook settings, or an outbound
        command on a tainted session), or None; a command that clones is remembered either way."""
        reason = check_command(command, cwd)
        if reason:
            return refusal_text(reason)
        self.record_clones(command, cwd)
        outbound = [found for found in egresses(command, cwd) if found.outbound]
        if not outbound:
            return self._tainted_shell_refusal(client, tool, command, cwd, request_id)
        # The host check reads the words that name each destination, not the whole line: a bare
        # `nc evil.example 80` names its host only by position.
        destinations = [word for found in outbound for word in found.destinations]
        unknown = next((found.unknown for found in outbound if found.unknown), None)
        try:
            if unknown is None and not hosts_in(destinations):
                unknown = "it names no host the hook can check"
        except HostScanTooLarge as exc:
            unknown = str(exc)
        return self.gate(
            client,
            tool,
            builtin_verdict(tool, outbound[0].reason),
            {"command": command},
            request_id,
            scanned=destinations,
            unknown_hosts=unknown,
        )

    def _tainted_shell_refusal(
        self, client: str, tool: str, command: str, cwd: str, request_id: str | None
    ) -> str | None:
        """While tainted, the refusal of a line that runs a program not known to only read
        locally (see `local_reads`), or None; on a clean session always None."""
        if not self._maybe_tainted():
            return None
        why = first_not_local(invocations(command, cwd), self.policy.read_only_programs)
        if why is None:
            return None
        reason = f"a tainted session's shell runs only programs known to only read locally; {why}"
        verdict = builtin_verdict(tool, reason, OutboundBy.SHELL_PROGRAM)
        return self.gate(client, tool, verdict, {"command": command}, request_id, scanned=[])

    def _maybe_tainted(self) -> bool:
        """Whether the session is tainted, or its taint cannot be read (the gate then says why)."""
        try:
            if not self.store.writable():
                return True
            state = self.store.sessions.state(
                self.session, idle_expiry_minutes=self.policy.idle_expiry_minutes
            )
        except StoreUnavailable:
            return True
        return state.tainted

    def host_allowed(self, url: str) -> bool:
        """Whether every host `url` names is on allow_hosts (an empty list allows none)."""
        allow = HostAllowList(self.policy.allow_hosts)
        hosts = hosts_in({"url": url})
        return bool(allow) and bool(hosts) and not allow.disallowed(hosts)


def builtin_verdict(
    tool: str, outbound_reason: str, by: OutboundBy = OutboundBy.BUILTIN
) -> ToolVerdict:
    """A built-in tool as the gate sees it: outbound for the given reason."""
    return ToolVerdict(
        tool,
        True,
        outbound_reason,
        False,
        "a built-in tool of the agent client",
        outbound_by=by,
    )


def split_mcp_name(name: str) -> tuple[str, str] | None:
    """`mcp__server__tool` -> (server, tool); None for a built-in tool."""
    parts = name.split("__", 2)
    if len(parts) == 3 and parts[0].lower() == "mcp" and parts[1] and parts[2]:
        return parts[1], parts[2]
    return None


def withheld_notice(subject: str, error: BaseException | str) -> str:
    """The text that replaces an output the hook could not inspect."""
    why = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    return (
        f"[lazaretto: withheld the output of {subject}: it could not be inspected ({why}). "
        "Tell the user; nothing of it was shown to you.]"
    )


def render_text(value: Any) -> str:
    """A cleaned output as plain text (for clients that only take text back)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("content"), list):
        parts = [block.get("text", "") for block in value["content"] if isinstance(block, dict)]
        if "structuredContent" in value:
            parts.append(json.dumps(value["structuredContent"], ensure_ascii=False))
        return "\n".join(part for part in parts if part)
    return json.dumps(value, ensure_ascii=False)


def tool_input_object(data: dict) -> dict:
    """The event's `tool_input` when it is an object, else an empty one."""
    tool_input = data.get("tool_input")
    return tool_input if isinstance(tool_input, dict) else {}


def _first_root(data: dict, env: environment.HookEnvironment) -> str:
    roots = data.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str):
        return roots[0]
    return env.cwd


MAX_POLICY_BYTES = 4 * 1024 * 1024
"""A policy file larger than this is refused (it is a page of TOML)."""


def hook_policy(env: environment.HookEnvironment) -> Policy:
    """The policy as `load_policy` finds it, read through the hook's environment.

    `LAZARETTO_POLICY` must name a readable file; the default may be absent (an empty policy).
    """
    chosen = env.get(POLICY_ENV)
    path = Path(env.cwd) / env.expand(chosen) if chosen else env.config_dir() / POLICY_FILE
    raw = env.read(str(path), MAX_POLICY_BYTES)
    if raw is None:
        if chosen:
            raise missing_policy(path)
        return Policy(source=path)
    if len(raw) > MAX_POLICY_BYTES:
        raise unreadable_policy(path, ValueError(f"it is larger than {MAX_POLICY_BYTES} bytes"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise unreadable_policy(path, exc) from exc
    return parse_policy(text, source=path)


def _as_call_result(output: Any) -> tuple[dict, Callable[[dict], Any]] | None:
    """(an MCP call result holding `output`, a function giving the same shape back), or None."""
    if isinstance(output, str):
        return {"content": [{"type": "text", "text": output}]}, lambda r: render_text(r)
    if isinstance(output, list):
        return {"content": output}, lambda r: r.get("content", [])
    if isinstance(output, dict):
        if "content" in output or "structuredContent" in output:
            return output, lambda r: r
        return {"structuredContent": output}, lambda r: r.get("structuredContent")
    return None


def withhold_fields(output: Any, keys: frozenset[str], notice: str) -> Any:
    """`output` with every member named by `keys` replaced by `notice` (a list by a one-item list)."""
    if isinstance(output, str):
        return notice
    subset = _subset(output, keys)
    if not subset:
        return None

    def blank(node: dict) -> dict:
        return {
            key: ([notice] if isinstance(value, list) else notice) if key in keys else blank(value)
            for key, value in node.items()
        }

    return _merge(output, blank(subset), keys)


def _subset(value: Any, keys: frozenset[str]) -> dict | None:
    """Only the members named by `keys`, at any depth of nested objects."""
    if not isinstance(value, dict):
        return None
    found = {}
    for key, child in value.items():
        if key in keys:
            found[key] = child
        elif isinstance(child, dict):
            inner = _subset(child, keys)
            if inner:
                found[key] = inner
    return found or None


def _merge(original: dict, cleaned: dict, keys: frozenset[str]) -> dict:
    """`original` with its cleaned members put back. A member that was sent to be cleaned and is
    missing from `cleaned` had its key withheld (renamed to a notice): it leaves, or its original
    value would reach the agent beside the notice."""
    sent = _subset(original, keys) or {}
    merged = {key: value for key, value in original.items() if key not in sent or key in cleaned}
    for key, value in cleaned.items():
        if key in keys or not isinstance(original.get(key), dict):
            merged[key] = value
        else:
            merged[key] = _merge(original[key], value, keys)
    return merged
