"""The recorded verdicts of every text the tests hold, to prove a change to the judge changed none.

Each text is judged the ways the proxy judges it: as one untrusted field (`scan_text`), as text
written for the model (the kinds filter), and inside a message through the cleaner's reading of
the whole message (`judge_payload`): alone in a content block, mirrored into
`structuredContent` as the SDKs send a tool's return value, and cut in two blocks at a space
near its middle (evidence across fields). Every verdict is kept whole: the verdict, the score,
each signal (name, weight, excerpt, span, key), the removals, the decoded payloads and the spans
each passage was read with.

The texts: every record of the vendored corpus (`data/`), of the dev, blind and held-out sets
(`dev/`, `heldout/`), and the paired cases of the detector's, sanitizer's and quarantine's tests
(the strings their parametrized tests are given, the texts of `detect/cases/*.jsonl` and the
strings of the documents those are read in, and the string literals of their files), which
the snapshot keeps itself. A plain script and a module: `python tests/corpus/verdicts.py save`
records the snapshot (`verdicts.json.xz` beside it) from the code as it is;
`python tests/corpus/verdicts.py compare` lists what differs. `test_verdicts_unchanged.py`
compares on every run.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import io
import json
import lzma
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TypeGuard

# Run as a script, this file sees only its own folder; the corpus reader is imported from tests/.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus.records import NAMES, records

from lazaretto.proxy.quarantine.cleaner import judge_payload
from lazaretto.proxy.quarantine.scan import FieldVerdict, ScanRules, Verdict, scan_text

TESTS = Path(__file__).resolve().parents[1]
SNAPSHOT = Path(__file__).with_name("verdicts.json.xz")
SETS = sorted(
    [*(TESTS / "corpus" / "dev").glob("*.jsonl"), *(TESTS / "corpus" / "heldout").glob("*.jsonl")]
)
# The test folders whose cases are paired texts, and the shortest literal worth judging.
CASE_FOLDERS = ("detect", "quarantine", "sanitize")
SHORTEST_CASE = 12
UNTRUSTED = ScanRules()
FOR_THE_MODEL = ScanRules(for_the_model=True)
CLEAN = "clean"


def corpus_texts() -> Iterator[tuple[str, str]]:
    """(where, text) of every record of the vendored corpus and of the project's sets."""
    for name in NAMES:
        for number, record in enumerate(records(name)):
            yield f"{name}:{number}", record["text"]
    for path in SETS:
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                yield f"{path.parent.name}/{path.name}:{number}", json.loads(line)["text"]


def case_texts() -> dict[str, str]:
    """text -> the test file it comes from, for the paired cases: every string a parametrized test
    of the case folders is given, and every string literal of their files (a space inside, at
    least SHORTEST_CASE characters)."""
    import pytest

    found: dict[str, str] = {}

    class Collector:
        def pytest_collection_modifyitems(self, items) -> None:
            for item in items:
                spec = getattr(item, "callspec", None)
                for value in spec.params.values() if spec else ():
                    for text in value if isinstance(value, (tuple, list)) else (value,):
                        if isinstance(text, str) and text.strip():
                            found.setdefault(text, item.nodeid.partition("::")[0])

    folders = [str(TESTS / folder) for folder in CASE_FOLDERS]
    with contextlib.redirect_stdout(io.StringIO()):  # the collection's own listing
        pytest.main(
            ["--collect-only", "-q", "-p", "no:cacheprovider", *folders], plugins=[Collector()]
        )
    for path in sorted((TESTS / "detect" / "cases").glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                case = json.loads(line)
                for text in (case["text"], *document_strings(case.get("within"))):
                    found.setdefault(text, f"tests/detect/cases/{path.name}")
    for folder in CASE_FOLDERS:
        for path in sorted((TESTS / folder).glob("test_*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and worth_judging(node.value):
                    found.setdefault(node.value, f"tests/{folder}/{path.name}")
    return found


def worth_judging(value: object) -> TypeGuard[str]:
    """Whether a literal of a test is a text to judge: a string of a few words."""
    return isinstance(value, str) and len(value) >= SHORTEST_CASE and " " in value


def document_strings(document: object) -> Iterator[str]:
    """The strings of a case's JSON document worth judging (its `within`, around the text)."""
    if isinstance(document, dict):
        document = list(document.values())
    if isinstance(document, list):
        for value in document:
            yield from document_strings(value)
    elif worth_judging(document):
        yield document


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def field_json(verdict: FieldVerdict) -> dict | str:
    """Everything a verdict says, as JSON (the cleaned text by its digest); "clean" for a text
    let through as it came with nothing found in it (most of them: kept short)."""
    if (
        verdict.verdict is Verdict.CLEAN
        and not verdict.score
        and not verdict.signals
        and not verdict.removed
        and not verdict.decoded
        and verdict.cleaned == verdict.original
        and all(not spans for _, spans in verdict.passages)
    ):
        return CLEAN
    return {
        "verdict": str(verdict.verdict),
        "score": verdict.score,
        "signals": [[s.name, s.weight, s.excerpt, s.start, s.end, s.key] for s in verdict.signals],
        "removed": [[r.kind, r.count, r.decoded] for r in verdict.removed],
        "decoded": [[d.kind, d.text] for d in verdict.decoded],
        "cleaned": digest(verdict.cleaned),
        "passages": [
            [digest(text), [list(span) for span in spans]] for text, spans in verdict.passages
        ],
    }


def halves(text: str) -> list[str]:
    """The text cut at the space nearest its middle (whole when it holds none)."""
    middle = len(text) // 2
    right, left = text.find(" ", middle), text.rfind(" ", 0, middle)
    cut = min((at for at in (left, right) if at > 0), key=lambda at: abs(at - middle), default=-1)
    return [text] if cut < 0 else [text[:cut], text[cut:]]


def messages(text: str) -> dict[str, dict]:
    """The messages a text is judged in, by name."""
    block = {"type": "text", "text": text}
    return {
        "block": {"content": [block]},
        "mirror": {"content": [block], "structuredContent": {"result": text}},
        "halves": {"content": [{"type": "text", "text": half} for half in halves(text)]},
    }


def judged(text: str) -> dict:
    """Every verdict of one text."""
    found = {
        "field": field_json(scan_text(text, UNTRUSTED)),
        "model": field_json(scan_text(text, FOR_THE_MODEL)),
    }
    for name, payload in messages(text).items():
        verdicts = {
            path: field_json(verdict) for path, verdict in judge_payload(payload, UNTRUSTED).items()
        }
        # A JSON text is walked as JSON: most of its paths (its keys) are clean, told by a count and
        # the digest of every path, the others in full.
        found[name] = {
            "paths": digest("\n".join(sorted(verdicts))),
            "clean": sum(verdict == CLEAN for verdict in verdicts.values()),
            "found": {
                path: verdict for path, verdict in sorted(verdicts.items()) if verdict != CLEAN
            },
        }
    return found


def snapshot(texts: list[tuple[str, str]]) -> dict[str, dict]:
    """digest -> the places a text stands and its verdicts (each distinct text judged once)."""
    found: dict[str, dict] = {}
    for where, text in texts:
        key = digest(text)
        if key not in found:
            found[key] = {"where": [], "verdicts": judged(text)}
        found[key]["where"].append(where)
    return found


def all_texts(cases: dict[str, str]) -> list[tuple[str, str]]:
    return [*corpus_texts(), *((where, text) for text, where in cases.items())]


def load() -> tuple[dict[str, str], dict[str, dict]]:
    """The recorded paired cases (text -> file) and verdicts (see `snapshot`)."""
    with lzma.open(SNAPSHOT, "rt", encoding="utf-8") as handle:
        kept = json.load(handle)
    return kept["cases"], kept["verdicts"]


def differences(recorded: dict[str, dict], texts: list[tuple[str, str]]) -> list[str]:
    """One line per text whose verdicts differ from the recorded ones (or that was not recorded)."""
    lines = []
    for where, text in texts:
        key = digest(text)
        old = recorded.get(key)
        if old is None:
            lines.append(f"{where}: not in the snapshot")
            continue
        new = judged(text)
        for reading, verdicts in new.items():
            if verdicts != old["verdicts"][reading]:
                lines.append(f"{where} ({key}) {reading}: {old['verdicts'][reading]} -> {verdicts}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("action", choices=("save", "compare"))
    parser.add_argument(
        "--every",
        type=int,
        default=1,
        help="compare every N-th text only (the plain engine is slow)",
    )
    args = parser.parse_args()
    if args.action == "save":
        cases = case_texts()
        found = snapshot(all_texts(cases))
        with lzma.open(SNAPSHOT, "wt", encoding="utf-8", preset=9 | lzma.PRESET_EXTREME) as handle:
            json.dump(
                {"cases": cases, "verdicts": found}, handle, ensure_ascii=False, sort_keys=True
            )
        print(f"saved the verdicts of {len(found)} distinct texts")
        return 0
    cases, recorded = load()
    lines = differences(recorded, all_texts(cases)[:: args.every])
    print("\n".join(lines[:50]))
    print(f"{len(lines)} readings differ")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
