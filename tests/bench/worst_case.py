"""Worst-case inputs for every sanitizer, detector and host pattern: does the time grow linearly with size?

Run as a plain script: `python tests/bench/worst_case.py [--sizes 10000,100000,1000000]`.
Detector inputs are built from each pattern's own regex: a shortest match spelled out from
its parse tree, repeated (many matches) and cut by one character (many near misses).
Sanitizer and host inputs are crafted by hand for each rule: unclosed comments and tags, long
encoded runs, runs of invisible characters, label and `@` soups, and so on. Sanitizer and
detector inputs go through `scan_text` (what the proxy runs on an untrusted field), host
inputs through `hosts_in` (what the gate runs on arguments). For each input the table shows
the time per size, the time per kilobyte at each size (flat when linear), and the growth
exponent between the two largest sizes (1.0 is linear; above 1.3 is flagged). The last line
is one JSON object.
"""

import argparse
import json
import math
import re
import time
import tracemalloc
from typing import TYPE_CHECKING

from docs_block import add_flag, write_docs

from lazaretto.proxy.detect.signals import PATTERNS
from lazaretto.proxy.gate.hosts import HostScanTooLarge, hosts_in
from lazaretto.proxy.quarantine.scan import ScanRules, scan_text

if TYPE_CHECKING:
    # The stubs describe the stdlib's regex compiler under its old public names only.
    import sre_constants as C
    import sre_parse as sre
else:
    import re._constants as C
    import re._parser as sre

FLAG = 1.3
BUDGET_SECONDS = 5.0  # a case slower than this at one size is not tried at the next
_CATEGORY_CHAR = {
    C.CATEGORY_DIGIT: "0",
    C.CATEGORY_NOT_DIGIT: "a",
    C.CATEGORY_SPACE: " ",
    C.CATEGORY_NOT_SPACE: "a",
    C.CATEGORY_WORD: "a",
    C.CATEGORY_NOT_WORD: " ",
    C.CATEGORY_LINEBREAK: "\n",
    C.CATEGORY_NOT_LINEBREAK: "a",
}
_CANDIDATES = " a0.-_/:x\n"

SANITIZER_UNITS = {
    "invisible: zero-width between letters": "a\u200b",
    "invisible: tag characters": "\U000e0041",
    "invisible: bidi controls": "\u202ea\u202c",
    "invisible: unterminated ANSI escapes": "\x1b[1;2;3",
    "invisible: control characters": "\x07a",
    "invisible: zero-width joiners alone": "\u200d",
    "invisible: letters and presentation selectors": "a\ufe0f",
    "invisible: flag-shaped tag runs": "\U0001f3f4\U000e0061\U000e0062\U000e007f",
    "invisible: emoji and joiners": "\U0001f600\u200d",
    "invisible: private-use characters": "\U000f0041",
    "fold: letters and combining accents": "a\u0301",
    "fold: ligatures": "\ufb01",
    "fold: spaced-out letters": "a b c, ",
    "html: unclosed comments": "<!-- a ",
    "html: comment dashes": "<!-- -- -",
    "html: unclosed tags": "<span a=1 ",
    "html: hidden styles": '<span style="font-size:0">x</span>',
    "html: css digits": '<p style="width:1111111111',
    "html: attribute soup": "<a b=\"c\" d='e' f=g h ",
    "images: unclosed markdown": "![a](http://x",
    "images: bare brackets": "![",
    "images: link definitions": "[a]: http://x.example/y\n",
    "images: unclosed img tags": "<img src=x ",
    "encoded: one base64 run": "QUJD",
    "encoded: base64 runs split by a space": "QUJDREVGR0hJSktM ",
    "encoded: one hex run": "deadbeef",
    "encoded: base32 with padding": "MFRGG===",
    "encoded: padding": "=",
    "layout: spaces": " ",
    "layout: blank lines": "\n",
    "layout: mixed breaks": " \t\n\r\u2028",
    "delimiters: partial chat tokens": "<|im_start",
    "delimiters: turn labels": "Human: a\n",
    "delimiters: instruction headings": "### Instruction: x\n",
    "delimiters: hashes": "#",
}
HOST_UNITS = {
    "hosts: labels": "a.",
    "hosts: urls": "http://a",
    "hosts: userinfo": "http://a@b@",
    "hosts: at signs after words": "a@",
    "hosts: at signs": "@",
    "hosts: ipv6 brackets": "[::1:",
    "hosts: dotted digits": "1.",
    "hosts: mailto": "mailto:a",
    "hosts: hyphens": "a-",
    "hosts: path tokens": "a.b/",
    "hosts: ports": "a.b:1",
    "hosts: camel case": "aB",
}


def _in_set(items: list, ch: str) -> bool:
    code = ord(ch)
    for op, av in items:
        if op is C.LITERAL and av == code:
            return True
        if op is C.RANGE and av[0] <= code <= av[1]:
            return True
        if op is C.CATEGORY and re.fullmatch(_category_regex(av), ch):
            return True
    return False


def _category_regex(category) -> str:
    return {
        C.CATEGORY_DIGIT: r"\d",
        C.CATEGORY_NOT_DIGIT: r"\D",
        C.CATEGORY_SPACE: r"\s",
        C.CATEGORY_NOT_SPACE: r"\S",
        C.CATEGORY_WORD: r"\w",
        C.CATEGORY_NOT_WORD: r"\W",
    }.get(category, r"[^\n]")


def _one_of(items: list) -> str:
    negated = items and items[0][0] is C.NEGATE
    if negated:
        return next((ch for ch in _CANDIDATES if not _in_set(items[1:], ch)), "~")
    op, av = items[0]
    if op is C.LITERAL:
        return chr(av)
    if op is C.RANGE:
        return chr(av[0])
    return _CATEGORY_CHAR.get(av, "a")


def spell(tree, groups: dict | None = None) -> str:
    """A shortest string the parsed pattern matches (lookarounds ignored, first branches taken)."""
    groups = {} if groups is None else groups
    out = []
    for op, av in tree:
        if op is C.LITERAL:
            out.append(chr(av))
        elif op is C.NOT_LITERAL:
            out.append(next(ch for ch in _CANDIDATES if ord(ch) != av))
        elif op is C.ANY:
            out.append("a")
        elif op is C.IN:
            out.append(_one_of(av))
        elif op is C.CATEGORY:
            out.append(_CATEGORY_CHAR.get(av, ""))
        elif op is C.BRANCH:
            out.append(spell(av[1][0], groups))
        elif op is C.SUBPATTERN:
            text = spell(av[3], groups)
            if av[0] is not None:
                groups[av[0]] = text
            out.append(text)
        elif op is C.ATOMIC_GROUP:
            out.append(spell(av, groups))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            out.append(spell(av[2], groups) * av[0])
        elif op is C.GROUPREF:
            out.append(groups.get(av, ""))
    return "".join(out)


def cases() -> list[tuple[str, str, str]]:
    """(name, kind, repeated unit) for every input; kind says which function times it."""
    found = []
    for index, pattern in enumerate(PATTERNS):
        match = spell(sre.parse(pattern.regex.pattern, pattern.regex.flags)) or "a"
        label = f"detect {index:03d} {pattern.name}"
        found.append((f"{label}: repeated match", "scan", match + " "))
        found.append((f"{label}: near miss", "scan", (match[:-1] or "a") + " "))
    found += [(name, "scan", unit) for name, unit in SANITIZER_UNITS.items()]
    found += [(name, "hosts", unit) for name, unit in HOST_UNITS.items()]
    return found


def peak_ratio(kind: str, text: str) -> float:
    """Python's peak allocation while the input is scanned, over its UTF-8 size."""
    tracemalloc.start()
    try:
        timed(kind, text)
        return tracemalloc.get_traced_memory()[1] / max(1, len(text.encode("utf-8", "replace")))
    finally:
        tracemalloc.stop()


def timed(kind: str, text: str) -> float:
    began = time.perf_counter()
    if kind == "scan":
        scan_text(text, ScanRules(untrusted=True))
    else:
        try:
            hosts_in({"arg": text})
        except HostScanTooLarge:
            pass  # refusing a value too large to scan is the bounded outcome
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--match", default="", help="only cases whose name contains this text")
    add_flag(parser)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = {}
    header = "".join(f"{f'ms@{s // 1000}k':>11}" for s in sizes) + "".join(
        f"{f'µs/KB@{s // 1000}k':>13}" for s in sizes
    )
    table = [f"{'input':<58}{header}{'exponent':>10}{'peak x':>8}"]
    print(table[0])
    for name, kind, unit in cases():
        if args.match not in name:
            continue
        times: list[float | None] = []
        for size in sizes:
            if times and (times[-1] is None or times[-1] > BUDGET_SECONDS):
                times.append(None)
                continue
            text = (unit * (size // len(unit) + 1))[:size]
            times.append(min(timed(kind, text) for _ in range(2 if size < 500_000 else 1)))
        known = [(s, t) for s, t in zip(sizes, times, strict=False) if t is not None]
        (s1, t1), (s2, t2) = known[-2], known[-1]
        exponent = (
            math.log(max(t2, 1e-7) / max(t1, 1e-7)) / math.log(s2 / s1)
            if len(known) > 1
            else float("nan")
        )
        results[name] = {
            "ms": [None if t is None else t * 1e3 for t in times],
            "us_per_kb": [
                None if t is None else t * 1e6 / (s / 1000)
                for s, t in zip(sizes, times, strict=False)
            ],
            "exponent": exponent,
            "skipped_larger": None in times,
            # At the smallest size: tracemalloc slows the scan several times over.
            "peak_memory_x": round(
                peak_ratio(kind, (unit * (sizes[0] // len(unit) + 1))[: sizes[0]]), 2
            ),
        }
        ms = "".join(f"{'-' if t is None else f'{t * 1e3:.2f}':>11}" for t in times)
        per_kb = "".join(
            f"{'-' if v is None else f'{v:.1f}':>13}" for v in results[name]["us_per_kb"]
        )
        flag = "  SUPERLINEAR" if exponent > FLAG or None in times else ""
        peak = results[name]["peak_memory_x"]
        table.append(f"{name[:57]:<58}{ms}{per_kb}{exponent:>10.2f}{peak:>8.1f}{flag}")
        print(table[-1], flush=True)
    flagged = sorted(n for n, r in results.items() if r["exponent"] > FLAG or r["skipped_larger"])
    worst = max(results, key=lambda n: results[n]["exponent"])
    table.append(
        f"{len(results)} inputs; worst exponent {results[worst]['exponent']:.2f} ({worst}); "
        f"flagged above {FLAG}: {len(flagged)}"
    )
    print(table[-1])
    write_docs(args.write_docs, table)
    print(
        json.dumps(
            {
                "benchmark": "worst_case",
                "sizes": sizes,
                "flag_exponent": FLAG,
                "flagged": flagged,
                "results": results,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
