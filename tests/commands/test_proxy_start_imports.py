"""What `lazaretto proxy` loads before its first answer: a bound on start-up's growth, not a timing.

The judge (detector, sanitizer, Markdown/HTML/CSS parsers, Hyperscan) is loaded by the first
message that needs it, and not by an answer for the model that it found clean before (see
`quarantine.clean_answers`); its readers by a text the first pass does not vouch for, the host
parser by a text that may name a host; Textual, the station's client and the other verbs are
never needed.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.proxy_harness import SCRIPTED_SERVER, ProxyProcess

from lazaretto.proxy.matcher import engine
from lazaretto.proxy.quarantine.clean_answers import KIND

JUDGE = (
    "lazaretto.proxy.detect",
    "lazaretto.proxy.sanitize",
    "lazaretto.proxy.quarantine.cleaner",
    "hyperscan",
)
MARKUP = ("markdown_it", "selectolax", "tinycss2")
# What only a text the first pass does not vouch for needs: the detector's readers, the learned
# reading, and every language's words (a server's name and version need none of them).
READERS = (
    "lazaretto.proxy.detect.rules_reading",
    "lazaretto.proxy.detect.concept_rules",
    "lazaretto.proxy.detect.homoglyph_reading",
    "lazaretto.proxy.detect.learned",
    "lazaretto.proxy.detect.languages.en",
)
# What only a text that may name a host needs: the WHATWG host parser.
HOST_PARSER = ("ada_url",)
# What only some texts need: HTML entities decoded (the html module loads a table of them).
ENTITIES = ("html",)
# How many regexes importing the judge may compile: the rest are compiled by the first text
# that reaches them (functools.cache'd getters), most of them never by a short answer.
COMPILED_ON_IMPORT_MOST = 5
NEVER = ("textual", "lazaretto.app.review", "lazaretto.store.station.client")
# What only a station (its API), the review app's listings, a server pinned by a lock file, or a
# system without /proc needs.
NOT_AT_START = (
    "lazaretto.store.api",
    "lazaretto.store.review",
    "lazaretto.proxy.pins.lockfile",
    *(("psutil",) if sys.platform.startswith("linux") else ()),
)


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


def test_importing_the_judge_compiles_few_regexes():
    listing = subprocess.run(
        [
            sys.executable,
            "-c",
            "import json, re, sys; import lazaretto.app.commands.proxy\n"
            "compiled, compile = [], re.compile\n"
            "def counting(pattern, flags=0):\n"
            "    compiled.append(sys._getframe(1).f_globals.get('__name__'))\n"
            "    return compile(pattern, flags)\n"
            "re.compile = counting\n"
            "import lazaretto.proxy.quarantine.cleaner\n"
            "print(json.dumps(compiled))",
        ],
        capture_output=True,
        check=True,
    )
    compiled = json.loads(listing.stdout)
    assert len(compiled) <= COMPILED_ON_IMPORT_MOST, compiled


def _cache_without_answers(tmp_path) -> Path:
    """A cache folder of this test's own, holding what the run's shared one holds (the compiled
    scans, seconds to build) but no answer judged clean."""
    home = tmp_path / "cache"
    shared = Path(os.environ["XDG_CACHE_HOME"]) / "lazaretto"
    if shared.is_dir():
        shutil.copytree(shared, home / "lazaretto", ignore=shutil.ignore_patterns(f"{KIND}-*"))
    return home


def _imported_by_a_proxy_answering_initialize(
    tmp_path, trust: str, cache: Path | None = None
) -> tuple[dict, list[str]]:
    """The answer to `initialize` of a proxy that only answers it, and the modules it (and its
    server, which imports none of ours) imported, as `-X importtime` lists them on stderr."""
    policy = tmp_path / f"{trust}.toml"
    policy.write_text(f'[servers.srv]\ntrust = "{trust}"\n')
    env = {
        **os.environ,
        "LAZARETTO_STORE": str(tmp_path / "store.db"),
        "LAZARETTO_POLICY": str(policy),
        "LAZARETTO_SESSION": "start-up",
        "PYTHONPROFILEIMPORTTIME": "1",
    }
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    env.pop("LAZARETTO_STATION", None)
    proxy = ProxyProcess(["-n", "srv", "--", *SCRIPTED_SERVER], env)
    answer = proxy.initialize()
    assert "result" in answer
    assert proxy.close() == 0
    lines = bytes(proxy.stderr).decode().splitlines()
    imported = [
        line.rpartition("|")[2].strip() for line in lines if line.startswith("import time:")
    ]
    return answer, imported


def test_a_trusted_proxy_answers_initialize_without_loading_the_judge(tmp_path):
    _, imported = _imported_by_a_proxy_answering_initialize(tmp_path, "trusted")
    assert "lazaretto.proxy.mediator.router" in imported
    assert _within(imported, JUDGE + MARKUP + HOST_PARSER + NEVER + NOT_AT_START) == []


@pytest.mark.skipif(
    engine.hyperscan is None or bool(os.environ.get("LAZARETTO_PLAIN_ENGINE")),
    reason="the plain engine runs every sanitizer family, the markup parsers' included",
)
def test_an_untrusted_proxy_judges_initialize_without_the_markup_parsers_or_readers(tmp_path):
    cache = _cache_without_answers(tmp_path)
    _, imported = _imported_by_a_proxy_answering_initialize(tmp_path, "untrusted", cache)
    assert "lazaretto.proxy.detect" in imported  # the answer's strings were read
    assert _within(imported, MARKUP + ENTITIES + READERS + HOST_PARSER + NEVER + NOT_AT_START) == []


def test_an_untrusted_proxy_relays_an_answer_judged_clean_before_without_the_judge(tmp_path):
    cache = _cache_without_answers(tmp_path)
    judged, imported = _imported_by_a_proxy_answering_initialize(tmp_path, "untrusted", cache)
    assert "lazaretto.proxy.detect" in imported
    again, imported = _imported_by_a_proxy_answering_initialize(tmp_path, "untrusted", cache)
    assert "lazaretto.proxy.mediator.router" in imported
    assert _within(imported, JUDGE + MARKUP + NEVER + NOT_AT_START) == []
    assert again == judged
