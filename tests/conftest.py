"""Fixtures shared by every suite: an isolated store and environment per test, real proxies."""

import os
import shutil
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

import pytest
from support.isolation import isolated_environ
from support.proxy_harness import WORM_POLICY, ProxyProcess
from support.terminal import READ_TIMEOUT, Terminal

from lazaretto.store import Store

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


def pytest_configure(config: pytest.Config) -> None:
    """One cache folder for the whole run of this process (an xdist worker has its own), shared by
    every test and the processes they start.

    Set before collection, since some test modules build the detector's scans when imported. Per
    test, every process would compile the Hyperscan databases again (seconds each); the user's
    real cache folder is never used.
    """
    folder = tempfile.mkdtemp(prefix="lazaretto-test-cache-")
    config.add_cleanup(partial(shutil.rmtree, folder, ignore_errors=True))
    os.environ["XDG_CACHE_HOME"] = folder


def pytest_collection_modifyitems(items) -> None:
    # The serial tests form one xdist group (`--dist loadgroup`, in addopts): run with `-n`, they
    # are at least never run beside each other. CI runs them in a pass of their own, without -n.
    for item in items:
        if item.get_closest_marker("serial"):
            item.add_marker(pytest.mark.xdist_group("serial"))


@pytest.fixture(autouse=True)
def isolated_env(tmp_path, monkeypatch):
    """No test, nor any process it starts, reads or writes the user's real store, policy, session,
    station, home or client settings: everything lives under this test's own tmp_path."""
    for name, value in isolated_environ(tmp_path).items():
        monkeypatch.setenv(name, value)
    for name in (
        "LAZARETTO_POLICY",
        "LAZARETTO_SESSION",
        "LAZARETTO_STATION",  # a station the developer's shell opted into
        "LAZARETTO_ROOT",
        "LAZARETTO_DEMO_LOG",
        "LAZARETTO_PLAIN_ENGINE",
        "CODEX_HOME",
        "CLAUDE_CONFIG_DIR",
    ):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "user-home"  # tests that look into HOME make their own `home`
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # the clients' settings (~/.claude, ~/.cursor...)


@pytest.fixture
def store_path(tmp_path) -> Path:
    """The path of this test's store file."""
    return tmp_path / "store.db"


@pytest.fixture
def store(store_path):
    """A real store on disk, closed after the test."""
    s = Store(store_path)
    yield s
    s.close()


@pytest.fixture
def lazaretto_cmd() -> list[str]:
    """How tests start the CLI as a real process."""
    return [sys.executable, "-m", "lazaretto.app"]


@pytest.fixture
def child_env(tmp_path) -> dict:
    """The environment for CLI and proxy subprocesses (inherits the isolated settings)."""
    return dict(os.environ)


@pytest.fixture
def terminal(lazaretto_cmd, child_env):
    """Start `lazaretto ARGS...` on a pty; every process is stopped at teardown."""
    started: list[Terminal] = []

    def start(*args: str, env: dict | None = None, stdin=None, stdout=None) -> Terminal:
        term = Terminal([*lazaretto_cmd, *args], env or child_env, stdin=stdin, stdout=stdout)
        started.append(term)
        return term

    yield start
    for term in started:
        term.kill()


@pytest.fixture
def cli(lazaretto_cmd, child_env):
    """Run `lazaretto ARGS...` with no terminal at all; returns the CompletedProcess."""

    def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*lazaretto_cmd, *args],
            env=env or child_env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=READ_TIMEOUT,
        )

    return run


@pytest.fixture
def proxy_env(tmp_path, store_path) -> dict:
    """One session, one store, one demo log for every proxy of a test."""
    env = dict(os.environ)
    env["LAZARETTO_SESSION"] = "test-session"
    env["LAZARETTO_STORE"] = str(store_path)
    env["LAZARETTO_DEMO_LOG"] = str(tmp_path / "server-calls.jsonl")
    policy = tmp_path / "lazaretto.toml"
    policy.write_text(WORM_POLICY)
    env["LAZARETTO_POLICY"] = str(policy)
    return env


@pytest.fixture
def start_proxy(proxy_env):
    """Start proxies; every one still running at the end is closed."""
    started: list[ProxyProcess] = []

    def start(args: list[str], env: dict | None = None, **kwargs) -> ProxyProcess:
        proxy = ProxyProcess(args, env or proxy_env, **kwargs)
        started.append(proxy)
        return proxy

    yield start
    for proxy in started:
        if proxy.proc.poll() is None:
            proxy.proc.kill()
            proxy.proc.wait()
