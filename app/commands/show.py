"""`lazaretto show ID`: a person reads a withheld field, hidden characters made visible (human only)."""

import argparse
import sys

from lazaretto.app import human
from lazaretto.proxy.sanitize import reveal
from lazaretto.store.opening import StoreAPI

# How each revealed segment is marked on a plain terminal.
_MARKS = {"tag": ("⟦tags: ", "⟧"), "hidden": ("", ""), "bidi": ("", ""), "control": ("", "")}


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto show`."""
    parser.add_argument("id", help="the quarantine id from the agent's notice, e.g. Q-7F3K9M")
    human.add_store_option(parser)


def run(args: argparse.Namespace) -> int:
    """0 shown; 1 unknown id or store unreadable; 2 stdin is not a terminal."""
    # Withheld text may be addressed to the agent: only a person who typed the command reads it
    # (hidden characters are made visible either way, so a pager or a file shows them safely).
    if not human.refuse_unless_typed("show"):
        return human.EXIT_REFUSED
    return human.with_store(args, "show", lambda store: _show(store, args.id))


def _show(store: StoreAPI, qid: str) -> int:
    row = store.quarantine.get(qid)
    if row is None:
        print(f"lazaretto show: no withheld field {human.visible(qid)}.", file=sys.stderr)
        return human.EXIT_DECLINED
    if row.get("redacted") and human.unlock(store, f"what {row['id']} says"):
        row = store.quarantine.get(row["id"]) or row
    print(describe(row))
    return 0


def revealed(text: str) -> str:
    """The text with every hidden character marked where it was, and tag text decoded in place."""
    out = []
    for style, segment in reveal(text):
        before, after = _MARKS.get(style, ("", ""))
        out.append(before + human.visible(segment, keep_newlines=True) + after)
    return "".join(out)


def describe(row: dict) -> str:
    """Everything a person needs to judge a withheld field: where, why, and what it said."""
    v = human.visible
    lines = [
        f"Withheld field {row['id']} ({row['status']}"
        + (f": its {row['released_as']} text" if row.get("released_as") else "")
        + ")",
        f"  from:      {v(row['server'])}/{v(row['tool'] or row['method'])}  at {row['created_at']}",
        f"  field:     {v(row['path'])}",
        f"  session:   {v(row['session'])}",
        f"  score:     {row['score']:.2f}",
        "  why:",
    ]
    lines += [
        f"    {signal['name']} (+{signal['weight']:g}): {v(signal['excerpt'])!s}"
        for signal in row["signals"]
    ]
    if row["decoded"]:
        lines.append("  hidden payloads, decoded:")
        lines += [f"    [{d['kind']}] {v(d['text'])}" for d in row["decoded"]]
    if row["removed"]:
        lines.append("  removed: " + ", ".join(f"{r['count']} {r['kind']}" for r in row["removed"]))
    lines += ["  as received (hidden characters marked ⟨…⟩, tag text in ⟦tags: …⟧):", ""]
    lines.append(revealed(row["original"]))
    return "\n".join(lines)
