"""Every compiled scan names every pattern `re` matches, however far apart the match's parts stand.

A compiled scan only says which patterns may match; a pattern it leaves out is never run, so a
match it misses is a reading or a family of the sanitizer skipped on text an attacker wrote.
Hyperscan (5.4.12) missed the escapes mark of the readings wherever more than about thirty
characters stood between its two escapes: short generated texts never showed it; and its stream
of the signal table missed a short match cut by the seam of two pieces. Here every pattern's own
matches (as `hypothesis` generates them from it) are read as they are, with long runs of filler
put in at random, and cut by a seam of a streamed text, by every compiled scan the project builds.
"""

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazaretto.proxy.detect import normalize, signals
from lazaretto.proxy.matcher import engine
from lazaretto.proxy.quarantine import readings
from lazaretto.proxy.sanitize import encoded, pipeline

PROXY = Path(__file__).resolve().parents[2] / "proxy"
# Filler that stretches a match: letters, spaces, line breaks, controls, characters beyond ASCII
# (each one byte `?` to the scan), and the classes' own symbols for the scan over a shaped copy.
FILLERS = ("y" * 40, " " * 40, "\n\n" + "word " * 10, "\x01" * 35, "é" * 30, "a" * 40, "0" * 40)
# Some patterns' matches are long or rarely generated whole: that is no failure of the scan.
SLOW_TO_GENERATE = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]
# And what may stand around a match: a word's character, a space, a line break, one beyond ASCII.
AROUND = ("", " ", "x", "ü", "\n", "?")


def _mark_sources(scan: readings.MarkScan) -> list[str]:
    return [source for source, _ in readings.mark_sources(scan)]


# (name, pattern sources, the engine that reads them)
SCANS = [
    ("signals", [p.source for p in signals.PATTERNS], signals.patterns_engine()),
    ("sanitizer marks", list(pipeline._ASCII_MARKS), pipeline._marks()),
    ("encoded runs", [rf"[A-Za-z0-9+/_-]{{{encoded.SHORT_RUN}}}"], encoded._run_scan()),
    ("folding marks", list(normalize._FOLD_MARKS), normalize._fold_scan()),
    *(
        (f"readings' {scan.value} marks", _mark_sources(scan), compiled)
        for compiled, indexes in readings._marks()
        if (scan := readings._READERS[indexes[0]][3]) is not readings.MarkScan.CLASSES
    ),
    # The chunks mark reads a copy shaped to classes whose symbols are themselves: text written
    # in the symbols is what its scan reads (the gate before it is asked of the text as it came).
    (
        "readings' chunks mark",
        _mark_sources(readings.MarkScan.CLASSES),
        engine.compiled(
            _mark_sources(readings.MarkScan.CLASSES),
            readings.CHUNK_CLASSES.of_characters,
            framed=True,
        ),
    ),
    ("readings' chunks gate", [readings.SHAPED_GATE], engine.compiled([readings.SHAPED_GATE])),
]
CASES = [
    pytest.param(source, compiled, index, id=f"{name} {index}")
    for name, sources, compiled in SCANS
    for index, source in enumerate(sources)
]


def test_every_scan_of_marks_is_read_here():
    # A scan built anywhere else is added to SCANS: seven calls of `engine.compiled` build the
    # eight above (one builds both the readings' rare and common marks).
    calls = sum(path.read_text().count("engine.compiled(") for path in PROXY.rglob("*.py"))
    assert (calls, len(SCANS)) == (7, 8)


def _across_a_piece_boundary(text: str, filler: str, cut: int) -> str:
    """`text` in a text long enough to be streamed, its first `cut` characters ending a piece."""
    head = filler * (engine.STREAM_PIECE // len(filler) + 1)
    return head[len(head) - (engine.STREAM_PIECE - cut) :] + text + filler


@pytest.mark.skipif(not engine.hyperscan_in_use(), reason="the plain path names every pattern")
@pytest.mark.parametrize(("source", "compiled", "index"), CASES)
def test_a_match_stretched_far_apart_is_still_named(source, compiled, index, monkeypatch):
    regex = re.compile(source)
    missed: list[str] = []
    # A text past one piece is streamed here, in pieces of the real size (as a text over 1 MiB is
    # scanned): a match cut by the seam of two pieces must be named as in one block.
    monkeypatch.setattr(engine, "STREAM_FROM", engine.STREAM_PIECE)

    # The same examples on every run: a miss found is found again, and no run fails by chance.
    @settings(
        max_examples=30, deadline=None, derandomize=True, suppress_health_check=SLOW_TO_GENERATE
    )
    @given(st.from_regex(regex), st.sampled_from(AROUND), st.randoms(use_true_random=False))
    def check(text: str, around: str, chance: random.Random) -> None:
        variants = [text, around + text + around]
        for filler in FILLERS:
            at = chance.randint(0, len(text))
            variants.append(text[:at] + filler + text[at:])
        missed.extend(
            v for v in variants if regex.search(v) and index not in compiled.candidates(v)
        )
        if len(text) > 1:
            cut = chance.randint(1, len(text) - 1)
            streamed = _across_a_piece_boundary(text, chance.choice(FILLERS), cut)
            if regex.search(streamed) and index not in compiled.candidates(streamed):
                missed.append(f"{text!r} streamed, cut after {cut} characters")

    try:
        check()
    except (re.error, NotImplementedError, TypeError) as exc:
        pytest.skip(f"hypothesis cannot generate from this pattern: {exc}")
    assert not missed, min(missed, key=len)[:200]


@pytest.mark.skipif(not engine.hyperscan_in_use(), reason="the plain path names every pattern")
@pytest.mark.parametrize("gap", [0, 27, 31, 64, 500])
def test_escapes_far_apart_are_marked(gap):
    text = "\\u0049gnore" + " " * gap + "and \\u0073end"
    assert "escapes" in {r.kind for r in readings.readings(text)}
