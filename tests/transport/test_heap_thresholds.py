"""The proxy's malloc thresholds: a message's buffers are reused, a huge one's go back to the OS."""

import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or platform.libc_ver()[0] != "glibc",
    reason="the thresholds are glibc's mallopt parameters",
)

MEASURE = """
import resource, sys, threading
from lazaretto.app.commands import proxy as command

if sys.argv[1] == "fixed":
    command._return_large_buffers()


def faults(size):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    block = bytearray(size)
    block[::4096] = bytes(len(range(0, size, 4096)))  # touch every page
    after = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    del block
    return after - before


def resident_kib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def messages():
    for _ in range(3):
        faults(2 << 20)  # a megabyte-sized message's buffer, allocated and freed per message
    again = faults(2 << 20)
    before = resident_kib()
    for _ in range(2):
        faults(24 << 20)  # a huge message's
    print(again, resident_kib() - before)


# As in the proxy, whose remote transport reads and cleans messages on worker threads.
worker = threading.Thread(target=messages)
worker.start()
worker.join()
"""


def measured(mode: str) -> tuple[int, int]:
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, mode], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[0]), int(out[1])


def test_a_message_sized_buffer_is_reused_and_a_huge_one_returned():
    faults, kept_kib = measured("fixed")
    assert faults < 64  # of 512 pages
    assert kept_kib < 8 * 1024  # of 64 MiB


def test_left_to_itself_glibc_keeps_a_huge_message_on_the_heap():
    # What the fixed mmap threshold is for: glibc raises its own after the first huge free.
    _, kept_kib = measured("default")
    assert kept_kib >= 16 * 1024
