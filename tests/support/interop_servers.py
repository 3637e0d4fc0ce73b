"""The real MCP servers of the interop suite, each started as a user starts it, on data of its own.

Each server's `launch(folder)` lays out the data it serves there (files, a repository, a database)
unless it is there already, and returns its command line and the variables it reads. The data is
the same on every folder, so two launches on two folders serve the same content.
"""

import base64
import sqlite3
import subprocess
from pathlib import Path

from support.fetch_site import FETCH_BIN, FETCH_SERVER
from support.interop import ServerSpec, npm_server, pypi_server

# A 1x1 PNG, so that read_media_file reads a real image.
PIXEL_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="
)


def seed_files(folder: Path) -> Path:
    """A small project folder for the filesystem server."""
    root = folder / "files"
    if root.exists():
        return root
    (root / "docs").mkdir(parents=True)
    (root / "notes.txt").write_text("Release 4.2 builds faster.\nThe cache is per branch.\n")
    (root / "docs" / "guide.md").write_text("# Guide\n\nRun `make` to build.\n")
    (root / "pixel.png").write_bytes(PIXEL_PNG)
    return root


GIT_IDENTITY = {
    # Fixed names and dates: every commit, the seed's and the server's, has the same hash in
    # every copy of the repository, and no user or system git config changes what git does.
    "GIT_AUTHOR_NAME": "Interop Tester",
    "GIT_AUTHOR_EMAIL": "tester@interop.invalid",
    "GIT_COMMITTER_NAME": "Interop Tester",
    "GIT_COMMITTER_EMAIL": "tester@interop.invalid",
    # git's own form (seconds and offset), which GitPython reads too: 2026-01-02 03:04:05 UTC.
    "GIT_AUTHOR_DATE": "1767323045 +0000",
    "GIT_COMMITTER_DATE": "1767323045 +0000",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def seed_repository(folder: Path) -> Path:
    """A repository with two commits, one staged change and one unstaged change."""
    repo = folder / "repo"
    if (repo / ".git").exists():
        return repo
    repo.mkdir(parents=True)

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo, env=GIT_IDENTITY, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    (repo / "README.md").write_text("# Widget\n\nA small widget.\n")
    git("add", "README.md")
    git("commit", "-q", "-m", "Start the widget")
    (repo / "widget.py").write_text("def size():\n    return 1\n")
    git("add", "widget.py")
    git("commit", "-q", "-m", "Add the widget's size")
    (repo / "widget.py").write_text("def size():\n    return 2\n")
    git("add", "widget.py")
    (repo / "README.md").write_text("# Widget\n\nA small widget, twice the size.\n")
    return repo


def seed_database(folder: Path) -> Path:
    """A SQLite database with one table of three rows."""
    path = folder / "shop.db"
    if not path.exists():
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT, price REAL)")
            db.executemany(
                "INSERT INTO products (name, price) VALUES (?, ?)",
                [("kettle", 24.5), ("teapot", 18.0), ("mug", 6.25)],
            )
        db.close()
    return path


FILESYSTEM = ServerSpec(
    "filesystem",
    npm_server("mcp-server-filesystem"),
    arguments=lambda folder: [str(seed_files(folder))],
)
MEMORY = ServerSpec(
    "memory",
    npm_server("mcp-server-memory"),
    env=lambda folder: {"MEMORY_FILE_PATH": str(folder / "memory.jsonl")},
)
EVERYTHING = ServerSpec(
    "everything", npm_server("mcp-server-everything"), arguments=lambda folder: ["stdio"]
)
# No token: the server lists its tools, and every call would need GitHub itself.
GITHUB = ServerSpec("github", npm_server("mcp-server-github"))
# No browser is installed (none can be downloaded here): the server lists its tools all the same.
PLAYWRIGHT = ServerSpec(
    "playwright", npm_server("playwright-mcp"), arguments=lambda folder: ["--headless"]
)
GIT = ServerSpec(
    "git",
    pypi_server("mcp-server-git"),
    arguments=lambda folder: ["--repository", str(seed_repository(folder))],
    env=lambda folder: GIT_IDENTITY,
)
# A fixed local time zone: the server would otherwise read the machine's.
TIME = ServerSpec(
    "time", pypi_server("mcp-server-time"), arguments=lambda folder: ["--local-timezone", "UTC"]
)
FETCH = ServerSpec("fetch", FETCH_BIN, arguments=lambda folder: FETCH_SERVER[1:])
SQLITE = ServerSpec(
    "sqlite",
    pypi_server("mcp-server-sqlite", "sqlite"),
    arguments=lambda folder: ["--db-path", str(seed_database(folder))],
)
SERVERS = [FILESYSTEM, MEMORY, EVERYTHING, GITHUB, PLAYWRIGHT, GIT, TIME, FETCH, SQLITE]
