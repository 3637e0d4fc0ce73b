"""Fixtures that start real proxies for the end-to-end tests."""

import os

import pytest
from proxy_harness import WORM_POLICY, ProxyProcess


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
