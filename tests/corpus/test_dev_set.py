"""Recall and benign-withheld rate per category on the project's own dev set of tool outputs.

The dev set (tests/corpus/dev/, hand-written, twenty languages) is what the concept tables and
context rules are tuned on. Floors and ceilings sit at what was measured, so a regression fails;
the issue's targets (1% benign withheld) are not all met on it, and the README says so.
"""

from pathlib import Path

import pytest

from tests.corpus.measure import measure

DEV_SET = Path(__file__).parent / "dev" / "dev_set.jsonl"

RECALL_FLOORS = {
    "attack:data_field_request": 0.96,
    "attack:embedded_email_document": 0.9,
    "attack:non_english_override": 1.0,
    "attack:role_hijack_extraction": 1.0,
    "attack:template": 1.0,
}
WITHHELD_CEILINGS = {
    "benign:email": 0.0,
    "benign:issue_thread": 0.036,
    "benign:look_alike_field": 0.0,
    "benign:table_code_docs": 0.167,
    "benign:injection_discussion": 0.0,
}


@pytest.fixture(scope="module")
def figures():
    return measure([DEV_SET])


@pytest.mark.parametrize("category", sorted(RECALL_FLOORS))
def test_recall_floor(figures, category):
    assert figures[category]["rate"] >= RECALL_FLOORS[category], figures[category]


@pytest.mark.parametrize("category", sorted(WITHHELD_CEILINGS))
def test_benign_ceiling(figures, category):
    assert figures[category]["rate"] <= WITHHELD_CEILINGS[category], figures[category]


def test_every_category_has_a_bound(figures):
    assert set(figures) - {"attack:all", "benign:all"} == set(RECALL_FLOORS) | set(
        WITHHELD_CEILINGS
    )
