"""Client hooks (Claude Code, Codex, Cursor): the same cleaning, taint and gate as the proxy, for tool calls it never sees."""
