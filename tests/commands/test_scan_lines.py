"""`lazaretto scan --jsonl` shared among worker processes: the same output, line for line, as one
line at a time, with a bounded read-ahead, and a reader that goes away still ends it quietly."""

import io
import json
import signal
import subprocess
from functools import partial

import psutil
import pytest
from corpus.records import NAMES, records
from support.terminal import READ_TIMEOUT
from support.waiting import wait_for

from lazaretto.app import scan_lines
from lazaretto.app.commands.scan import jsonl_answer, policy_scanner
from lazaretto.app.scan_lines import answer_lines, usable_cores
from lazaretto.proxy.policy import load_policy

BAD_LINES = (
    "not json at all",
    "",
    "   \t",
    '{"other": 1}',
    '{"text": 7}',
    '["text"]',
    '{"result": {"content": "no list"}}',
    '{"text": "unterminated',
)


def _answer():
    """How `lazaretto scan --jsonl` answers a line under this test's (empty) policy."""
    scanner, _ = policy_scanner(load_policy(None), "scan", None)
    return partial(jsonl_answer, scanner)


def _one_at_a_time(lines: list[str]) -> str:
    """The output as the command wrote it before workers: each line answered in turn, here."""
    answer = _answer()
    return "".join(filter(None, (answer(n, line) for n, line in enumerate(lines, 1))))


def _mixed(texts: list[str]) -> list[str]:
    """Text lines, results, blank and bad lines interleaved (every bad shape lands in many chunks)."""
    lines = []
    for index, text in enumerate(texts):
        lines.append(json.dumps({"text": text}, ensure_ascii=False) + "\n")
        if index % 7 == 0:
            lines.append(BAD_LINES[index // 7 % len(BAD_LINES)] + "\n")
        if index % 11 == 0:
            blocks = [{"type": "text", "text": text}, {"type": "text", "text": "fine"}]
            lines.append(json.dumps({"result": {"content": blocks}}, ensure_ascii=False) + "\n")
    lines.append('{"text": "no line break at the end"}')
    return lines


def _corpus_texts() -> list[str]:
    return [record["text"] for name in NAMES for record in records(name)]


def test_workers_answer_as_one_line_at_a_time(monkeypatch):
    # Small chunks, so a few hundred lines make many of them, answered by two workers at once.
    monkeypatch.setattr(scan_lines, "CHUNK_CHARS", 2000)
    lines = _mixed(_corpus_texts()[::40])
    out = io.StringIO()
    answer_lines(_answer(), lines, out, workers=2, inline_chars=5000)
    expected = _one_at_a_time(lines)
    assert out.getvalue() == expected
    assert expected.count('{"error": "line ') > 10


def test_read_ahead_is_bounded():
    count, line = 2, '{"text": no JSON' + "x" * 984 + "\n"
    total = 4 * scan_lines.CHUNK_CHARS * count * scan_lines.AHEAD_PER_WORKER // len(line)
    given = 0

    def source():
        nonlocal given
        for _ in range(total):
            given += 1
            yield line

    class Sink(io.StringIO):
        """Records how many input lines were taken beyond those answered, at every write."""

        def __init__(self) -> None:
            super().__init__()
            self.ahead: list[int] = []

        def write(self, text: str) -> int:
            written = super().write(text)
            self.ahead.append(given - self.getvalue().count("\n"))
            return written

    sink = Sink()
    answer_lines(_answer(), source(), sink, workers=count, inline_chars=0)
    assert sink.getvalue().count("\n") == total
    chunks = count * scan_lines.AHEAD_PER_WORKER + 1
    assert max(sink.ahead) <= chunks * (scan_lines.CHUNK_CHARS // len(line) + 1)


@pytest.mark.slow
def test_the_corpus_through_the_command_is_unchanged(lazaretto_cmd, child_env):
    lines = _mixed(_corpus_texts())
    done = subprocess.run(
        [*lazaretto_cmd, "scan", "--jsonl"],
        input="".join(lines).encode(),
        capture_output=True,
        env=child_env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode() == _one_at_a_time(lines)


TEXT = "An ordinary paragraph of a page, with nothing in it for the agent to do. " * 8


def _long_input(tmp_path):
    """Lines past the part answered before the workers start, many seconds of work."""
    lines = tmp_path / "lines.jsonl"
    lines.write_text((json.dumps({"text": TEXT}) + "\n") * 5000)
    return lines


def test_a_closed_pipe_ends_the_workers_quietly(lazaretto_cmd, child_env, tmp_path):
    lines = _long_input(tmp_path)
    with lines.open() as stdin:
        scan = subprocess.Popen(
            [*lazaretto_cmd, "scan", "--jsonl"],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=child_env,
        )
        assert scan.stdout is not None and scan.stderr is not None
        inline = scan_lines.INLINE_CHARS // len(TEXT) + 1
        for _ in range(inline + 100):  # lines answered by the workers too, then it goes away
            assert scan.stdout.readline()
        scan.stdout.close()
        errors = scan.stderr.read().decode()
        assert scan.wait(timeout=READ_TIMEOUT) == 141
    assert "Traceback" not in errors and "BrokenPipeError" not in errors


def _gone(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@pytest.mark.skipif(usable_cores() < 2, reason="workers start only with two cores or more")
def test_workers_end_with_a_killed_command(lazaretto_cmd, child_env, tmp_path):
    with _long_input(tmp_path).open() as stdin:
        scan = subprocess.Popen(
            [*lazaretto_cmd, "scan", "--jsonl"],
            stdin=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=child_env,
        )
    command = psutil.Process(scan.pid)
    wait_for(lambda: len(command.children()) == usable_cores(), "the workers starting")
    workers = command.children()
    scan.send_signal(signal.SIGKILL)
    scan.wait(timeout=READ_TIMEOUT)
    wait_for(lambda: all(map(_gone, workers)), "the workers ending", lambda: workers)
