"""The hooks `lazaretto install` writes are run for every tool surface that reads or runs something.

Each client decides by the matcher whether to run a hook at all: a tool the matcher misses is
neither gated nor cleaned, whatever the hook would have done. Matched here as each client matches
(Claude Code: a name list, else an unanchored JavaScript regular expression; Codex: a regular
expression), on the settings file a real `lazaretto install` wrote.
"""

import json
import re

import pytest

CLAUDE_POST = [
    "mcp__jira__get_issue",
    "WebFetch",
    "Bash",
    "BashOutput",
    "TaskOutput",
    "Read",
    "Grep",
    "Glob",
    "LS",
    "NotebookRead",
    "NotebookEdit",
    "ReadMcpResourceTool",
    "ListMcpResourcesTool",
]
CODEX_PRE = ["shell", "exec_command", "shell_command", "write_stdin", "apply_patch", "mcp__s__t"]
CODEX_POST = ["shell", "exec_command", "shell_command", "write_stdin", "mcp__s__t"]
SETTINGS = {"claude-code": ".claude/settings.json", "codex": ".codex/hooks.json"}


def _matches(client: str, matcher: str | None, tool: str) -> bool:
    if matcher in (None, "", "*"):
        return True
    if client == "claude-code" and re.fullmatch(r"[\w\s,|-]*", matcher):
        return tool in re.split(r"[|,]", matcher.replace(" ", ""))
    return re.search(matcher, tool) is not None


def _matcher(home, client: str, event: str) -> str | None:
    hooks = json.loads((home / SETTINGS[client]).read_text())["hooks"][event]
    [ours] = [group for group in hooks if "lazaretto" in json.dumps(group)]
    return ours.get("matcher")


@pytest.mark.parametrize(
    "client, event, tools",
    [
        ("claude-code", "PostToolUse", CLAUDE_POST),
        ("codex", "PreToolUse", CODEX_PRE),
        ("codex", "PostToolUse", CODEX_POST),
    ],
)
def test_every_surface_runs_the_hook(client, event, tools, home, lazaretto):
    done = lazaretto("install", "--client", client)
    assert done.returncode == 0, done.stderr
    matcher = _matcher(home, client, event)
    missed = [tool for tool in tools if not _matches(client, matcher, tool)]
    assert missed == [], f"{client} {event} matcher {matcher!r} misses {missed}"
    # And no more than the tools: an anchored pattern does not run for every name that holds one.
    assert client != "claude-code" or not _matches(client, matcher, "TodoWrite")
