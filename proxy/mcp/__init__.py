"""What an MCP message is, on any transport: JSON-RPC lines, envelopes, and the text surfaces they carry."""
