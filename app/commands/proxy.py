"""`lazaretto proxy [-p POLICY] [-n SERVER_ID] [--store PATH] -- CMD [ARGS...]`, or `--url URL` for a
remote server (whose HTTP machinery is imported only then)."""

import argparse
import ctypes
import os
import sys

from lazaretto.proxy.exposure import Exposure
from lazaretto.proxy.mcp.jsonrpc import ErrorReason
from lazaretto.proxy.mediator.router import Mediator, stderr_log
from lazaretto.proxy.pins.guard import PinGuard
from lazaretto.proxy.policy import PolicyError, load_policy
from lazaretto.proxy.presence import announced
from lazaretto.proxy.proxy_args import configure as configure
from lazaretto.proxy.proxy_args import server_command, server_name
from lazaretto.proxy.quarantine.deferred import DeferredCleaner
from lazaretto.proxy.session import discover_session
from lazaretto.proxy.transport.relay import Relay
from lazaretto.proxy.transport.unstarted import answer_not_started
from lazaretto.store import Store, StoreUnavailable
from lazaretto.store.modes import Mode
from lazaretto.store.opening import Side, open_store
from lazaretto.store.paths import STORE_ENV


def run(args: argparse.Namespace) -> int:
    """Serve the server behind the gate until it exits (or, remote, until the client leaves)."""
    command = server_command(args)
    options = None
    if args.url is not None:
        if command:
            return _usage("give either --url or a server command, not both")
        from lazaretto.proxy.transport.remote.options import OptionError, build

        try:
            options = build(
                args.url, args.header, args.bearer_token_env, args.ca_file, args.transport
            )
        except OptionError as exc:
            return _usage(str(exc))
    elif args.header or args.bearer_token_env or args.ca_file or args.transport:
        return _usage("--header, --bearer-token-env, --ca-file and --transport go with --url")
    elif not command:
        return _usage(
            "missing the server command: lazaretto proxy [-p POLICY] [-n NAME] -- CMD [ARGS...]"
            " (or --url URL)"
        )
    server = server_name(args.server_id, command, options.url if options else None)
    try:
        policy = load_policy(args.policy)
    except PolicyError as exc:
        # Refusing to start is failing closed; answering the client's `initialize` with why is
        # what makes the client show it (see transport/unstarted).
        return answer_not_started(
            f"lazaretto proxy did not start {server}: its policy cannot be used.\n{exc}",
            {
                "reason": ErrorReason.POLICY_ERROR,
                "policy": str(exc.source) if exc.source else None,
                "problems": [problem.as_json() for problem in exc.problems],
            },
        )
    session = discover_session()
    demo_role = demo_server_role(command)
    if demo_role is not None and args.store:
        # The demo's proxies front only the bundled demo server, which they start themselves
        # (isolated from PYTHONPATH): its store protects nothing the agent uses, so it may be a file.
        command = [sys.executable, "-I", "-m", DEMO_SERVER, demo_role]
        store = Store(args.store, busy_timeout=policy.store_busy_timeout_seconds)
    else:
        store = open_store(
            args.store, side=Side.AGENT, busy_timeout=policy.store_busy_timeout_seconds
        )
        if store.mode is Mode.STATION and (args.store or os.environ.get(STORE_ENV)):
            print(
                f"lazaretto[{server}]: --store and LAZARETTO_STORE are ignored: "
                f"{store.describe()} keeps this machine's decisions",
                file=sys.stderr,
            )
    try:
        store.sessions.ensure(
            session.key,
            client_pid=session.client_pid,
            client_name=session.client_name,
            client_started=session.client_started,
        )
    except StoreUnavailable as exc:
        # Keep serving: untrusted results are withheld and outbound calls refused until it is back.
        print(f"lazaretto[{server}]: {exc}; failing closed until it is writable", file=sys.stderr)
    lock_path = policy.server(server).lock
    lock = None
    if lock_path:
        # Imported here: only a server pinned by a lock file reads one.
        from lazaretto.proxy.pins.lockfile import LockError, server_lock

        try:
            lock = server_lock(lock_path, server)
        except LockError as exc:
            store.close()
            return answer_not_started(
                f"lazaretto proxy did not start {server}: the pin lock file named by"
                f" servers.{server}.lock in {policy.source} cannot be used: {exc}. Point the key at"
                " a lock file `lazaretto pin export` wrote, or remove it.",
                {
                    "reason": ErrorReason.POLICY_ERROR,
                    "policy": str(policy.source),
                    "lock": str(lock_path),
                },
            )
    exposure = Exposure(store, session.key, stderr_log(server))
    # The judge is loaded by the first message that needs it (see quarantine/deferred).
    cleaner = DeferredCleaner(store, policy, server, session.key, exposure)
    mediator = Mediator(
        store=store,
        policy=policy,
        server=server,
        session=session.key,
        cleaner=cleaner,
        settle=cleaner.settle,
        # Pins belong to what the server is: its command, or its URL (never the headers, which may
        # hold credentials).
        pins=PinGuard(store, server, ["--url", options.url] if options else command, lock),
        exposure=exposure,
    )
    _return_large_buffers()
    with announced(store, server, session.key, stderr_log(server)):
        if options is not None:
            from lazaretto.proxy.transport.remote.relay import serve

            code = serve(options, mediator, policy, server)
        else:
            code = Relay(
                command,
                mediator,
                max_line=policy.max_line_bytes,
                request_timeout=policy.request_timeout_seconds,
            ).run()
    store.close()
    sys.stdout.flush()
    sys.stderr.flush()
    # The client->server thread may still be blocked reading stdin; a normal interpreter
    # shutdown would wait on that reader's lock and abort. Everything is flushed and closed.
    os._exit(code)


DEMO_SERVER = "lazaretto.app.demo.server"
"""The bundled demo server's module: the one server a proxy may front with a store of its own."""


def demo_server_role(command: list[str]) -> str | None:
    """The role when `command` is `PYTHON -m lazaretto.app.demo.server ROLE`, else None."""
    if len(command) == 4 and command[1:3] == ["-m", DEMO_SERVER]:
        name = os.path.basename(command[0])
        if name.startswith("python") and command[3].isidentifier():
            return command[3]
    return None


def _usage(problem: str) -> int:
    print(f"lazaretto proxy: {problem}", file=sys.stderr)
    return 2


# mallopt's parameter numbers (glibc's malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
# Blocks this large or larger are mapped on their own and unmapped when freed: a huge message's
# buffers leave with it, so its copies do not pile up on the heap and its peak stays low.
_MAPPED_FROM = 4 << 20
# Free memory at the heap's top is handed back past this much: smaller messages' buffers are
# reused from one message to the next instead of being faulted in afresh each time. Twice the
# mapped size: more would keep a huge message's smaller copies beside its mapped ones.
_KEPT_FREE = 8 << 20


def _return_large_buffers() -> None:
    """Fix glibc's thresholds: blocks of _MAPPED_FROM or more unmapped when freed, and up to
    _KEPT_FREE of freed heap kept for the next message.

    Left to itself glibc raises its mmap threshold after the first large free and serves later
    large blocks from the heap, which keeps a huge message's pages; and it trims the heap of
    every free block past 128 KiB, so each megabyte-sized message pays its page faults again.
    Elsewhere a no-op.
    """
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(_M_MMAP_THRESHOLD, _MAPPED_FROM)
        libc.mallopt(_M_TRIM_THRESHOLD, _KEPT_FREE)
    except (OSError, AttributeError):
        pass
