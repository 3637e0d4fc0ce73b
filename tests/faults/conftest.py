"""Fixtures for the fault suite: real proxies around the scripted server, cleaned up whatever happens."""

import os

import pytest
from support.faultkit import POLICY, PROXY_ARGS, children
from support.proxy_harness import ProxyProcess


@pytest.fixture
def fault_env(tmp_path, store_path) -> dict:
    """One session, one store and the fault policy for every proxy of a test."""
    policy = tmp_path / "policy.toml"
    policy.write_text(POLICY)
    return {
        **os.environ,
        "LAZARETTO_SESSION": "fault-session",
        "LAZARETTO_STORE": str(store_path),
        "LAZARETTO_POLICY": str(policy),
    }


@pytest.fixture
def start(fault_env, tmp_path):
    """Start a proxy that has listed its server's tools, as clients do before they call one;
    `settings` go into the policy's `[proxy]` table, `popen` to Popen."""
    started: list[ProxyProcess] = []

    def launch(settings: str = "", **popen) -> ProxyProcess:
        env = fault_env
        if settings:
            policy = tmp_path / f"policy-{len(started)}.toml"
            policy.write_text(f"{POLICY}[proxy]\n{settings}\n")
            env = {**fault_env, "LAZARETTO_POLICY": str(policy)}
        proxy = ProxyProcess(PROXY_ARGS, env, **popen)
        started.append(proxy)
        proxy.initialize()
        proxy.request("tools/list")
        return proxy

    yield launch
    for proxy in started:
        for child in children(proxy.proc.pid):
            child.kill()
        if proxy.proc.poll() is None:
            proxy.proc.kill()
            proxy.proc.wait()
