"""The interop suite's servers (installed from npm and PyPI), their policies, and the person.

A `ServerSpec` names a server as a policy does and says how it starts; `Interop` gives it the
environment a user's machine would have (its own store, policy and session), starts it directly or
behind `lazaretto proxy`, reads the session's state as `lazaretto status --json` prints it, and
approves a refused call as a person does, at a terminal with the typed code; `Pair` holds the
server directly and trusted behind the proxy, for requests whose outcomes must be the same.
"""

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from support.isolation import isolated_environ
from support.sdk_session import SdkSession
from support.terminal import READ_TIMEOUT, Terminal

TESTS = Path(__file__).resolve().parent.parent
NPM_BIN = TESTS / "node_modules" / ".bin"
PYPI_VENVS = {"sdk2": TESTS / "pypi-servers", "sqlite": TESTS / "pypi-servers-sqlite"}
LAZARETTO = [sys.executable, "-m", "lazaretto.app"]
TOKEN_REFUSED = -32002
"""The JSON-RPC error code of a call the gate refused with an approval token."""


def npm_server(executable: str) -> Path:
    """The path of a server that tests/install-npm-servers installs."""
    return NPM_BIN / executable


def pypi_server(executable: str, venv: str = "sdk2") -> Path:
    """The path of a server that tests/install-pypi-servers installs into one of its virtualenvs."""
    return PYPI_VENVS[venv] / "bin" / executable


def installed(executable: Path) -> list[pytest.MarkDecorator]:
    """Skip, saying how to install it, when the server is not installed (CI installs them all);
    an npm server's tests are marked `npm` too."""
    from_npm = executable.is_relative_to(NPM_BIN)
    script = "install-npm-servers" if from_npm else "install-pypi-servers"
    skip = pytest.mark.skipif(
        not executable.exists(),
        reason=f"{executable.name} is not installed: run tests/{script} (done by .ci/run)",
    )
    return [pytest.mark.npm, skip] if from_npm else [skip]


@dataclass(frozen=True)
class Launch:
    """A server's command line and the environment variables it reads."""

    command: list[str]
    env: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ServerSpec:
    """One server of the suite: its policy name, its executable, and how it starts on a folder."""

    name: str
    executable: Path
    arguments: Callable[[Path], list[str]] = lambda folder: []
    env: Callable[[Path], dict[str, str]] = lambda folder: {}

    def launch(self, folder: Path) -> Launch:
        """The server on the data laid out in `folder`."""
        folder.mkdir(parents=True, exist_ok=True)
        return Launch([str(self.executable), *self.arguments(folder)], self.env(folder))


@dataclass(frozen=True)
class Interop:
    """One user's machine for one server: a folder with its store and policy, and one session."""

    folder: Path
    server: str
    session: str = "interop-session"

    def env(self, trust: str | None, **extra: str) -> dict[str, str]:
        """The environment of the server and the proxy; `trust` None: the policy names no server."""
        policy = self.folder / f"policy-{trust or 'none'}.toml"
        policy.write_text(f'[servers.{self.server}]\ntrust = "{trust}"\n' if trust else "")
        env = {key: value for key, value in os.environ.items() if not key.startswith("LAZARETTO_")}
        return {
            **env,
            **isolated_environ(self.folder),
            "LAZARETTO_POLICY": str(policy),
            "LAZARETTO_SESSION": self.session,
            **extra,
        }

    def direct(self, server: Launch, trust: str | None = None, **client: Any) -> SdkSession:
        """The SDK client (with ClientSession's options `client`) on the server itself; `trust`
        picks the policy its environment names, which only a proxy reads (so that the server
        may see the same environment as a proxied one)."""
        return SdkSession(server.command, self.env(trust, **server.env), **client)

    def proxied(self, server: Launch, trust: str | None, **client: Any) -> SdkSession:
        """The SDK client on `lazaretto proxy -n NAME -- COMMAND` under the given trust."""
        return SdkSession(
            [*LAZARETTO, "proxy", "-n", self.server, "--", *server.command],
            self.env(trust, **server.env),
            **client,
        )

    def status(self) -> dict:
        """`lazaretto status --json`, as a person or a script reads it."""
        done = subprocess.run(
            [*LAZARETTO, "status", "--json"],
            env=self.env(None),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=READ_TIMEOUT,
            check=True,
        )
        return json.loads(done.stdout)

    def taint(self) -> list[dict]:
        """Why this session is tainted, per `status --json`; empty while it is clean."""
        for session in self.status()["sessions"]:
            if session["key"] == self.session:
                return session["reasons"] if session["tainted"] else []
        return []

    def approve(self, token: str) -> None:
        """`lazaretto approve TOKEN` at a terminal, typing the code it asks for."""
        term = Terminal([*LAZARETTO, "approve", token], self.env(None))
        try:
            term.answer()
            assert term.finish() == 0, term.output
            assert "Approved" in term.output, term.output
        finally:
            term.kill()


def refusal_token(outcome: dict) -> str:
    """The approval token of a call the gate refused; fails with the outcome if it was not."""
    error = outcome.get("error")
    assert error is not None and error["code"] == TOKEN_REFUSED, outcome
    return error["data"]["token"]


@dataclass(frozen=True)
class Pair:
    """The same server twice: directly, and behind a proxy whose policy trusts it."""

    direct: SdkSession
    through: SdkSession
    data: Path
    """The direct server's data folder; the proxied server's too when they share one."""

    def same(self, request: Callable[[SdkSession], dict]) -> dict:
        """Make one request of each; the client must read the same outcome from both."""
        direct = request(self.direct)
        through = request(self.through)
        assert through == direct
        return through

    def call(self, tool: str, arguments: dict) -> dict:
        """`same` for one tool call."""
        return self.same(lambda session: session.call(tool, arguments))


@contextmanager
def trusted_pair(
    folder: Path, spec: ServerSpec, *, shared: bool = True, **client: Any
) -> Iterator[Pair]:
    """`spec` directly and behind a proxy that trusts it, on one data folder (`shared`), or each on
    a copy of its own where the server keeps no path in what it answers (a database, a graph);
    `client`: the SDK ClientSession's options, alike for both."""
    box = Interop(folder, spec.name)
    data = folder / "data"
    through_data = data if shared else folder / "data-through"
    with (
        box.direct(spec.launch(data), "trusted", **client) as direct,
        box.proxied(spec.launch(through_data), "trusted", **client) as through,
    ):
        yield Pair(direct, through, data)


@contextmanager
def untrusted_beside(pair: Pair, spec: ServerSpec, folder: Path) -> Iterator[SdkSession]:
    """`spec` behind a proxy whose policy does not trust it, on the pair's data, with a store and
    a session of its own in `folder`: its reads are compared with the pair's direct ones."""
    with Interop(folder, spec.name).proxied(spec.launch(pair.data), "untrusted") as session:
        yield session
