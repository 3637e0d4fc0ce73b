"""Where each agent client keeps its MCP servers and its hooks, at user and project level."""

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

CLIENTS = ("claude-code", "codex", "cursor")


def codex_home() -> Path:
    """`CODEX_HOME`, else `~/.codex`."""
    return (
        Path(os.environ["CODEX_HOME"]).expanduser()
        if os.environ.get("CODEX_HOME")
        else Path.home() / ".codex"
    )


def client_home(client: str) -> Path:
    """The client's per-user folder, where its user-level hook settings live."""
    return {
        "claude-code": Path.home() / ".claude",
        "codex": codex_home(),
        "cursor": Path.home() / ".cursor",
    }[client]


def client_present(client: str) -> bool:
    """Whether the client is installed for this user: its folder, or for Claude Code its
    `~/.claude.json`, which it writes before it ever makes `~/.claude/`."""
    if client == "claude-code" and (Path.home() / ".claude.json").is_file():
        return True
    return client_home(client).exists()


def _distinct(items: list[T], path_of: Callable[[T], Path]) -> list[T]:
    """The items without two for one file, the first kept: run from the home folder, a
    project's settings are the user's, and must be read (and counted) once."""
    seen: set[Path] = set()
    kept = []
    for item in items:
        key = path_of(item).resolve()
        if key not in seen:
            seen.add(key)
            kept.append(item)
    return kept


def hook_settings_path(client: str, project: bool, root: Path | None = None) -> Path:
    """The file `install` edits: user level by default, the project's with `--project`."""
    root = root or Path.cwd()
    if client == "claude-code":
        return (root / ".claude" if project else client_home(client)) / "settings.json"
    if client == "codex":
        return (root / ".codex" if project else codex_home()) / "hooks.json"
    return (root / ".cursor" if project else client_home(client)) / "hooks.json"


def hook_settings_paths(client: str, root: Path | None = None) -> list[Path]:
    """Every file the client reads hooks from (for `doctor`)."""
    root = root or Path.cwd()
    paths = [hook_settings_path(client, False, root), hook_settings_path(client, True, root)]
    if client == "claude-code":
        paths.append(root / ".claude" / "settings.local.json")
    return _distinct(paths, lambda path: path)


@dataclass(frozen=True)
class McpConfig:
    """One MCP server config file of a client."""

    client: str
    path: Path


def claude_desktop_config() -> Path:
    """Claude Desktop's config file on this OS."""
    if sys.platform == "darwin":
        return (
            Path.home()
            / "Library"
            / "Application Support"
            / "Claude"
            / "claude_desktop_config.json"
        )
    if sys.platform.startswith("win"):
        return (
            Path(os.environ.get("APPDATA", Path.home())) / "Claude" / "claude_desktop_config.json"
        )
    return Path.home() / ".config" / "Claude" / "claude_desktop_config.json"


def mcp_configs(root: Path | None = None) -> list[McpConfig]:
    """Every MCP server config `doctor` looks at, user level first."""
    root = root or Path.cwd()
    configs = [
        McpConfig("claude-code", Path.home() / ".claude.json"),
        McpConfig("claude-code", root / ".mcp.json"),
        McpConfig("claude-desktop", claude_desktop_config()),
        McpConfig("cursor", Path.home() / ".cursor" / "mcp.json"),
        McpConfig("cursor", root / ".cursor" / "mcp.json"),
        McpConfig("codex", codex_home() / "config.toml"),
        McpConfig("codex", root / ".codex" / "config.toml"),
    ]
    return _distinct(configs, lambda config: config.path)
