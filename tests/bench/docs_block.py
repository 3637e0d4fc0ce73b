"""A benchmark's table in the docs: `--write-docs` rewrites the script's own block of the page.

Each script prints its table, then one JSON line. With `--write-docs [PAGE]` it also puts the
table between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` of the benchmarks page (NAME is the
script's file name without `.py`), under a line that says when, on what machine and by which
command it was made, so the figures on the page are never pasted by hand.
"""

import argparse
import datetime
import os
import platform
import re
import shlex
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"
FLAG = "--write-docs"


def add_flag(parser: argparse.ArgumentParser) -> None:
    """`--write-docs [PAGE]`: where the table goes besides stdout (default: the benchmarks page)."""
    parser.add_argument(
        FLAG,
        nargs="?",
        const=PAGE,
        type=Path,
        metavar="PAGE",
        help="also write the table into this script's block of the benchmarks page "
        "(default: docs/benchmarks.md)",
    )


def write_docs(page: Path | None, table: list[str]) -> None:
    """Rewrite this script's block of `page` with `table` (nothing when no page was asked for)."""
    if page is None:
        return
    script = Path(sys.argv[0])
    name = script.stem
    opening, closing = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    block = re.compile(f"{re.escape(opening)}\n.*?{re.escape(closing)}", re.DOTALL)
    text = page.read_text(encoding="utf-8")
    if len(block.findall(text)) != 1:
        raise SystemExit(f"{page}: no single {opening} ... {closing} block to write the table in")
    # The machine's, not this process's: `--pin` leaves the script itself one CPU.
    cores = os.cpu_count()
    load = (
        f", load average {os.getloadavg()[0]:.1f} at the end" if hasattr(os, "getloadavg") else ""
    )
    stamp = (
        f"Written by `python tests/bench/{script.name}{_arguments()}` on "
        f"{datetime.date.today().isoformat()}: {platform.system()} {platform.machine()}, "
        f"{cores} cores, Python {platform.python_version()}{load}."
    )
    # Blank lines around the stamp and the table: Markdown ends an HTML comment's block at one.
    body = "\n".join([opening, "", stamp, "", "```text", *table, "```", "", closing])
    page.write_text(block.sub(lambda _: body, text), encoding="utf-8")


def _arguments() -> str:
    """The script's arguments as given, less `--write-docs` and its page (a path of this machine)."""
    given = sys.argv[1:]
    kept: list[str] = []
    skip_value = False
    for arg in given:
        if skip_value:
            skip_value = False
            if not arg.startswith("-"):
                continue
        if arg == FLAG:
            # argparse takes the next argument as the page unless it looks like an option.
            skip_value = True
            continue
        if arg.startswith(f"{FLAG}="):
            continue
        kept.append(arg)
    return "".join(f" {shlex.quote(arg)}" for arg in kept)
