"""Per-category recall and benign-withheld rate of the field pipeline on JSON Lines corpora.

Run as a plain script: `python tests/corpus/measure.py FILE.jsonl [...] [--json] [--as-results]`.
Each line is `{"text", "label": "attack"|"benign", "category", ...}`; a `{"result": ...}` line is
judged as the proxy judges a tool result (every field with its surface path, JSON inside a text
walked into its values, and the values read together as documents). `--as-results` judges each
text that way too, as a tool result's one text block; by default a text is judged whole. An
attack counts as caught when withheld or sanitized; a benign record counts when withheld. Run it
once per tree (this one, and another on PYTHONPATH) to compare detectors side by side.
"""

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from lazaretto.proxy.quarantine.document import judge_message
from lazaretto.proxy.quarantine.scan import (
    FieldVerdict,
    ScanRules,
    Verdict,
    scan_text,
)


def tool_result(text: str) -> dict:
    """A tool result that carries `text` as its one text block."""
    return {"content": [{"type": "text", "text": text}]}


def judged(payload: dict) -> dict[str, FieldVerdict]:
    """Every surface of a tool result with its verdict, as the proxy judges an untrusted one."""
    return judge_message(
        payload, lambda text, path, seen: scan_text(text, ScanRules(), path, seen), ScanRules()
    )


def verdict(record: dict, as_result: bool = False) -> Verdict:
    """The record's verdict: its text's, or the strongest of its result's fields."""
    if "result" in record:
        payload = record["result"]
    elif as_result:
        payload = tool_result(record["text"])
    else:
        return scan_text(record["text"], ScanRules()).verdict
    worst = [found.verdict for found in judged(payload).values()]
    return max(worst, key=list(Verdict).index, default=Verdict.CLEAN)


def measure(paths: list[Path], as_results: bool = False) -> dict[str, dict[str, float | int]]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                label = record["label"]
                outcome = verdict(record, as_results)
                hit = outcome == Verdict.WITHHELD or (
                    label == "attack" and outcome == Verdict.SANITIZED
                )
                for key in (f"{label}:{record.get('category')}", f"{label}:all"):
                    counts[key][0] += hit
                    counts[key][1] += 1
    return {
        key: {"hit": hit, "n": n, "rate": round(hit / n, 4)}
        for key, (hit, n) in sorted(counts.items())
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    parser.add_argument(
        "--as-results", action="store_true", help="judge each text as a tool result's text block"
    )
    args = parser.parse_args()
    figures = measure(args.files, args.as_results)
    if args.json:
        json.dump(figures, sys.stdout)
        print()
        return
    for key, row in figures.items():
        what = "recall" if key.startswith("attack") else "withheld"
        print(f"{key:50} {row['hit']:5}/{row['n']:<5} {what} {row['rate']:7.2%}")


if __name__ == "__main__":
    main()
