"""The store's beacon: a change one process makes is seen by another, and no beacon means ask the store."""

import os

import pytest

from lazaretto.proxy.quarantine.fingerprint_index import FingerprintIndex
from lazaretto.store import Store, StoreUnavailable
from lazaretto.store import store as store_module
from lazaretto.store.beacon import Beacon


def test_a_ring_is_seen_by_every_mapping_of_the_file(tmp_path):
    store = tmp_path / "s.db"
    mine, theirs = Beacon(store), Beacon(store)
    before = mine.read()
    assert before == theirs.read() is not None
    theirs.ring()
    assert mine.read() != before
    assert mine.read() == theirs.read()
    assert mine.path is not None and oct(os.stat(mine.path).st_mode & 0o777) == "0o600"


def test_a_truncated_beacon_reads_as_a_change(tmp_path):
    beacon = Beacon(tmp_path / "s.db")
    beacon.ring()
    rung = beacon.read()
    assert beacon.path is not None and rung is not None
    os.truncate(beacon.path, 0)  # someone empties the file under a running proxy
    assert beacon.read() != rung
    beacon.ring()
    again = beacon.read()
    assert again is not None and len(again) == 8


def test_without_a_file_to_map_there_is_no_beacon(tmp_path):
    assert Beacon(None).read() is None
    missing = Beacon(tmp_path / "no" / "such" / "dir" / "s.db")
    assert missing.read() is None
    missing.ring()  # nothing to ring, and no error


def test_a_payload_withheld_by_another_process_is_known_at_the_next_look(store_path):
    index_store, other = Store(store_path), Store(store_path)
    index = FingerprintIndex(index_store)
    assert not index.active()
    qid = other.quarantine.withhold(
        session="s",
        server="web",
        tool="fetch",
        method="tools/call",
        request_id="1",
        path="/content/0/text",
        content_hash="h",
        fingerprint="f",
        payload_fingerprints=[(11, 22, "word")],
        original="o",
        cleaned="c",
        score=1.0,
        signals=[],
        decoded=[],
        removed=[],
    )
    assert qid and index.active() and 11 in index._known
    other.close()
    index_store.close()


def test_a_still_beacon_spares_the_store_for_at_most_a_second(store_path, monkeypatch):
    index = FingerprintIndex(Store(store_path))
    index.active()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{store_path}{suffix}"):
            os.unlink(f"{store_path}{suffix}")
    assert index.active() is False  # nothing rang: the store was not asked
    monkeypatch.setattr(store_module, "BEACON_TRUST_SECONDS", 0.0)
    with pytest.raises(StoreUnavailable):
        index.active()  # asked at the latest after BEACON_TRUST_SECONDS: the deletion shows


def test_every_commit_rings_the_beacon(store_path):
    mine, other = Store(store_path), Store(store_path)
    mine.sessions.ensure("s")
    before, version = mine.beacon.read(), mine.data_version()
    other.sessions.taint(
        "s", server="web", tool="fetch", method="tools/call", reason="r", request_id="1"
    )
    assert mine.beacon.read() != before
    assert mine.data_version() != version
