"""Save the signals the full field pipeline finds on the corpus, or compare them with a saved run.

A plain script, not a test: `python tests/corpus/signal_diff.py save BEFORE.json` on the old
code, then `python tests/corpus/signal_diff.py compare BEFORE.json` on the new. Speed work must
not make the detector blind to anything it saw: the comparison lists every record that lost a
signal (kind and weight, and exact spans), every verdict that changed, and exits 1 if anything
was lost.
"""

import argparse
import json
import sys
from pathlib import Path

# Run as a script, this file sees only its own folder; the corpus reader is imported from tests/.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus.records import NAMES, records

from lazaretto.proxy.quarantine.scan import ScanRules, scan_text


def snapshot() -> dict[str, dict]:
    """record key -> verdict, score and signals (name, weight, start, end) of each corpus record."""
    found = {}
    for name in NAMES:
        for number, record in enumerate(records(name)):
            verdict = scan_text(record["text"], ScanRules())
            found[f"{name}:{number}"] = {
                "verdict": verdict.verdict,
                "score": verdict.score,
                "signals": sorted([s.name, s.weight, s.start, s.end] for s in verdict.signals),
            }
    return found


def compare(before: dict[str, dict], after: dict[str, dict]) -> bool:
    """Print what changed; True when no record lost a signal kind or a span."""
    lost_kinds, lost_spans, gained, verdicts = [], 0, 0, []
    for key, old in before.items():
        new = after[key]
        old_kinds = {(n, w) for n, w, _, _ in old["signals"]}
        new_kinds = {(n, w) for n, w, _, _ in new["signals"]}
        if old_kinds - new_kinds:
            lost_kinds.append((key, sorted(old_kinds - new_kinds)))
        old_spans = {tuple(s) for s in old["signals"]}
        new_spans = {tuple(s) for s in new["signals"]}
        lost_spans += bool(old_spans - new_spans)
        gained += bool(new_kinds - old_kinds)
        if old["verdict"] != new["verdict"]:
            verdicts.append((key, old["verdict"], new["verdict"]))
    print(
        f"{len(before)} records: {len(lost_kinds)} lost a signal kind, {lost_spans} lost an exact span, "
        f"{gained} gained a kind, {len(verdicts)} changed verdict"
    )
    for key, kinds in lost_kinds[:20]:
        print(f"  lost {key}: {kinds}")
    for key, old, new in verdicts[:20]:
        print(f"  verdict {key}: {old} -> {new}")
    return not lost_kinds and not lost_spans


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("action", choices=("save", "compare"))
    parser.add_argument("file", type=Path)
    args = parser.parse_args()
    now = snapshot()
    if args.action == "save":
        args.file.write_text(json.dumps(now))
        print(f"saved {len(now)} records")
        return 0
    return 0 if compare(json.loads(args.file.read_text()), now) else 1


if __name__ == "__main__":
    sys.exit(main())
