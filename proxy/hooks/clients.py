"""The agent clients Lazaretto has hooks for, by the name `lazaretto hook CLIENT EVENT` takes."""

CLIENTS = ("claude-code", "codex", "cursor")
"""Also the names the hooks record a client's own tools under (WebFetch, a network command)."""
