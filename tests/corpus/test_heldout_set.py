"""The held-out set's figures as they were measured: a change that loses what it caught, or that
withholds more of its benign outputs, fails. Nothing is tuned on it (see heldout/README.md): the
bounds record where the rules stand on text nobody tuned for, far from the targets."""

from pathlib import Path

import pytest

from tests.corpus.measure import measure

HELDOUT = Path(__file__).parent / "heldout" / "heldout_set.jsonl"
# At the counts measured with the learned reading, less one record.
RECALL_FLOORS = {
    "attack:all": 160 / 225,
    "attack:data_field_request": 32 / 60,
    "attack:embedded_email_document": 29 / 45,
    "attack:non_english_override": 48 / 60,
    "attack:role_hijack_extraction": 33 / 45,
    "attack:template": 14 / 15,
}
# At the counts measured with the learned reading, plus one record.
BENIGN_CEILINGS = {
    "benign:all": 23 / 250,
    "benign:email": 2 / 50,
    "benign:injection_discussion": 10 / 45,
    "benign:issue_thread": 3 / 50,
    "benign:look_alike_field": 6 / 60,
    "benign:table_code_docs": 6 / 45,
}


@pytest.fixture(scope="module")
def figures():
    return measure([HELDOUT])


@pytest.mark.parametrize("category", sorted(RECALL_FLOORS))
def test_recall_floor(figures, category):
    assert figures[category]["rate"] >= RECALL_FLOORS[category] - 1e-9, figures[category]


@pytest.mark.parametrize("category", sorted(BENIGN_CEILINGS))
def test_benign_ceiling(figures, category):
    assert figures[category]["rate"] <= BENIGN_CEILINGS[category] + 1e-9, figures[category]


def test_every_category_has_a_bound(figures):
    assert set(figures) == set(RECALL_FLOORS) | set(BENIGN_CEILINGS)
