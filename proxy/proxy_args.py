"""The arguments of `lazaretto proxy`, apart from the proxy, so a hook can read a proxy's command line cheaply."""

import argparse
import os
from urllib.parse import urlsplit


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments in mcp-gate's form: `-p gate.json -n web -- cmd ...` works unchanged."""
    parser.add_argument(
        "-p",
        "--policy",
        help="policy file (TOML, or mcp-gate JSON); default: LAZARETTO_POLICY, "
        "else lazaretto.toml in the user config directory",
    )
    parser.add_argument(
        "-n",
        "--name",
        dest="server_id",
        help="the server's name in the policy (default: the command's file name)",
    )
    parser.add_argument(
        "--store", help="the store file (default: LAZARETTO_STORE, else the user state directory)"
    )
    remote = parser.add_argument_group(
        "a remote server (Streamable HTTP, or HTTP+SSE) instead of a command"
    )
    remote.add_argument("--url", help="the server's MCP endpoint, e.g. https://host/mcp")
    remote.add_argument(
        "--transport",
        choices=["http", "streamable-http", "streamable_http", "sse"],
        help="the transport the client config named; sse starts with HTTP+SSE (2024-11-05) "
        "instead of finding it by the fallback (default: Streamable HTTP, falling back)",
    )
    remote.add_argument(
        "--header",
        action="append",
        default=[],
        metavar='"NAME: VALUE"',
        help="a header for every request (repeatable); ${env:VAR} in the value is the variable's value",
    )
    remote.add_argument(
        "--bearer-token-env",
        metavar="VAR",
        help="send the token in this environment variable as `Authorization: Bearer`",
    )
    remote.add_argument(
        "--ca-file",
        help="a PEM file of certificate authorities to trust besides the system's (TLS is always verified)",
    )
    parser.add_argument(
        "server_command",
        nargs=argparse.REMAINDER,
        metavar="-- CMD [ARGS...]",
        help="the real MCP server command",
    )


def server_command(args: argparse.Namespace) -> list[str]:
    """The real server's command line, without the `--` that introduces it."""
    command = list(args.server_command)
    return command[1:] if command[:1] == ["--"] else command


def server_name(server_id: str | None, command: list[str], url: str | None = None) -> str:
    """The name the proxy serves under: `-n NAME`, else the remote URL's host or the server
    command's file name."""
    if server_id:
        return server_id
    if url:
        return urlsplit(url).hostname or url
    return os.path.basename(command[0])
