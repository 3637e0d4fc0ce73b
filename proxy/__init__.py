"""The stdio MCP proxy and everything it shares with the client hooks: policy, cleaning, detection, gate."""
