"""What `doctor` reports: which servers are wrapped, which hooks are installed, what no hook can cover."""

import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from .hook_settings import EVENTS, installed
from .locations import CLIENTS, client_present, hook_settings_paths, mcp_configs
from .wrapping import ServerState, servers_of

# What each client lets Lazaretto see, and what stays out of reach whatever is installed.
COVERAGE: dict[str, tuple[str, str]] = {
    "claude-code": (
        "MCP results through the proxy; PostToolUse cleans MCP output and WebFetch, WebSearch, Bash, Read and "
        "Grep output (built-ins need Claude Code 2.1.121 or later); PreToolUse refuses human-only verbs and "
        "settings edits and gates WebFetch and network commands",
        "MCP error results (PostToolUseFailure) and @-mentioned files reach the model without a hook; "
        "a built-in replacement that does not match the tool's schema is ignored by Claude Code",
    ),
    "codex": (
        "MCP results through the proxy; PostToolUse replaces Bash and MCP output with a cleaned copy (as text, "
        "through decision: block); PreToolUse refuses human-only verbs, patches to settings, and gates network "
        "commands",
        "web search and other non-shell, non-MCP tools cannot be hooked; not every shell call is intercepted; "
        "Codex runs new or changed hooks only after you trust them in /hooks",
    ),
    "cursor": (
        "MCP results through the proxy; postToolUse cleans MCP output; beforeShellExecution refuses human-only "
        "verbs and gates network commands; beforeMCPExecution gates servers not behind the proxy",
        "shell output and file reads can taint the session but cannot be cleaned; there is no web fetch hook",
    ),
    "claude-desktop": ("MCP results through the proxy", "Claude Desktop has no hooks"),
}


@dataclass
class ConfigReport:
    """One MCP config: its servers' states, or why it could not be read."""

    client: str
    path: Path
    servers: list[ServerState] = field(default_factory=list)
    error: str | None = None


@dataclass
class HookReport:
    """One client's hooks: the events found and where, the ones missing, and commands that cannot run."""

    client: str
    present: bool
    found: dict[str, Path] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)


def mcp_reports(root: Path | None = None) -> list[ConfigReport]:
    """Every client MCP config that exists, with its servers."""
    reports = []
    for config in mcp_configs(root):
        if not config.path.exists():
            continue
        report = ConfigReport(config.client, config.path)
        try:
            report.servers = servers_of(config.path)
        except (ValueError, OSError) as exc:
            report.error = str(exc)
        reports.append(report)
    return reports


def hook_reports(root: Path | None = None) -> list[HookReport]:
    """Each hookable client: whether it is installed here, and which of our hooks it has."""
    reports = []
    for client in CLIENTS:
        report = HookReport(client, client_present(client))
        for path in hook_settings_paths(client, root):
            for key, command in installed(client, path).items():
                report.found.setdefault(key, path)
                if not _runnable(command):
                    report.broken.append(f"{key} in {path}: {command}")
        report.missing = [event.key for event in EVENTS[client] if event.key not in report.found]
        reports.append(report)
    return reports


def _runnable(command: str) -> bool:
    """Whether the hook's program exists: a missing one lets every call through unchecked."""
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return False
    return (
        Path(program).is_file()
        if "/" in program or "\\" in program
        else shutil.which(program) is not None
    )
