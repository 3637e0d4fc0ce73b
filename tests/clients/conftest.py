"""A temporary HOME and project folder for every client-config test; the CLI runs as a real process."""

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """An empty HOME (and project folder as the working directory), for this process and its children."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return folder


@pytest.fixture
def lazaretto(home):
    """`lazaretto(*args)` -> CompletedProcess, run in the project folder with the temporary HOME."""

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "lazaretto.app", *args],
            capture_output=True,
            text=True,
            env=dict(os.environ),
            stdin=subprocess.DEVNULL,
            timeout=60,
        )

    return run
