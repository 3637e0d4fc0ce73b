"""The built-in demo: a small MCP server with the worm scenario, and the driver that runs it."""
