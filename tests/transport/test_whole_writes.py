"""Whole writes: every byte arrives in order however little each write takes, on real pipes."""

import io
import os
import threading
import time

import pytest

from lazaretto.proxy.transport.whole_writes import flush_whole, write_whole

DATA = bytes(range(256)) * 8192  # 2 MiB, far more than a pipe holds


def drained(read_fd: int, pause: float) -> tuple[threading.Thread, bytearray]:
    """A slow reader of the pipe, so the writer keeps finding it full."""
    got = bytearray()

    def read() -> None:
        while chunk := os.read(read_fd, 1 << 15):
            got.extend(chunk)
            time.sleep(pause)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader, got


@pytest.mark.parametrize("buffered", [False, True], ids=["raw", "buffered"])
def test_a_non_blocking_pipe_gets_every_byte(buffered):
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    stream = open(write_fd, "wb", buffering=-1 if buffered else 0)  # noqa: SIM115
    reader, got = drained(read_fd, 0.0005)
    write_whole(stream, DATA)
    flush_whole(stream)
    stream.close()
    reader.join(30)
    os.close(read_fd)
    assert bytes(got) == DATA


class ShortWrites(io.RawIOBase):
    """A raw stream that takes a few bytes per write, as one interrupted by signals does."""

    def __init__(self) -> None:
        self.taken = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        part = bytes(data[:1000])
        self.taken.extend(part)
        return len(part)


def test_short_writes_are_continued_until_the_whole_message_is_taken():
    stream = ShortWrites()
    write_whole(stream, DATA)
    assert bytes(stream.taken) == DATA
