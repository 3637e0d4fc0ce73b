"""`lazaretto wrap` then `lazaretto unwrap`, as processes, on configs as people and clients write
them: the file comes back byte for byte, and `wrap` changes only the entries it wraps."""

import json

import pytest
from clients.formats import Written, assert_json_around_kept, assert_toml_around_kept


class Entry(str):
    """The text of one server entry, in a config written piece by piece."""


def written(*parts: str) -> Written:
    """A config from its pieces; the `Entry` ones are the server entries."""
    around = [""]
    for part in parts:
        if isinstance(part, Entry):
            around.append("")
        else:
            around[-1] += part
    return Written("".join(parts), around)


# Claude Code's .mcp.json, as the issue found it: a one-line "headers" object.
MCP_JSON = written(
    '{\n  "mcpServers": {\n    "github": ',
    Entry(
        '{\n      "type": "http",\n      "url": "https://api.githubcopilot.com/mcp/",\n'
        '      "headers": {"Authorization": "Bearer ${GITHUB_PAT}"}\n    }'
    ),
    ',\n    "sentry": ',
    Entry('{"type": "sse", "url": "https://mcp.sentry.dev/sse", "headers": { "X-Org": "acme" }}'),
    ',\n    "filesystem": ',
    Entry(
        '{\n      "command": "npx",\n'
        '      "args": ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/src"],\n'
        '      "env": {}\n    }'
    ),
    "\n  }\n}\n",
)
# ~/.claude.json: Claude Code's state file, with per-project servers and escaped history.
CLAUDE_JSON = written(
    '{\n  "numStartups": 12,\n  "installMethod": "npm",\n'
    '  "tipsHistory": {"new-user-warmup": 7},\n  "mcpServers": {\n    "memory": ',
    Entry(
        '{\n      "type": "stdio",\n      "command": "npx",\n      "args": [\n'
        '        "-y",\n        "@modelcontextprotocol/server-memory"\n      ],\n'
        '      "env": {\n        "MEMORY_FILE_PATH": "/home/me/.memory.json"\n      }\n    }'
    ),
    '\n  },\n  "projects": {\n    "/home/me/app": {\n      "allowedTools": [],\n'
    '      "history": [\n        {\n'
    '          "display": "r\\u00e9sum\\u00e9 the \\"build\\" \\/ tests",\n'
    '          "pastedContents": {}\n        }\n      ],\n      "mcpServers": {\n'
    '        "linear": ',
    Entry('{\n          "type": "http",\n          "url": "https://mcp.linear.app/mcp"\n        }'),
    '\n      },\n      "hasTrustDialogAccepted": true\n    }\n  },\n  "userID": "8f1c0e"\n}\n',
)
# Cursor's mcp.json on one line, its token named the Cursor way.
CURSOR_COMPACT = written(
    '{"mcpServers":{"browser":',
    Entry('{"command":"npx","args":["@playwright/mcp@latest"]}'),
    ',"notion":',
    Entry(
        '{"url":"https://mcp.notion.com/mcp","headers":{"Authorization":"Bearer ${env:NOTION_TOKEN}"}}'
    ),
    "}}",
)
# Cursor's mcp.json with tabs and odd spacing.
CURSOR_TABS = written(
    '{\n\t"mcpServers": {\n\t\t"time": ',
    Entry('{ "command": "uvx", "args": [ "mcp-server-time", "--local-timezone=Europe/Paris" ] }'),
    ',\n\t\t"fetch" : ',
    Entry('{\n\t\t\t"command" : "uvx" ,\n\t\t\t"args" : [ "mcp-server-fetch" ]\n\t\t}'),
    "\n\t}\n}\n",
)
# Claude Desktop: four spaces, Windows paths, a name with an accent.
DESKTOP_JSON = written(
    '{\n    "mcpServers": {\n        "filesystem": ',
    Entry(
        '{\n            "command": "npx",\n            "args": [\n                "-y",\n'
        '                "@modelcontextprotocol/server-filesystem",\n'
        '                "C:\\\\Users\\\\me\\\\Desktop",\n'
        '                "C:\\\\Users\\\\me\\\\Téléchargements"\n            ]\n        }'
    ),
    ',\n        "sqlite": ',
    Entry(
        '{"command": "uvx", "args": ["mcp-server-sqlite", "--db-path", "C:\\\\data\\\\test.db"]}'
    ),
    '\n    },\n    "globalShortcut": "Ctrl+Space"\n}\n',
)
# Codex: comments everywhere, a multi-line array, a sub-table, a remote server with every key.
CODEX_TABLES = written(
    '# ~/.codex/config.toml, réglages\nmodel = "gpt-5-codex"\napproval_policy = "on-request"\n\n',
    Entry(
        "[mcp_servers.docs]  # documentation\ncommand = 'npx'\nargs = [\n"
        '    "-y",               # no prompt\n    "@upstash/context7-mcp",\n'
        '    # "--debug",\n]\nstartup_timeout_sec = 20\n\n'
        '[mcp_servers.docs.env]\nLOG = "warn"'
    ),
    "\n\n# the GitHub server, remote\n",
    Entry(
        "[mcp_servers.github]\n"
        'url = "https://api.githubcopilot.com/mcp/"\n'
        'bearer_token_env_var = "GITHUB_PAT"\n'
        'env_http_headers = { "X-Org" = "GITHUB_ORG" }\n'
        "tool_timeout_sec = 60"
    ),
    "\n\n# a server with no args at all\n",
    Entry('[mcp_servers.bare]\ncommand = "bare-server"\n[mcp_servers.bare.env]\nA = "1"'),
    '\n\n[profiles.fast]\nmodel = "o4-mini"  # quick\n',
)
# Codex with inline tables, one per line.
CODEX_INLINE = written(
    "[mcp_servers]\n# one per line\n",
    Entry(
        'git = { command = "uvx", args = [ "mcp-server-git", "--repository", '
        "'/home/me/src/app' ] }"
    ),
    "\n",
    Entry(
        'memory = {command="npx",args=["-y","@modelcontextprotocol/server-memory"],'
        'env={MEMORY_FILE_PATH="/tmp/m.json"}}'
    ),
    '\n\n[profiles.fast]\nmodel = "o4-mini"\n',
)

CONFIGS = {
    ".mcp.json": MCP_JSON,
    ".claude.json": CLAUDE_JSON,
    "cursor/mcp.json": CURSOR_COMPACT,
    "cursor-tabs/mcp.json": CURSOR_TABS,
    "claude_desktop_config.json": DESKTOP_JSON,
    "config.toml": CODEX_TABLES,
    "inline/config.toml": CODEX_INLINE,
}


def crlf(config: Written) -> Written:
    return Written(
        config.text.replace("\n", "\r\n"), [part.replace("\n", "\r\n") for part in config.around]
    )


def without_final_newline(config: Written) -> Written:
    if not config.text.endswith("\n"):
        return config
    return Written(config.text[:-1], [*config.around[:-1], config.around[-1][:-1]])


VARIANTS = {"as written": lambda c: c, "CRLF": crlf, "no final newline": without_final_newline}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_wrap_changes_only_its_entries_and_unwrap_gives_every_byte_back(
    name, variant, home, lazaretto
):
    config = VARIANTS[variant](CONFIGS[name])
    path = home / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(config.text.encode())
    done = lazaretto("wrap", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    wrapped = path.read_bytes().decode()
    assert wrapped != config.text and "proxy" in wrapped
    if path.suffix == ".toml":
        assert_toml_around_kept(wrapped, config.around)
    else:
        assert_json_around_kept(wrapped, config.around)
    done = lazaretto("unwrap", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert path.read_bytes().decode() == config.text


def test_unwrap_keeps_what_the_client_changed_since_and_still_gives_the_entries_back(
    home, lazaretto
):
    # Claude Code rewrites ~/.claude.json as it runs: other lines change between wrap and unwrap.
    path = home / ".claude.json"
    path.write_text(CLAUDE_JSON.text)
    lazaretto("wrap", str(path))
    changed = path.read_text().replace('"numStartups": 12', '"numStartups": 13')
    changed = changed.replace('"userID": "8f1c0e"', '"userID": "8f1c0e",\n  "lastSeen": 7')
    path.write_text(changed)
    done = lazaretto("unwrap", str(path))
    assert done.returncode == 0, done.stderr
    expected = CLAUDE_JSON.text.replace('"numStartups": 12', '"numStartups": 13')
    expected = expected.replace('"userID": "8f1c0e"', '"userID": "8f1c0e",\n  "lastSeen": 7')
    assert path.read_text() == expected


def test_a_server_added_by_hand_next_to_wrapped_ones_stays_and_the_rest_comes_back(home, lazaretto):
    path = home / ".mcp.json"
    path.write_text(MCP_JSON.text)
    lazaretto("wrap", str(path))
    added = ',\n    "time": {"command": "uvx", "args": ["mcp-server-time"]}\n  }\n}\n'
    path.write_text(path.read_text().removesuffix("\n  }\n}\n") + added)
    done = lazaretto("unwrap", str(path))
    assert done.returncode == 0, done.stderr
    assert path.read_text() == MCP_JSON.text.removesuffix("\n  }\n}\n") + added


def test_an_entry_edited_after_wrap_comes_back_with_the_edit(home, lazaretto):
    # The backup no longer tells that entry's text: it comes back as it means now.
    path = home / ".mcp.json"
    path.write_text(MCP_JSON.text)
    lazaretto("wrap", str(path))
    data = json.loads(path.read_text())
    data["mcpServers"]["filesystem"]["env"] = {"DEBUG": "1"}
    path.write_text(json.dumps(data, indent=2))
    lazaretto("unwrap", str(path))
    servers = json.loads(path.read_text())["mcpServers"]
    assert servers["filesystem"] == {
        "command": "npx",
        "args": ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/src"],
        "env": {"DEBUG": "1"},
    }
    assert servers["github"]["headers"] == {"Authorization": "Bearer ${GITHUB_PAT}"}
