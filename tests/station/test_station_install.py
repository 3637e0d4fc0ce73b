"""`sudo lazaretto station install` and `uninstall`, on a test root, as root (skipped without it)."""

import json
import os
import pwd
import stat
import subprocess
from pathlib import Path

import pytest
from support.stationkit import PASSPHRASE, Account, close_machine, new_machine, skip_reason
from support.terminal import Terminal

from lazaretto.app.station.units import CPU_WEIGHT, NICE
from lazaretto.store import Store

# Real OS accounts (useradd takes the system's passwd lock) and tmux: one test at a time.
pytestmark = pytest.mark.serial


@pytest.fixture
def bare():
    """Accounts and a root directory, nothing installed yet."""
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    world = new_machine()
    yield world
    close_machine(world)


def install_typing(bare, first: str, second: str, *args: str) -> Terminal:
    """`station install` as root, the two passphrase entries typed as given; finished."""
    term = Terminal(
        [
            *bare.lazaretto(),
            "station",
            "install",
            "--root",
            str(bare.root),
            "--account",
            bare.station_account,
            *args,
        ],
        {**os.environ, "LAZARETTO_ROOT": str(bare.root)},
    )
    term.passphrase(first)
    term.passphrase(second)
    term.finish()
    return term


def mode_of(path) -> tuple[int, int]:
    info = os.stat(path)
    return stat.S_IMODE(info.st_mode), info.st_uid


def test_install_imports_a_store_and_uninstall_purge_removes_everything(bare, tmp_path):
    embedded = tmp_path / "embedded.db"
    old = Store(embedded)
    old.sessions.taint("before-install", server="web", tool="f", method="tools/call", reason="read")
    old.close()
    term = install_typing(bare, PASSPHRASE, PASSPHRASE, "--import-store", str(embedded))
    assert term.proc.returncode == 0, term.output
    account = Account.named(bare.station_account)
    assert account.home == bare.state_dir
    assert mode_of(bare.marker) == (0o644, 0)
    assert mode_of(bare.marker.parent) == (0o755, 0)
    assert mode_of(bare.state_dir) == (0o700, account.uid)
    assert mode_of(bare.state_dir / "passphrase.json") == (0o600, account.uid)
    assert mode_of(bare.run_dir) == (0o755, account.uid)
    marker = json.loads(bare.marker.read_text())
    assert marker["uid"] == account.uid and marker["socket"] == str(bare.socket)
    unit = (bare.root / "etc/systemd/system/lazaretto-station.service").read_text()
    assert f"User={bare.station_account}" in unit and "station run --root" in unit
    assert " -I -m lazaretto.app" in unit  # isolated from the environment's PYTHONPATH
    assert f"\nNice={NICE}\n" in unit  # scheduled before the agents' processes
    assert f"\nCPUWeight={CPU_WEIGHT}\n" in unit  # a CPU share the agents' processes cannot take
    bare.start_station()
    status = bare.run_as(bare.reviewer, [*bare.lazaretto(), "status", "--json"])
    report = json.loads(status.stdout)
    assert report["mode"] == "station"
    assert any(s["key"] == "before-install" and s["tainted"] for s in report["sessions"])
    bare.stop()
    done = subprocess.run(
        [*bare.lazaretto(), "station", "uninstall", "--root", str(bare.root), "--purge"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert not bare.marker.exists() and not bare.state_dir.exists()
    with pytest.raises(KeyError):
        Account.named(bare.station_account)
    status = bare.run_as(bare.reviewer, [*bare.lazaretto(), "status", "--json"])
    assert json.loads(status.stdout)["mode"] == "embedded"


def test_install_needs_root_and_a_passphrase_typed_twice(bare):
    as_user = bare.terminal_as(
        bare.reviewer, "station", "install", "--root", str(bare.root), "--account", "nobody-here"
    )
    assert as_user.finish() == 2 and "run it as root" in as_user.output
    differ = install_typing(bare, PASSPHRASE, PASSPHRASE + " but different")
    assert differ.proc.returncode == 1 and "the two entries differ" in differ.output
    short = install_typing(bare, "short", "short")
    assert short.proc.returncode == 1 and "at least 8 characters" in short.output
    assert not bare.marker.exists()


def test_install_refuses_code_the_station_account_could_not_read(bare):
    """A Python under a folder only root may enter (pyenv's under /root) makes a dead station."""
    private = bare.root / "private"
    private.mkdir(mode=0o700)
    venv = private / "venv"
    subprocess.run([str(bare.python), "-m", "venv", "--without-pip", str(venv)], check=True)
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    ours, theirs = (
        subprocess.run(
            [python, "-c", purelib], check=True, capture_output=True, text=True
        ).stdout.strip()
        for python in (str(bare.python), str(venv / "bin" / "python"))
    )
    Path(theirs, "carry.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    term = Terminal(
        [str(venv / "bin" / "python"), "-m", "lazaretto.app", "station", "install"]
        + ["--root", str(bare.root), "--account", bare.station_account],
        {**os.environ, "LAZARETTO_ROOT": str(bare.root)},
    )
    assert term.finish() == 2, term.output
    assert "could not run Lazaretto's code" in term.output
    assert f"{private} (mode 0700): other accounts cannot enter it" in term.output
    assert not bare.marker.exists()
    with pytest.raises(KeyError):
        pwd.getpwnam(bare.station_account)


def test_the_demo_keeps_its_own_store_beside_a_station(bare):
    bare.install()
    bare.start_station()
    done = bare.run_as(bare.reviewer, [*bare.lazaretto(), "demo", "--no-ui"])
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    assert b"refused" in done.stdout and b"never received it" in done.stdout
    client = bare.client()
    try:
        assert [s["key"] for s in client.sessions.all()] == []
    finally:
        client.close()
