"""Answering a stream of JSON Lines in order, a large one by worker processes, one per core.

`lazaretto scan --jsonl` is a batch tool: one answer per input line, written in input order. The
first lines are answered in this process, so a small input never waits for workers to start; once
the input has proved large, the rest is cut into chunks of lines that worker processes answer while
this one reads ahead, by a bounded number of chunks, and writes their answers in order. Each line
is answered by the same function either way, so the output is the same line for line.
"""

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

Answer = Callable[[int, str], "str | None"]
"""The output line (with its line break) for an input line and its number from 1; None: no output."""

INLINE_CHARS = 1 << 18
"""How much input is answered in this process before workers start: about a fifth of a second of
scanning, against some tens of milliseconds to start the workers."""

CHUNK_CHARS = 1 << 16
"""Input handed to a worker at a time (a longer line is a chunk of its own): a few tens of
milliseconds of work, long against the cost of passing it, short enough to keep every worker busy
to the end."""

AHEAD_PER_WORKER = 4
"""Chunks given out but not yet written, per worker: what bounds the memory of a run."""

# What a worker answers lines with, given once when it starts.
_answer: Answer | None = None


def answer_lines(
    answer: Answer,
    source: Iterable[str],
    sink: TextIO,
    workers: int | None = None,
    inline_chars: int = INLINE_CHARS,
) -> None:
    """Write `answer(number, line)` for every line of `source` to `sink`, in order: the first
    `inline_chars` of input in this process, the rest by `workers` processes (default: one per
    core this process may run on; fewer than two: all of it here)."""
    lines = enumerate(source, 1)
    taken = 0
    for number, line in lines:
        if taken >= inline_chars:
            lines = chain([(number, line)], lines)
            break
        _write(sink, answer(number, line))
        taken += len(line)
    else:
        return
    count = usable_cores() if workers is None else workers
    if count < 2 or not _in_workers(answer, lines, sink, count):
        for number, line in lines:
            _write(sink, answer(number, line))


def usable_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _in_workers(answer: Answer, lines: Iterator[tuple[int, str]], sink: TextIO, count: int) -> bool:
    """`answer_lines` for the rest of the input, by `count` worker processes; False, having taken
    no line, where no worker can be had."""
    # Imported here: a small input never starts a worker, and should not wait for these.
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    # A forked worker flushes the standard streams it inherits when it ends: what this process
    # has written but not flushed would be written twice.
    sink.flush()
    try:
        pool = ProcessPoolExecutor(
            count, mp_context=_context(), initializer=_adopt, initargs=(answer,)
        )
    except (OSError, ImportError, NotImplementedError):
        # No shared semaphores (some sandboxes and serverless runtimes): answered here, as before.
        return False
    try:
        pending: deque[Future[str]] = deque()
        for chunk in _chunks(lines):
            pending.append(pool.submit(_answer_chunk, *chunk))
            if len(pending) >= count * AHEAD_PER_WORKER:
                sink.write(pending.popleft().result())
        while pending:
            sink.write(pending.popleft().result())
    finally:
        # On an error or a reader gone away (`| head`), the chunks not begun are dropped.
        pool.shutdown(wait=True, cancel_futures=True)
    return True


def _write(sink: TextIO, out: str | None) -> None:
    if out is not None:
        sink.write(out)


def _chunks(lines: Iterator[tuple[int, str]]) -> Iterator[tuple[int, list[str]]]:
    """Consecutive lines, about `CHUNK_CHARS` at a time, each run with the number of its first."""
    first, chunk, size = 0, [], 0
    for number, line in lines:
        if not chunk:
            first = number
        chunk.append(line)
        size += len(line)
        if size >= CHUNK_CHARS:
            yield first, chunk
            chunk, size = [], 0
    if chunk:
        yield first, chunk


def _context() -> "BaseContext":
    import multiprocessing

    # Forked, a worker starts with the detector's tables this process has built while answering
    # the first lines; elsewhere (macOS, Windows) it builds them itself.
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _adopt(answer: Answer) -> None:
    global _answer
    _answer = answer
    # Ctrl-C reaches the whole process group: this process stops the run, the workers only end.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker whose command was killed (or ended by a signal it does not handle) would wait for
    # work forever, holding its memory: it ends with the command.
    threading.Thread(target=_end_with_parent, name="parent-watch", daemon=True).start()


def _end_with_parent() -> None:
    from multiprocessing import parent_process
    from multiprocessing.connection import wait

    parent = parent_process()
    if parent is not None:
        wait([parent.sentinel])
        os._exit(1)


def _answer_chunk(first: int, lines: list[str]) -> str:
    assert _answer is not None
    return "".join(
        filter(None, (_answer(number, line) for number, line in enumerate(lines, first)))
    )
