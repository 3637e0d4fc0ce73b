"""Every text the tests hold gets the verdicts recorded in `verdicts.json.xz`, on both engines.

Speed work on the judge must not change what it decides: the verdict, the score and every signal
of each text, as a field, as text for the model and inside messages (see `verdicts.py`). A change
meant to alter verdicts records the snapshot again (`python tests/corpus/verdicts.py save`) and
says in its commit which verdicts changed and why.

The suite reads every 8th text (the whole set takes minutes of two cores in a run that has twelve);
work on the judge runs the whole comparison before it lands: `python tests/corpus/verdicts.py
compare` (and again with LAZARETTO_PLAIN_ENGINE=1).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from corpus.verdicts import all_texts, differences, load

# Even an eighth of the texts, each in five readings, takes longer than the two minutes the suite
# gives a test that might hang: their time is their size, not a wait.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_every_eighth_text_is_judged_as_recorded():
    cases, recorded = load()
    lines = differences(recorded, all_texts(cases)[::8])
    assert not lines, "\n".join(lines[:10])


def test_the_plain_engine_judges_as_recorded():
    # Where Hyperscan has no wheel every pattern and term is searched by Python itself: the same
    # verdicts, told on every 100th text (the plain path is slow by design).
    script = Path(__file__).with_name("verdicts.py")
    done = subprocess.run(
        [sys.executable, str(script), "compare", "--every", "100"],
        env={**os.environ, "LAZARETTO_PLAIN_ENGINE": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
