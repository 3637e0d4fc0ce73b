"""Every benchmark still runs: each script, with small sizes, exits 0 and ends with one JSON line.

The figures themselves are not checked here (timing belongs to the benchmarks, not to tests);
this only keeps the scripts from rotting while the code they measure changes, and checks that
`--write-docs` puts each script's table into its own block of the benchmarks page, and nowhere else.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bench.cpu_groups import CpuGroups
from bench.docs_block import PAGE

HERE = Path(__file__).resolve().parent
SMALL = {
    "roundtrip.py": ["--calls", "20", "--rounds", "1"],
    "remote_roundtrip.py": ["--calls", "3", "--rounds", "1", "--big", "65536"],
    "large_results.py": ["--rounds", "1"],
    "scan_throughput.py": ["--rounds", "1", "--every", "8"],
    "store_load.py": ["--proxies", "2", "--calls", "5", "--rate", "50"],
    "worst_case.py": ["--sizes", "1000,2000"],
    "review_open.py": ["--rows", "200", "--rounds", "1"],
    "hook_latency.py": ["--runs", "1"],
}


def test_every_benchmark_script_is_listed_here():
    scripts = {path.name for path in HERE.glob("*.py")} - {
        Path(__file__).name,
        "bare_relay.py",
        "bytecode.py",
        "docs_block.py",
        "uncleaned_proxy.py",
        "station_process.py",
        "cpu_groups.py",
    }
    assert scripts == set(SMALL)


RUNS = [(script, args) for script, args in sorted(SMALL.items())]
if len(getattr(os, "sched_getaffinity", lambda _: ())(0)) >= 2:
    RUNS.append(("roundtrip.py", [*SMALL["roundtrip.py"], "--pin"]))


def _blocks(page: str) -> dict[str, str]:
    """Each `<!-- bench:NAME -->` block of the page, by NAME."""
    return dict(re.findall(r"<!-- bench:(\w+) -->\n(.*?)<!-- /bench:\1 -->", page, re.DOTALL))


def test_the_benchmarks_page_has_one_block_for_each_script():
    page = PAGE.read_text(encoding="utf-8")
    assert sorted(_blocks(page)) == sorted(Path(script).stem for script in SMALL)
    for name in _blocks(page):
        assert page.count(f"<!-- bench:{name} -->") == 1, name


@pytest.mark.slow
@pytest.mark.parametrize(("script", "args"), RUNS)
def test_benchmark_runs_and_writes_its_table_into_its_own_block(script, args, tmp_path):
    page = tmp_path / "benchmarks.md"
    page.write_text(PAGE.read_text(encoding="utf-8"), encoding="utf-8")
    before = _blocks(page.read_text(encoding="utf-8"))
    done = subprocess.run(
        [sys.executable, str(HERE / script), *args, "--write-docs", str(page)],
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip("\n").splitlines()
    assert len(lines) >= 2  # a table, then the JSON line
    assert isinstance(json.loads(lines[-1]), dict)
    written = page.read_text(encoding="utf-8")
    after = _blocks(written)
    name = Path(script).stem
    # Every other block, and the page around the blocks, is as it was.
    assert {k: v for k, v in after.items() if k != name} == {
        k: v for k, v in before.items() if k != name
    }
    assert _outside_blocks(written) == _outside_blocks(PAGE.read_text(encoding="utf-8"))
    # The block holds the printed table, under the command that made it (less the page's path).
    stamp, _, table = after[name].strip("\n").partition("\n\n")
    command = " ".join([f"python tests/bench/{script}", *args])
    assert stamp.startswith(f"Written by `{command}` on "), stamp
    assert str(tmp_path) not in stamp
    assert table == "\n".join(["```text", *lines[:-1], "```"])


def _outside_blocks(page: str) -> str:
    return re.sub(
        r"(<!-- bench:(\w+) -->\n).*?(<!-- /bench:\2 -->)", r"\1\3", page, flags=re.DOTALL
    )


def test_the_store_load_station_gets_a_cpu_group_of_its_own_as_its_unit_gives_it():
    with CpuGroups() as groups:
        if groups.base is None:
            pytest.skip(f"no CPU groups here: {groups.why_not}")
        base = groups.base
        station = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.read()"],
            stdin=subprocess.PIPE,
            preexec_fn=groups.join_station,
        )
        other = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
        )
        try:
            assert str(station.pid) in (base / "station" / "cgroup.procs").read_text().split()
            # Everything else the benchmark starts shares the sibling group, as a user's session.
            assert str(other.pid) in (base / "user" / "cgroup.procs").read_text().split()
            assert str(os.getpid()) in (base / "user" / "cgroup.procs").read_text().split()
        finally:
            for proc in (station, other):
                proc.communicate(b"", timeout=30)
    assert not base.exists()  # nothing left behind once its processes are gone
