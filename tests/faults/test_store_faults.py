"""The store goes away while a proxy runs: reads are withheld, outbound calls refused, and it recovers."""

import contextlib
import os
import resource
import shutil
import subprocess

import psutil
import pytest
from support.faultkit import text_of

from lazaretto.store import Store

REFUSED = -32002


def assert_failing_closed(proxy, tag: str) -> None:
    """Untrusted text is withheld with a notice, outbound calls are refused, and the proxy still answers."""
    read = proxy.call("prose", {"bytes": 40})
    assert read["result"]["isError"] is True
    assert "store cannot be written" in text_of(read) and "The build" not in text_of(read)
    injected = proxy.call("injected", {"tag": tag})
    assert injected["result"]["isError"] is True and "Note for the AI" not in text_of(injected)
    refused = proxy.call("echo", {"to": "somewhere"})
    assert refused["error"]["code"] == REFUSED
    assert (
        refused["error"]["data"]["reason"] == "store_unavailable"
        and refused["error"]["data"]["token"] is None
    )


def assert_deciding_again(proxy, store_path, tag: str) -> None:
    """Reads pass and taint, injections are withheld into the store, tainted outbound calls get a token."""
    assert text_of(proxy.call("prose", {"bytes": 9})) == "The build"
    injected = text_of(proxy.call("injected", {"tag": tag}))
    assert injected.startswith("[lazaretto: withheld field Q-")
    refused = proxy.call("echo", {"to": "somewhere"})
    assert (
        refused["error"]["data"]["reason"] == "tainted_outbound"
        and refused["error"]["data"]["token"]
    )
    store = Store(store_path)
    try:
        assert any(tag in row["original"] for row in store.query("SELECT original FROM quarantine"))
        assert store.audit.verify().ok
    finally:
        store.close()


def test_store_deleted_while_running(start, store_path):
    proxy = start()
    assert_deciding_again(proxy, store_path, "before")
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{store_path}{suffix}")
    assert_failing_closed(proxy, "while-deleted")
    assert not store_path.exists()  # not silently recreated, which would forget the taint
    Store(store_path).sessions.ensure("someone-else")  # a new store appears (any other process)
    assert_deciding_again(proxy, store_path, "after")


def test_store_locked_past_the_busy_timeout(start, store_path):
    proxy = start("store_busy_timeout_seconds = 0.2")
    holder = Store(store_path)
    with holder.write():  # another writer holds the write lock for as long as this block runs
        assert_failing_closed(proxy, "while-locked")
    holder.close()
    assert_deciding_again(proxy, store_path, "after")


def test_store_read_only_then_writable(start, store_path):
    Store(store_path).sessions.ensure("fault-session")
    with read_only(store_path):
        proxy = start()
        assert_failing_closed(proxy, "while-read-only")
    assert_deciding_again(proxy, store_path, "after")


def test_store_out_of_space(start, store_path):
    proxy = start()
    limit = psutil.Process(proxy.proc.pid)
    soft, hard = limit.rlimit(resource.RLIMIT_FSIZE)
    # Python ignores SIGXFSZ, so a write past the limit fails with EFBIG as on a full disk.
    limit.rlimit(resource.RLIMIT_FSIZE, (1, hard))
    assert_failing_closed(proxy, "while-full")
    limit.rlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert_deciding_again(proxy, store_path, "after")


@contextlib.contextmanager
def read_only(path):
    """Make the store file unwritable, even for root (the immutable flag), and writable again after."""
    if os.geteuid() != 0:
        os.chmod(path, 0o400)
        try:
            yield
        finally:
            os.chmod(path, 0o600)
        return
    chattr = shutil.which("chattr")
    if (
        chattr is None
        or subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode != 0
    ):
        pytest.skip("running as root without an immutable flag: no way to make the store read-only")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


def post_refused(start) -> str:
    """What a new proxy of the same session (a fresh process, as a hook is) does with an outbound call."""
    fresh = start()
    try:
        refused = fresh.call("echo", {"to": "somewhere"})
        return refused["error"]["data"]["reason"] if "error" in refused else "went through"
    finally:
        fresh.close()


def taint_and_check(proxy, store_path) -> None:
    text_of(proxy.call("prose", {"bytes": 9}))
    assert proxy.call("echo", {"to": "x"})["error"]["data"]["reason"] == "tainted_outbound"


def test_lost_wal_and_shm_keep_the_taint_for_new_processes(start, store_path):
    proxy = start()
    taint_and_check(proxy, store_path)
    for suffix in ("-wal", "-shm"):
        os.unlink(f"{store_path}{suffix}")
    # The session's first taint was copied into the main file: a new process still finds it.
    assert post_refused(start) == "tainted_outbound"
    # The running proxy notices the lost files on its next message and keeps refusing.
    assert proxy.call("echo", {"to": "x"})["error"]["data"]["reason"] == "tainted_outbound"
    store = Store(store_path)
    try:
        assert store.sessions.state("fault-session").tainted
        assert store.audit.verify().ok
    finally:
        store.close()


@pytest.mark.parametrize("how", ["replaced by an untainted copy", "deleted and recreated"])
def test_a_store_lost_under_a_live_session_taints_that_session_again(start, store_path, how):
    proxy = start()
    clean = store_path.with_name("clean.db")
    if how == "replaced by an untainted copy":
        source = Store(store_path)
        with source.write():
            pass
        source.close()
        shutil.copy(store_path, clean)  # before any taint: a copy an attacker keeps for later
    taint_and_check(proxy, store_path)
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{store_path}{suffix}")
    if how == "replaced by an untainted copy":
        os.replace(clean, store_path)
    else:
        Store(store_path).sessions.ensure("someone-else")  # any process recreates it
    # The proxy is the witness: its next message finds another file and taints its session in it.
    proxy.call("prose", {"bytes": 9})
    assert post_refused(start) == "tainted_outbound"
    store = Store(store_path)
    try:
        reasons = [e["reason"] for e in store.sessions.state("fault-session").reasons]
        assert any("was deleted or replaced while this session was running" in r for r in reasons)
        assert store.audit.verify().ok
    finally:
        store.close()
