"""A station that dies, stops mid-request, restarts or runs out of disk: clients fail closed, nothing is lost."""

import resource
import shutil
import signal
import subprocess

import psutil
import pytest
from bench.station_process import StationProcess
from support.faultkit import text_of
from support.waiting import wait_for

from lazaretto.store import Store


@pytest.fixture
def station(tmp_path):
    running = StationProcess(tmp_path)
    running.start()
    yield running
    if (
        running.proc is not None
        and running.proc.poll() is None
        and psutil.Process(running.proc.pid).status() == psutil.STATUS_STOPPED
    ):
        running.proc.send_signal(signal.SIGCONT)
    running.stop()


@pytest.fixture
def fault_env(fault_env, station) -> dict:
    """The fault suite's environment (its `start` fixture uses it), on the station and no file."""
    return station.env(fault_env)


def withheld_ids(station) -> set[str]:
    store = Store(station.store)
    try:
        return {row["id"] for row in store.quarantine.recent(limit=1000)}
    finally:
        store.close()


def assert_failing_closed(proxy, tag: str) -> None:
    read = proxy.call("prose", {"bytes": 40})
    assert read["result"]["isError"] is True and "station" in text_of(read)
    injected = proxy.call("injected", {"tag": tag})
    assert injected["result"]["isError"] is True and "Note for the AI" not in text_of(injected)
    refused = proxy.call("echo", {"to": "somewhere"})
    assert refused["error"]["data"]["reason"] == "store_unavailable"
    assert "start it" in refused["error"]["message"]


def assert_deciding(proxy, tag: str) -> str:
    assert text_of(proxy.call("prose", {"bytes": 9})) == "The build"
    notice = text_of(proxy.call("injected", {"tag": tag}))
    assert notice.startswith("[lazaretto: withheld field Q-")
    refused = proxy.call("echo", {"to": "somewhere"})
    assert (
        refused["error"]["data"]["reason"] == "tainted_outbound"
        and refused["error"]["data"]["token"]
    )
    return notice.split()[3]


def test_a_station_that_dies_fails_clients_closed_and_keeps_what_it_acknowledged(station, start):
    proxy = start()
    before = assert_deciding(proxy, "before")
    station.kill()
    assert_failing_closed(proxy, "while-dead")
    station.start()
    after = assert_deciding(proxy, "after")
    assert {before, after} <= withheld_ids(station)
    store = Store(station.store)
    try:
        assert store.audit.verify().ok and store.sessions.state("fault-session").tainted
    finally:
        store.close()


def waiting_for(pid: int) -> int:
    """What waits unread on the process's Unix sockets, as `ss` shows it in Recv-Q: bytes on a
    connection, or connections not yet accepted on a listening socket."""
    listing = subprocess.run(
        ["ss", "--unix", "--processes", "--no-header"], capture_output=True, text=True, check=True
    ).stdout
    return sum(int(line.split()[2]) for line in listing.splitlines() if f"pid={pid}," in line)


def test_a_station_killed_in_the_middle_of_a_request(station, start):
    if shutil.which("ss") is None:
        pytest.skip("ss (iproute2) is missing: .ci/run installs it")
    proxy = start()
    first = assert_deciding(proxy, "before")
    assert station.proc is not None
    station.proc.send_signal(signal.SIGSTOP)  # the next request reaches it and is never answered
    proxy.send(
        {
            "jsonrpc": "2.0",
            "id": 900,
            "method": "tools/call",
            "params": {"name": "injected", "arguments": {"tag": "in-flight"}},
        }
    )
    stopped = station.proc.pid
    wait_for(lambda: waiting_for(stopped) > 0, "the request reaching the stopped station")
    station.kill()
    answer = proxy.recv()
    assert answer["id"] == 900 and answer["result"]["isError"] is True
    assert "Note for the AI" not in text_of(answer)
    station.start()
    assert_deciding(proxy, "after")
    assert first in withheld_ids(station)


def test_a_station_out_of_disk_refuses_with_its_reason_and_recovers(station, start):
    proxy = start()
    assert_deciding(proxy, "before")
    assert station.proc is not None
    limit = psutil.Process(station.proc.pid)
    soft, hard = limit.rlimit(resource.RLIMIT_FSIZE)
    # A write past the limit fails with EFBIG, as on a full disk (Python ignores SIGXFSZ).
    limit.rlimit(resource.RLIMIT_FSIZE, (1, hard))
    try:
        injected = proxy.call("injected", {"tag": "while-full"})
        assert injected["result"]["isError"] is True and "Note for the AI" not in text_of(injected)
        refused = proxy.call("echo", {"to": "somewhere"})
        assert "error" in refused and refused["error"]["data"]["token"] is None
    finally:
        limit.rlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert station.proc.poll() is None  # the station kept running through it
    assert_deciding(proxy, "after")
