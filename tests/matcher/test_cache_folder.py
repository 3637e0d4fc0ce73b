"""The cache folder keeps what was used lately: files no process read for a month go, the rest stay."""

import os
import time

import pytest

from lazaretto.proxy.matcher import cache_folder

DAY = 24 * 60 * 60


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return cache_folder.path()


def aged(name: str, days: float) -> None:
    """Set the file's modification time `days` back, as if nothing touched it since."""
    then = time.time() - days * DAY
    os.utime(cache_folder.path() / name, (then, then))


def test_a_file_no_process_read_for_a_month_goes_with_the_next_write(folder):
    cache_folder.write("signals-old.hsdb", b"an upgrade ago")
    cache_folder.write("signals-used.hsdb", b"read every day")
    aged("signals-old.hsdb", cache_folder.UNUSED_DAYS + 1)
    aged("signals-used.hsdb", cache_folder.UNUSED_DAYS - 1)
    (folder / ".building-left-behind").write_bytes(b"a writer that died")
    aged(".building-left-behind", cache_folder.UNUSED_DAYS + 1)
    cache_folder.write("signals-new.hsdb", b"this version")
    assert sorted(path.name for path in folder.iterdir()) == [
        "signals-new.hsdb",
        "signals-used.hsdb",
    ]
    assert cache_folder.read("signals-used.hsdb") == b"read every day"


def test_reading_a_file_keeps_it(folder):
    cache_folder.write("concepts-kept.hsdb", b"database")
    aged("concepts-kept.hsdb", cache_folder.UNUSED_DAYS - 1)
    assert cache_folder.read("concepts-kept.hsdb") == b"database"  # read today: used
    assert time.time() - (folder / "concepts-kept.hsdb").stat().st_mtime < DAY
    cache_folder.write("concepts-other.hsdb", b"another")
    aged("concepts-other.hsdb", 0)
    assert cache_folder.read("concepts-kept.hsdb") == b"database"


def test_a_file_read_within_a_day_is_not_written_to(folder):
    # Reading is most of a start-up's use of the folder: it changes nothing on disk that day.
    cache_folder.write("terms-today.json", b"[]")
    aged("terms-today.json", 0.5)
    before = (folder / "terms-today.json").stat().st_mtime_ns
    assert cache_folder.read("terms-today.json") == b"[]"
    assert (folder / "terms-today.json").stat().st_mtime_ns == before


def test_a_damaged_file_is_not_kept_as_used(folder):
    cache_folder.write("signals-damaged.hsdb", b"database")
    (folder / "signals-damaged.hsdb").write_bytes(b"\0\0\0\0damaged")
    aged("signals-damaged.hsdb", cache_folder.UNUSED_DAYS + 1)
    assert cache_folder.read("signals-damaged.hsdb") is None
    cache_folder.write("signals-rebuilt.hsdb", b"database")
    assert not (folder / "signals-damaged.hsdb").exists()
