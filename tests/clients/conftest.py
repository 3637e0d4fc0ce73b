"""A temporary HOME and project folder for every client-config test; the CLI runs as a real process."""

import os
import subprocess
import sysconfig
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
def script() -> Path:
    """The `lazaretto` console script of this interpreter's installation of the package."""
    return Path(sysconfig.get_path("scripts")) / "lazaretto"


@pytest.fixture
def lazaretto(home, script):
    """`lazaretto(*args)` -> CompletedProcess, run in the project folder with the temporary HOME.

    The installed console script, first on PATH as in a person's activated environment: what
    `wrap` writes into a client's settings is the `lazaretto` it finds there, whatever else the
    test run's PATH holds."""
    env = {**os.environ, "PATH": os.pathsep.join([str(script.parent), os.environ["PATH"]])}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(script), *args],
            capture_output=True,
            text=True,
            env=env,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )

    return run
