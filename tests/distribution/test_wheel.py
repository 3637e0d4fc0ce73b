"""The wheel ships every package and every file its code opens, and nothing of the development tree:
no tests, no bytecode, no caches, no development tools."""

import subprocess
import sys
import zipfile
from pathlib import PurePosixPath

import pytest
from support.source_tree import copy_files, package_files, source_files

pytestmark = pytest.mark.slow

PACKAGE_DATA = ("lazaretto/app/review/app.tcss", "lazaretto/proxy/detect/learned_reading.bin.xz")
"""Files the code opens by a path beside its own module (named here too, in case one goes missing
from the checkout as well)."""

LEFT_IN_A_CHECKOUT = (
    "app/__pycache__/cli.cpython-311.pyc",
    "proxy/detect/__pycache__/signals-0123456789abcdef01234567.hsdb",
    "proxy/detect/__pycache__/terms-0123456789abcdef01234567.json",
    "store/station/__pycache__/server.cpython-311.pyc",
)
"""Bytecode and caches an older version left beside the modules: planted in the copy built."""

DEVELOPMENT_TOOLS = ("screenshots.py",)
"""Tools for working on Lazaretto, never for its users: the review app's screenshot maker."""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> list[str]:
    """The names in a wheel built from a copy of this checkout, as a fresh clone would build it."""
    source = tmp_path_factory.mktemp("checkout")
    copy_files({name: name for name in source_files()}, source)
    for planted in LEFT_IN_A_CHECKOUT:
        (source / planted).parent.mkdir(parents=True, exist_ok=True)
        (source / planted).write_bytes(b"left over")
    out = tmp_path_factory.mktemp("wheel")
    # The test environment's own setuptools (pyproject's test extra): no isolated environment
    # to download a build backend into, so no network and no index is needed.
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check"),
            *("--no-deps", "--no-build-isolation", "--no-index", "--wheel-dir", str(out)),
            str(source),
        ],
        check=True,
        capture_output=True,
        cwd=source,
    )
    (built,) = out.glob("lazaretto-*.whl")
    with zipfile.ZipFile(built) as archive:
        return archive.namelist()


def test_every_module_and_data_file_of_the_packages_ships(wheel):
    # Every file of app/, store/ and proxy/ a commit holds: each package's modules (a package
    # missing from pyproject's list ships none of them) and the data the code opens.
    expected = set(package_files()) | set(PACKAGE_DATA)
    assert sorted(expected - set(wheel)) == []


def test_nothing_of_the_development_tree_ships(wheel):
    top = {PurePosixPath(name).parts[0] for name in wheel}
    assert {part for part in top if not part.startswith("lazaretto-")} == {"lazaretto"}
    unwanted = [
        name
        for name in wheel
        if "__pycache__" in name
        or name.endswith((".pyc", ".hsdb"))
        or "tests" in PurePosixPath(name).parts
        or PurePosixPath(name).name.startswith(("test_", "conftest"))
    ]
    assert unwanted == []
    # A tool still among the package's modules ships with it (the screenshot maker sits in
    # app/review/ until it moves out); from then on it must not.
    in_packages = {PurePosixPath(name).name for name in package_files()}
    tools = set(DEVELOPMENT_TOOLS) - in_packages
    assert [name for name in wheel if PurePosixPath(name).name in tools] == []
