"""The process facts a proxy reads from /proc are psutil's: hooks and the station compare them."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from lazaretto.proxy import processes, session
from lazaretto.proxy.presence import start_time
from lazaretto.proxy.processes import LinuxProcess, ZombieProcess

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def facts(process) -> tuple:
    parent = process.parent()
    return (
        process.pid,
        process.name(),
        process.cmdline(),
        process.create_time(),
        None if parent is None else parent.pid,
    )


def test_every_process_reads_as_psutil_reads_it():
    compared = 0
    for pid in psutil.pids():
        try:
            found = facts(LinuxProcess(pid))
            expected = facts(psutil.Process(pid))
            again = facts(LinuxProcess(pid))
        except (psutil.Error, OSError):
            continue  # gone meanwhile, or another user's
        if again != found:
            continue  # it ran another program meanwhile (other tests start processes)
        assert found == expected
        compared += 1
    assert compared > 3


def test_a_long_name_with_parentheses_and_spaces(tmp_path: Path):
    # The kernel keeps "sleep (1) with " of it; psutil reads the rest from the command line.
    program = tmp_path / "sleep (1) with a long name"
    program.symlink_to("/bin/sleep")
    child = subprocess.Popen([str(program), "30"])
    try:
        _wait_for_exec(child.pid, program)
        found = LinuxProcess(child.pid)
        assert found.name() == psutil.Process(child.pid).name() == program.name
        assert facts(found) == facts(psutil.Process(child.pid))
    finally:
        child.kill()
        child.wait()


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl retitles its process")
def test_a_command_line_rewritten_with_spaces():
    # Setting $0 writes the title over the arguments: one string, its words split by spaces.
    child = subprocess.Popen(
        ["perl", "-e", '$0 = "retitled with spaces"; $| = 1; print "ready\\n"; sleep 30'],
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        found = LinuxProcess(child.pid)
        assert (
            found.cmdline() == psutil.Process(child.pid).cmdline() == "retitled with spaces".split()
        )
        assert facts(found) == facts(psutil.Process(child.pid))
    finally:
        child.kill()
        child.wait()


def test_a_zombie_has_no_command_line_as_psutil_says():
    child = subprocess.Popen(["/bin/true"])
    try:
        _wait_for_state(child.pid, b"Z")
        with pytest.raises(psutil.ZombieProcess):
            psutil.Process(child.pid).cmdline()
        with pytest.raises(ZombieProcess):
            LinuxProcess(child.pid).cmdline()
        assert LinuxProcess(child.pid).name() == psutil.Process(child.pid).name()
        assert LinuxProcess(child.pid).create_time() == psutil.Process(child.pid).create_time()
    finally:
        child.wait()


def test_a_process_gone_is_an_os_error():
    child = subprocess.Popen(["/bin/true"])
    child.wait()
    with pytest.raises(OSError):
        LinuxProcess(child.pid)
    assert start_time(child.pid) is None


def test_start_time_is_psutils_whole_seconds():
    assert start_time(os.getpid()) == int(psutil.Process().create_time())


def test_the_session_walk_finds_the_client_psutil_finds(monkeypatch):
    # sh -> sh -> sleep under this test's process: the shells are passed through.
    chain = subprocess.Popen(["sh", "-c", "sh -c 'sleep 30; :'; :"])
    try:
        sleeper = _wait_for_child_named(chain.pid, "sleep")
        found = session.discover_session({}, psutil.Process(sleeper).ppid())
        monkeypatch.setattr(processes, "process", psutil.Process)
        monkeypatch.setattr(processes, "errors", lambda: (psutil.Error, OSError))
        monkeypatch.setattr(session, "process", psutil.Process)
        monkeypatch.setattr(session, "errors", lambda: (psutil.Error, OSError))
        expected = session.discover_session({}, psutil.Process(sleeper).ppid())
    finally:
        chain.kill()
        chain.wait()
    assert found == expected
    assert found.client_pid == os.getpid()


def test_a_proxy_start_reads_processes_without_psutil():
    probe = (
        "import os, sys\n"
        "from lazaretto.proxy.presence import start_time\n"
        "from lazaretto.proxy.session import discover_session\n"
        "assert discover_session({}).client_pid is not None\n"
        "assert start_time(os.getpid()) is not None\n"
        "print('psutil' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out == "False\n"


def _wait_for_exec(pid: int, program: Path) -> None:
    # The kernel names the process before it writes the new command line: wait for both.
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0] != bytes(program):
        assert time.monotonic() < deadline
        time.sleep(0.01)


def _wait_for_state(pid: int, state: bytes) -> None:
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()[0] != state:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def _wait_for_child_named(pid: int, name: str) -> int:
    deadline = time.monotonic() + 10
    while True:
        for child in psutil.Process(pid).children(recursive=True):
            if child.name() == name:
                return child.pid
        assert time.monotonic() < deadline
        time.sleep(0.01)


@pytest.mark.parametrize(
    "stat, system",
    [
        (b"42 (agent) S", b"btime 1700000000\n"),  # a stat line cut short
        (b"42 (agent) S one two", b"btime 1700000000\n"),  # not numbers where Linux writes them
        (None, b"btime\n"),  # this process's own stat, but no boot time
    ],
)
def test_a_proc_it_cannot_read_is_no_process_table_not_a_crash(monkeypatch, tmp_path, stat, system):
    fake = tmp_path / "proc"
    (fake / "42").mkdir(parents=True)
    (fake / "42" / "stat").write_bytes(
        Path(f"/proc/{os.getpid()}/stat").read_bytes() if stat is None else stat
    )
    (fake / "42" / "cmdline").write_bytes(b"agent\0")
    (fake / "stat").write_bytes(system)
    monkeypatch.setattr(processes, "_PROC", str(fake))
    with pytest.raises(OSError):
        processes.process(42).create_time()
    assert session.discover_session({}, parent_pid=42) == session.SessionInfo("ppid-42", 42)
    assert start_time(42) is None
