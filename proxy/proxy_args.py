"""The arguments of `lazaretto proxy`, apart from the proxy, so a hook can read a proxy's command line cheaply."""

import argparse
import os


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


def server_name(server_id: str | None, command: list[str]) -> str:
    """The name the proxy serves under: `-n NAME`, else the server command's file name."""
    return server_id or os.path.basename(command[0])
