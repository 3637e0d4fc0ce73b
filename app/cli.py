"""The `lazaretto` command: a table of subcommands, each imported only when it runs.

A proxy starts once per MCP server and a hook once per tool call, so `lazaretto proxy`
must never pay for Textual: each subcommand lives in its own module, found here by name.
"""

import importlib
import os
import sys

# Not typing.TYPE_CHECKING: importing typing would be a quarter of a thin hook's own start-up.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

# name -> one-line help. Each lives in `lazaretto.app.commands.<name>`, with `configure(parser)`
# and `run(args) -> int`.
COMMANDS: dict[str, str] = {
    "proxy": "run an MCP server behind the quarantine (goes into the client's config)",
    "status": "sessions, their taint, and calls waiting for a person",
    "approve": "let one blocked call through once (human only)",
    "untaint": "clear a session's taint (human only)",
    "log": "print the audit log, or --verify its hash chain",
    "show": "read a withheld field with its hidden content made visible (human only)",
    "release": "let the agent read a withheld field: its visible text, or --original (human only)",
    "pin": "pinned server surfaces: export or check a lock file, accept or reject drift",
    "hook": "answer one agent-client hook event (what installed hooks run)",
    "wrap": "run every stdio MCP server of a client config through the proxy",
    "unwrap": "give wrapped MCP servers their original config entries back",
    "install": "register Lazaretto's hooks in Claude Code, Codex or Cursor settings",
    "uninstall": "remove Lazaretto's hooks (only those) from client settings",
    "doctor": "show what is wrapped and hooked, and what is not covered",
    "policy": "check the policy file (every problem with its line), or write a starter one",
    "auth": "log in to a remote MCP server that asks for OAuth, or --logout (human only)",
    "trust": "trust a directory the agent cloned (human only)",
    "scan": "run the cleaning and detection pipeline offline on text or a tool result",
    "review": "open the review app: what agents were kept from, and your decisions (human only)",
    "station": "the service that keeps decisions out of the agent's reach: install, run, status",
    "demo": (
        "run the worm scenario through real proxies into a fresh store, then open the review app"
    ),
}


def _version_action() -> type:
    """`--version`, with the version looked up only when asked for (argparse loads with the parser)."""
    import argparse

    class VersionAction(argparse.Action):
        def __init__(
            self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs
        ) -> None:
            super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

        def __call__(
            self, parser: argparse.ArgumentParser, namespace, values, option_string=None
        ) -> None:
            from lazaretto.store.package import package_version

            parser.exit(message=f"lazaretto {package_version()}\n")

    return VersionAction


EXIT_BROKEN_PIPE = 128 + 13
"""What a shell reports for a command whose reader went away (SIGPIPE), as after `scan FILE | head`."""


def build_parser(
    argv: list[str],
) -> "tuple[argparse.ArgumentParser, argparse.ArgumentParser | None]":
    """The top-level parser, and the subcommand's if argv names one (only that one is imported)."""
    # Imported here: a hook answered by a station never builds a parser.
    import argparse

    parser = argparse.ArgumentParser(
        prog="lazaretto",
        description="Keep AI coding agents safe from what they read: clean untrusted MCP results, "
        "and refuse outbound tools once a session has read them, until a person clears it.",
    )
    parser.add_argument("--version", action=_version_action(), help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = next((arg for arg in argv if not arg.startswith("-")), None)
    # A named command's parser alone: each parser costs argparse a round of message lookups (a
    # proxy's and a hook's start-up pay for every one). The list of all is for help and for a
    # name no command has.
    listed = [chosen] if chosen in COMMANDS else list(COMMANDS)
    configured = None
    for name in listed:
        help_text = COMMANDS[name]
        child = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            module = importlib.import_module(f"lazaretto.app.commands.{name}")
            module.configure(child)
            child.set_defaults(run=module.run)
            configured = child
    return parser, configured


def main(argv: list[str] | None = None) -> int:
    """Parse, import the one subcommand asked for, run it, and return its exit code."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["hook"]:
        # Run before every tool call: with a station, answered without argparse or the pipeline.
        from lazaretto.proxy.hooks.thin import forward

        code = forward(argv[1:])
        if code is not None:
            return code
    parser, command = build_parser(argv)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # argparse would blame the top level; the usage that helps is the subcommand's own.
        (command or parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        code = args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader left (`| head`): stop quietly, and keep Python from failing again at exit
        # when it flushes what is left for the closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return code


if __name__ == "__main__":
    raise SystemExit(main())
