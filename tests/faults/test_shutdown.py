"""The client goes away or the proxy is told to stop: the server is terminated and the store stays whole."""

import json
import signal

import pytest
from support.faultkit import gone, raw_proxy, server_of

from lazaretto.store import Store

CALLS = 60


def injected_call(n: int) -> bytes:
    return (
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {"name": "injected", "arguments": {"tag": f"t{n}"}},
            }
        ).encode()
        + b"\n"
    )


def assert_store_whole(store_path) -> None:
    """The audit chain verifies, and every withheld row came with its audit row and fingerprints."""
    store = Store(store_path)
    try:
        assert store.audit.verify().ok
        assert store.query("PRAGMA integrity_check")[0]["integrity_check"] == "ok"
        withheld = store.query("SELECT id FROM quarantine")
        audited = {
            row["subject"]
            for row in store.query("SELECT subject FROM audit WHERE action = 'withhold'")
        }
        assert {row["id"] for row in withheld} == audited
        bare = store.query(
            "SELECT q.id FROM quarantine q LEFT JOIN fingerprints f ON f.quarantine_id = q.id"
            " WHERE f.quarantine_id IS NULL"
        )
        assert bare == []
    finally:
        store.close()


def ignoring(signum: int):
    """A Popen `preexec_fn`: the proxy starts with `signum` ignored, as a shell without job control
    starts a background job with SIGINT ignored; the server it starts inherits that."""
    return lambda: signal.signal(signum, signal.SIG_IGN)


@pytest.mark.parametrize(
    "server_heeds", [True, False], ids=["server dies of it", "server ignores it"]
)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_proxy_and_its_server_mid_stream(
    start, store_path, signum, server_heeds
):
    proxy = start(preexec_fn=None if server_heeds else ignoring(signum))
    server = server_of(proxy)
    assert proxy.call("injected", {"tag": "first"})["result"]  # one row is surely written
    # Many calls in flight, each writing a row, then the signal lands somewhere among them.
    proxy.send_raw(b"".join(injected_call(n) for n in range(100, 100 + CALLS)))
    proxy.recv()
    proxy.proc.send_signal(signum)
    answered = set()
    while (line := proxy.recv_raw()) is not None:
        answered.add(json.loads(line)["id"])
    assert answered <= set(range(100, 100 + CALLS))
    # Exits as a process the signal ended, whatever the server made of the signal passed on to it.
    assert proxy.proc.wait(15) == 128 + signum
    assert gone(server)
    assert_store_whole(store_path)


def test_the_client_closing_stdin_ends_the_server_and_the_proxy(fault_env, store_path):
    proc = raw_proxy(fault_env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(injected_call(1))
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1
    server = server_of(proc)
    proc.stdin.write(
        json.dumps(
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "hang"}}
        ).encode()
        + b"\n"
    )
    proc.stdin.close()
    proc.stdout.close()  # the client is gone altogether: the proxy's answers find a broken pipe
    assert proc.wait(15) == 0
    assert gone(server)
    assert_store_whole(store_path)


def test_a_broken_stdout_alone_stops_the_server(fault_env):
    proc = raw_proxy(fault_env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(injected_call(1))
    proc.stdin.flush()
    proc.stdout.readline()
    server = server_of(proc)
    proc.stdout.close()
    # The next answer meets the closed pipe: nobody is left to serve, so the server is stopped.
    proc.stdin.write(injected_call(2))
    proc.stdin.flush()
    assert gone(server)
    assert proc.wait(15) == 0
    proc.stdin.close()
