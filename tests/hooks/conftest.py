"""Run `lazaretto hook CLIENT EVENT` as the client would: a real process, JSON on stdin, one session."""

import json
import os
import subprocess
import sys

import pytest


@pytest.fixture
def hook_env(tmp_path, store_path) -> dict:
    """One session and one store for every hook and proxy of a test."""
    env = dict(os.environ)
    env["LAZARETTO_SESSION"] = "hook-session"
    env["LAZARETTO_STORE"] = str(store_path)
    env["HOME"] = str(tmp_path / "home")
    return env


@pytest.fixture
def run_hook(hook_env):
    """`run_hook(client, event, data)` -> (exit code, parsed stdout or None, stderr)."""

    def run(client: str, event: str, data, env: dict | None = None, raw: bytes | None = None):
        stdin = raw if raw is not None else json.dumps(data).encode()
        done = subprocess.run(
            [sys.executable, "-m", "lazaretto.app", "hook", client, event],
            input=stdin,
            capture_output=True,
            env=env or hook_env,
            timeout=60,
        )
        out = done.stdout.decode()
        return done.returncode, (json.loads(out) if out.strip() else None), done.stderr.decode()

    return run


@pytest.fixture
def bash_event(tmp_path):
    """`bash_event(command)`: Claude Code's PreToolUse input for its Bash tool, run in tmp_path."""

    def event(command: str) -> dict:
        return {
            "session_id": "s",
            "transcript_path": "/tmp/t.jsonl",
            "cwd": str(tmp_path),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "toolu_01",
        }

    return event
