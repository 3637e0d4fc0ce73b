"""The held-out set's figures as they were measured: a change that loses what it caught, or that
withholds more of its benign outputs, fails. Nothing is tuned on it (see heldout/README.md): the
bounds record where the rules stand on text nobody tuned for, far from the targets."""

from pathlib import Path

import pytest

from tests.corpus.measure import measure

HELDOUT = Path(__file__).parent / "heldout" / "heldout_set.jsonl"
# At the counts measured after round 8, less one record.
RECALL_FLOORS = {
    "attack:all": 172 / 225,
    "attack:data_field_request": 41 / 60,
    "attack:embedded_email_document": 36 / 45,
    "attack:non_english_override": 45 / 60,
    "attack:role_hijack_extraction": 32 / 45,
    "attack:template": 14 / 15,
}
# At the counts measured after round 8, plus one record.
BENIGN_CEILINGS = {
    "benign:all": 16 / 250,
    "benign:email": 1 / 50,
    "benign:injection_discussion": 6 / 45,
    "benign:issue_thread": 5 / 50,
    "benign:look_alike_field": 5 / 60,
    "benign:table_code_docs": 3 / 45,
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
