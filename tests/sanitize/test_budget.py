"""Crafted style sheets, HTML and Markdown against the field's work budget: the cost of cleaning
grows linearly with the field whatever it holds, and a field whose cleaning would pass its
budget is withheld with that reason, never passed on unread."""

import tracemalloc

import pytest
from support.growth import assert_linear

from lazaretto.proxy.quarantine.scan import ScanRules, scan_text
from lazaretto.proxy.sanitize import SanitizeRules, sanitize
from lazaretto.proxy.sanitize.budget import OverBudget


def _sheet_and_page(rule: str, element: str):
    """A page of about n characters: half of it rules, half elements every rule matches."""

    def make(size: int) -> str:
        half = size // 2
        return f"<style>{rule * (half // len(rule))}</style>{element * (half // len(element))}"

    return make


def _var_chain(size: int) -> str:
    links = max(2, size // 40)
    chain = "".join(f"--v{i + 1}:var(--v{i}) var(--v{i});" for i in range(links))
    return f"<style>:root{{--v0:1px;{chain}}} p{{margin:var(--v{links})}}</style><p>x</p>"


def _nested_rules(size: int) -> str:
    depth = size // 12
    return "<style>" + "p, div{" * depth + "color:#fff" + "}" * depth + "</style><p>x</p>"


# Each shape costs a browser-like cleaner rules times elements, or more.
CRAFTED = {
    "universal rules over many elements": _sheet_and_page("*{color:#000}", "<b>x</b>"),
    ":has() rules over many elements": _sheet_and_page(":has(*) *{opacity:1}", "<i><b>x</b></i>"),
    "descendant chains over deep nesting": _sheet_and_page("* * * * *{opacity:1}", "<b>x"),
    "custom properties doubling at each link": _var_chain,
    "nested rules with selector lists": _nested_rules,
}


FLOOR_BYTES = 64 << 20


def _scan(text: str):
    return scan_text(text, ScanRules())


@pytest.mark.parametrize("make", CRAFTED.values(), ids=CRAFTED.keys())
def test_a_crafted_sheet_of_a_few_kilobytes_is_cleaned_or_withheld_for_its_cost(make):
    text = make(24_000)
    verdict = _scan(text)
    if verdict.verdict == "withheld":
        assert verdict.signal_names == ["scan_error"]
        bounds = ("OverBudget", "TooLarge", "TooComplex")  # the budget, or a bound of a parser
        assert any(bound in verdict.signals[0].excerpt for bound in bounds)
    else:
        assert verdict.verdict in ("clean", "sanitized")


def test_the_reported_shape_is_withheld_as_over_budget():
    # About 11 KB of rules that every element matches, over as many elements.
    text = _sheet_and_page("*{color:#000}", "<b>x</b>")(22_000)
    with pytest.raises(OverBudget, match="CSS"):
        sanitize(text, SanitizeRules())
    verdict = _scan(text)
    assert verdict.verdict == "withheld"
    assert "OverBudget" in verdict.signals[0].excerpt


def test_an_ordinary_styled_page_is_well_inside_its_budget():
    sheet = "".join(f".c{i} p span{{color:#{i % 999:03d};margin:{i % 7}px}}" for i in range(300))
    body = "".join(
        f"<div class=c{i % 50}><p>Words <span>and {i}</span></p></div>" for i in range(800)
    )
    text = f"<style>{sheet}</style>{body}"
    cleaned, _ = sanitize(text, SanitizeRules())
    assert "and 799" in cleaned


@pytest.mark.parametrize("make", CRAFTED.values(), ids=CRAFTED.keys())
def test_memory_stays_a_bounded_multiple_of_the_field(make):
    text = make(64_000)
    _scan("warm up <b>x</b>")
    tracemalloc.start()
    try:
        _scan(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # What the budget's floor lets the cascade keep (a few units per element matched), and a
    # parse's worth per character: none of it grows faster than the field.
    assert peak <= FLOOR_BYTES + 600 * len(text), f"peak {peak / 2**20:.0f} MiB"


@pytest.mark.serial  # measures how CPU time grows
@pytest.mark.slow
@pytest.mark.parametrize(("name", "make"), CRAFTED.items(), ids=CRAFTED.keys())
def test_cleaning_a_crafted_sheet_grows_linearly(name, make):
    assert_linear(_scan, make, 4_000, f"scan_text, {name}")
