"""Agent-client configuration: wrap MCP servers behind the proxy, install hooks, report coverage."""
