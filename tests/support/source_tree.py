"""This checkout as a distribution sees it: the files a commit holds, by their installed names."""

import shutil
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PACKAGE_DIR: dict[str, str] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "tool"
]["setuptools"]["package-dir"]
"""Each package of the distribution and the folder it is read from (`lazaretto.app` -> `app`)."""


def source_files() -> list[str]:
    """Every file a commit would hold (tracked, or new and not ignored), relative to the root."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def package_files() -> dict[str, str]:
    """The package folders' files, by the path each has in an installation (`lazaretto/app/...`)."""
    installed = {}
    for name in source_files():
        for package, folder in PACKAGE_DIR.items():
            if name.startswith(folder + "/"):
                installed[package.replace(".", "/") + name[len(folder) :]] = name
    return installed


def copy_files(names: dict[str, str], target: Path) -> None:
    """Copy each file (`{target name: source name}`) from this checkout to under `target`."""
    for to, source in names.items():
        (target / to).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / source, target / to)
