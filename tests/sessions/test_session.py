"""Session discovery: every proxy one client starts agrees on the key, through shells too."""

import os
import subprocess
import sys

PRINT_KEY = "from lazaretto.proxy.session import discover_session; print(discover_session().key)"


def key_from(argv: list[str], env: dict) -> str:
    return subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout.strip()


def test_children_direct_and_through_a_shell_share_the_client_key():
    env = {k: v for k, v in os.environ.items() if k != "LAZARETTO_SESSION"}
    direct = key_from([sys.executable, "-c", PRINT_KEY], env)
    through_shell = key_from(["sh", "-c", f'{sys.executable} -c "{PRINT_KEY}"'], env)
    nested = key_from(["sh", "-c", f"env sh -c '{sys.executable} -c \"{PRINT_KEY}\"'"], env)
    assert direct == through_shell == nested
    assert f"-{os.getpid()}-" in direct


def test_environment_override_wins():
    env = {**os.environ, "LAZARETTO_SESSION": "chosen"}
    assert key_from([sys.executable, "-c", PRINT_KEY], env) == "chosen"
