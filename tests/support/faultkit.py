"""Helpers for the fault suite: the processes behind a proxy, and reading its answers."""

import subprocess
import sys

import psutil

from support.proxy_harness import SCRIPTED_SERVER, ProxyProcess

# The scripted server's reads are untrusted; `echo` counts as outbound, so refusals show.
POLICY = '[servers.scripted]\ntrust = "untrusted"\noutbound = ["echo"]\n'
PROXY_ARGS = ["-n", "scripted", "--", *SCRIPTED_SERVER]


def children(pid: int) -> list[psutil.Process]:
    """The live descendants of a process (the MCP server behind a proxy)."""
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def server_of(proxy: ProxyProcess | subprocess.Popen) -> psutil.Process:
    """The scripted server the proxy started."""
    (server,) = children(proxy.pid if isinstance(proxy, subprocess.Popen) else proxy.proc.pid)
    return server


def gone(process: psutil.Process, timeout: float = 10) -> bool:
    """Whether the process has exited within `timeout` seconds."""
    try:
        process.wait(timeout)
    except psutil.TimeoutExpired:
        return False
    except psutil.NoSuchProcess:
        pass
    return not process.is_running()


def text_of(reply: dict) -> str:
    """The first text block of a tools/call result."""
    return reply["result"]["content"][0]["text"]


def raw_proxy(env: dict) -> subprocess.Popen[bytes]:
    """A proxy with bare pipes, for tests that break the pipes themselves."""
    return subprocess.Popen(
        [sys.executable, "-m", "lazaretto.app", "proxy", *PROXY_ARGS],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
