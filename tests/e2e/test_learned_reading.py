"""The learned second reading through a real proxy: what it withholds is withheld and explained."""

import json
from pathlib import Path

import pytest
from corpus.measure import judged, tool_result

from lazaretto.proxy.detect.learned import LEARNED_ATTACK
from lazaretto.proxy.quarantine.scan import FieldVerdict, Verdict

DEV = Path(__file__).resolve().parents[1] / "corpus" / "dev"


def _records():
    for path in sorted(DEV.glob("*.jsonl")):
        with open(path, encoding="utf-8") as handle:
            yield from (json.loads(line) for line in handle)


def _judged(text: str) -> list[FieldVerdict]:
    """The verdicts the proxy's cleaner gives a result holding `text` as its one content block."""
    return list(judged(tool_result(text)).values())


def _prose(label: str):
    """The dev sets' texts of one label that are not JSON (the proxy would walk those)."""
    for record in _records():
        if record["label"] == label and not record["text"].lstrip().startswith(("{", "[")):
            yield record["text"]


@pytest.fixture(scope="module")
def caught_by_the_model():
    """A dev-set attack the rules alone score under their threshold and the model withholds."""
    for text in _prose("attack"):
        if any(LEARNED_ATTACK in verdict.signal_names for verdict in _judged(text)):
            return text
    pytest.fail("no dev-set attack is withheld by the learned reading")


@pytest.fixture(scope="module")
def asked_and_let_through():
    """A dev-set benign text with evidence the model was asked about and did not withhold."""
    for text in _prose("benign"):
        verdict = next(v for v in _judged(text) if v.original == text)
        if len(text) >= 100 and 0.6 <= verdict.score < 1 and verdict.verdict is Verdict.CLEAN:
            return text
    pytest.fail("no dev-set benign text with evidence under the threshold")


@pytest.fixture(scope="module")
def dressed_attack():
    """A dev-set attack the rules withhold, wrapped in the dev sets' prose about injection, which
    the rules alone let through and the model's reading of the attack's own part withholds."""
    about = [r["text"] for r in _records() if r["category"] == "injection_discussion"][:6]
    dress = (" ".join(about[:3])[:2000], " ".join(about[3:])[:2000])
    for text in _prose("attack"):
        if not any(v.verdict is Verdict.WITHHELD for v in _judged(text)):
            continue
        dressed = f"{dress[0]}\n\n{text}\n\n{dress[1]}"
        if any(LEARNED_ATTACK in verdict.signal_names for verdict in _judged(dressed)):
            return dressed
    pytest.fail("no dressed dev-set attack is withheld by the learned reading")


def test_an_attack_dressed_in_prose_about_attacks_is_withheld(untrusted_scripted, dressed_attack):
    result = untrusted_scripted.call("blocks", {"texts": [dressed_attack]})["result"]
    untrusted_scripted.close()
    (shown,) = [block["text"] for block in result["content"]]
    assert shown.startswith("[lazaretto: withheld field Q-"), shown
    assert "reads as a whole like an attack" in shown


def test_a_text_the_model_withholds_is_quarantined_with_its_reason(
    untrusted_scripted, store, caught_by_the_model, asked_and_let_through
):
    texts = [caught_by_the_model, asked_and_let_through]
    result = untrusted_scripted.call("blocks", {"texts": texts})["result"]
    untrusted_scripted.close()
    shown = [block["text"] for block in result["content"]]
    assert shown[0].startswith("[lazaretto: withheld field Q-"), shown[0]
    assert "reads as a whole like an attack" in shown[0]
    assert shown[1] == asked_and_let_through
    (row,) = store.quarantine.recent()
    assert row["original"] == caught_by_the_model
    names = [signal["name"] for signal in row["signals"]]
    assert LEARNED_ATTACK in names and len(names) > 1  # the rules' evidence is shown beside it
    assert store.sessions.state("test-session").tainted
