"""The browser oracle: Chromium renders each case and says which markers a person can read and
which URLs the page fetches. Its verdicts are recorded in verdicts.json, which the tests read; run
this file to record them again (`python tests/sanitize/rendered/oracle.py`) after changing the
cases, and commit the result.

Needs Chromium (`apt-get install chromium`) and playwright-core (tests/install-npm-servers).
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from markdown_it import MarkdownIt

HERE = Path(__file__).resolve().parent
VERDICTS = HERE / "verdicts.json"
NODE_MODULES = HERE.parent.parent / "node_modules"
CHROMIUM_NAMES = ("chromium", "chromium-browser")


def chromium() -> str | None:
    """The Chromium executable, or None when there is none here."""
    return next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)


def missing() -> str:
    """Why the oracle cannot run here, or "" when it can."""
    if chromium() is None:
        return "no Chromium here (apt-get install chromium)"
    if shutil.which("node") is None:
        return "no Node.js here"
    if not (NODE_MODULES / "playwright-core").is_dir():
        return "no playwright-core (run tests/install-npm-servers)"
    return ""


def page_of(text: str, markdown: bool) -> str:
    """The HTML a person's viewer renders for a case: a Markdown case as CommonMark renders it."""
    return MarkdownIt("commonmark").render(text) if markdown else text


def render(pages: dict[str, str]) -> dict[str, dict]:
    """Each page (by id) as Chromium renders it: {"markers": {marker: verdict}, "fetched": [urls]}."""
    reason = missing()
    if reason:
        raise RuntimeError(reason)
    request = {"cases": [{"id": key, "html": html} for key, html in pages.items()]}
    env = {
        **os.environ,
        "ORACLE_NODE_MODULES": str(NODE_MODULES),
        "ORACLE_CHROMIUM": str(chromium()),
    }
    done = subprocess.run(
        ["node", str(HERE / "oracle.js")],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=env,
        timeout=30 * 60,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the browser oracle failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout)


def recorded() -> dict[str, dict]:
    """The verdicts recorded by the last run of this file."""
    return json.loads(VERDICTS.read_text(encoding="utf-8"))


def main() -> int:
    sys.path.insert(0, str(HERE.parent.parent))
    from sanitize.rendered.cases import CASES

    verdicts = render({case.id: page_of(case.text, case.markdown) for case in CASES})
    VERDICTS.write_text(json.dumps(verdicts, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {len(verdicts)} cases in {VERDICTS.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
