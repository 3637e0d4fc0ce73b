"""What `lazaretto proxy` loads before its first answer: a bound on start-up's growth, not a timing.

The judge (detector, sanitizer, Markdown/HTML/CSS parsers, Hyperscan) is loaded by the first
message that needs it; Textual, the station's client and the other verbs are never needed.
"""

import json
import os
import subprocess
import sys

import pytest
from support.proxy_harness import SCRIPTED_SERVER, ProxyProcess

from lazaretto.proxy.matcher import engine

JUDGE = (
    "lazaretto.proxy.detect",
    "lazaretto.proxy.sanitize",
    "lazaretto.proxy.quarantine.cleaner",
    "hyperscan",
)
MARKUP = ("markdown_it", "selectolax", "tinycss2")
NEVER = ("textual", "lazaretto.app.review", "lazaretto.store.station.client")


def _within(names: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(n for n in names if any(n == p or n.startswith(p + ".") for p in prefixes))


def test_importing_the_proxy_verb_loads_no_judge_and_no_other_verb():
    listing = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, sys; import lazaretto.app.commands.proxy;"
            " print(json.dumps(sorted(sys.modules)))",
        ],
        capture_output=True,
        check=True,
    )
    loaded = json.loads(listing.stdout)
    assert "lazaretto.app.commands.proxy" in loaded
    assert _within(loaded, JUDGE + MARKUP + NEVER) == []
    verbs = [n for n in loaded if n.startswith("lazaretto.app.commands.")]
    assert verbs == ["lazaretto.app.commands.proxy"]


def _imported_by_a_proxy_answering_initialize(tmp_path, trust: str) -> list[str]:
    """The modules a proxy (and its server, which imports none of ours) imported in a run that
    only answers `initialize`, as `-X importtime` lists them on stderr."""
    policy = tmp_path / f"{trust}.toml"
    policy.write_text(f'[servers.srv]\ntrust = "{trust}"\n')
    env = {
        **os.environ,
        "LAZARETTO_STORE": str(tmp_path / "store.db"),
        "LAZARETTO_POLICY": str(policy),
        "LAZARETTO_SESSION": "start-up",
        "PYTHONPROFILEIMPORTTIME": "1",
    }
    env.pop("LAZARETTO_STATION", None)
    proxy = ProxyProcess(["-n", "srv", "--", *SCRIPTED_SERVER], env)
    assert "result" in proxy.initialize()
    assert proxy.close() == 0
    lines = bytes(proxy.stderr).decode().splitlines()
    return [line.rpartition("|")[2].strip() for line in lines if line.startswith("import time:")]


def test_a_trusted_proxy_answers_initialize_without_loading_the_judge(tmp_path):
    imported = _imported_by_a_proxy_answering_initialize(tmp_path, "trusted")
    assert "lazaretto.proxy.mediator.router" in imported
    assert _within(imported, JUDGE + MARKUP + NEVER) == []


@pytest.mark.skipif(
    engine.hyperscan is None or bool(os.environ.get("LAZARETTO_PLAIN_ENGINE")),
    reason="the plain engine runs every sanitizer family, the markup parsers' included",
)
def test_an_untrusted_proxy_judges_initialize_without_the_markup_parsers(tmp_path):
    imported = _imported_by_a_proxy_answering_initialize(tmp_path, "untrusted")
    assert "lazaretto.proxy.detect" in imported  # the answer's strings were read
    assert _within(imported, MARKUP + NEVER) == []
