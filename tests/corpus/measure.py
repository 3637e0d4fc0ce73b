"""Per-category recall and benign-withheld rate of the field pipeline on JSON Lines corpora.

Run as a plain script: `python tests/corpus/measure.py FILE.jsonl [...] [--json]`. Each line is
`{"text", "label": "attack"|"benign", "category", ...}`; a `{"result": ...}` line is walked as a
tool result (every field judged with its surface path), like the proxy does. An attack counts as
caught when withheld or sanitized; a benign record counts when withheld. Run it once per tree
(this one, and another on PYTHONPATH) to compare detectors side by side on the same files.
"""

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from lazaretto.proxy.scan import ScanRules, Verdict, scan_text
from lazaretto.proxy.surfaces import walk_surfaces


def verdict(record: dict) -> Verdict:
    """The record's verdict: its text's, or the strongest of its result's fields."""
    if "result" in record:
        verdicts = []
        walk_surfaces(
            record["result"],
            lambda path, text: verdicts.append(scan_text(text, ScanRules(), path).verdict),
        )
        return max(verdicts, key=list(Verdict).index, default=Verdict.CLEAN)
    return scan_text(record["text"], ScanRules()).verdict


def measure(paths: list[Path]) -> dict[str, dict[str, float | int]]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                label = record["label"]
                outcome = verdict(record)
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
    args = parser.parse_args()
    figures = measure(args.files)
    if args.json:
        json.dump(figures, sys.stdout)
        print()
        return
    for key, row in figures.items():
        what = "recall" if key.startswith("attack") else "withheld"
        print(f"{key:50} {row['hit']:5}/{row['n']:<5} {what} {row['rate']:7.2%}")


if __name__ == "__main__":
    main()
