"""The proxy's side toward a remote MCP server: Streamable HTTP (and the older HTTP+SSE), TLS, logins.

Only `lazaretto proxy --url` and `lazaretto auth` import this package: the stdio proxy and the hooks
never pay for httpx, SSE parsing or OAuth.
"""
