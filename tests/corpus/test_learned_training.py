"""The shipped learned reading is what the trainer makes of the dev sets, and nothing else."""

import json
from pathlib import Path

import pytest
from corpus import train_reading

from lazaretto.proxy.detect.learned import shipped

HELD_OUT = Path(__file__).resolve().parent / "heldout" / "heldout_set.jsonl"


@pytest.fixture(scope="module")
def retrained():
    return train_reading.train(train_reading.training_records())


def test_training_reads_only_the_dev_sets():
    records = train_reading.training_records()
    held_out = {record["text"] for record in _held_out()}
    assert len(records) > 4000
    assert not held_out & {record["text"] for record in records}
    assert {record["label"] for record in records} == {"attack", "benign"}


def _held_out() -> list[dict]:
    return [json.loads(line) for line in HELD_OUT.read_text("utf-8").splitlines()]


@pytest.mark.slow
def test_the_shipped_weights_are_the_trainers(retrained):
    # Solvers may round differently on other machines: the probabilities, not the bytes, must agree.
    model = shipped()
    worst = max(
        abs(model.attack_probability(r["text"]) - retrained.attack_probability(r["text"]))
        for r in _held_out()
    )
    assert worst < 0.02, "retrain: python tests/corpus/train_reading.py"


def test_the_model_tells_held_out_attacks_from_benign_text():
    model = shipped()
    for label in ("attack", "benign"):
        records = [r for r in _held_out() if r["label"] == label]
        right = sum(
            (model.attack_probability(r["text"]) >= 0.5) == (label == "attack") for r in records
        )
        assert right > 0.8 * len(records), label
