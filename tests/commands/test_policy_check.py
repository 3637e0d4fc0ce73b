"""`lazaretto policy check [FILE]` as a real process: every problem with its line, notes that are
no errors, and the exit status a script can rely on."""

import os
from pathlib import Path

import pytest


def write(tmp_path: Path, text: str, name: str = "lazaretto.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_usable_policy_exits_0_and_names_its_servers(cli, tmp_path):
    path = write(
        tmp_path, '[servers.web]\ntrust = "untrusted"\n[servers.docs]\ntrust = "trusted"\n'
    )
    done = cli("policy", "check", str(path))
    assert done.returncode == 0, done.stdout
    assert done.stdout == f"{path}: ok, servers named: web, docs.\n"


def test_every_problem_is_listed_with_its_line_and_exit_1(cli, tmp_path):
    path = write(
        tmp_path,
        '[servers.slack]\ntrust = "untrusted"\noutbond = ["post_message"]\n[detect]\nthreshold = 0\n',
    )
    done = cli("policy", "check", str(path))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"{path}, line 3: unknown key `outbond` in `servers.slack`: did you mean `outbound`?"
        " Rename it, or remove it",
        f"{path}, line 5: `detect.threshold` must be a number above 0, not 0: write one, or"
        " remove the key for the default",
        f"{path}: 2 problems; until it is fixed, a proxy reading it does not start and the hooks"
        " refuse every tool call.",
    ]


@pytest.mark.parametrize(
    ("name", "text", "says"),
    [
        ("lazaretto.toml", "[servers.web\n", ", line 1, column 13: not valid TOML"),
        ("gate.json", '{"servers": {"web": {"untrusted": "*"}}}', "must be a list of strings"),
        ("gate.json", '{"servers": ', ", line 1, column 13: not valid JSON"),
    ],
)
def test_syntax_and_json_policies_are_checked_alike(cli, tmp_path, name, text, says):
    done = cli("policy", "check", str(write(tmp_path, text, name)))
    assert done.returncode == 1 and says in done.stdout


def test_an_entry_with_only_outbound_is_noted_not_refused(cli, tmp_path):
    path = write(tmp_path, '[servers.slack]\noutbound = ["post_message"]\n')
    done = cli("policy", "check", str(path))
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == (
        f"{path}, line 1: note: `servers.slack` sets neither `trust` nor `untrusted`, so every"
        ' result of slack taints the session: add `trust = "trusted"` if all it returns is yours,'
        ' or `trust = "untrusted"` to say so'
    )


def test_a_lock_file_the_proxy_could_not_use_is_a_problem(cli, tmp_path):
    path = write(tmp_path, '[servers.web]\ntrust = "untrusted"\nlock = "web.lock.json"\n')
    done = cli("policy", "check", str(path))
    assert done.returncode == 1
    assert f"{path}, line 3: the pin lock file cannot be used (cannot read" in done.stdout
    assert "lazaretto pin export" in done.stdout


def test_the_default_policy_is_the_one_checked(cli, child_env, tmp_path):
    default = Path(os.environ["XDG_CONFIG_HOME"]) / "lazaretto" / "lazaretto.toml"
    absent = cli("policy", "check")
    assert (
        absent.returncode == 0 and "no policy file, so every server is untrusted" in absent.stdout
    )
    named = write(tmp_path, "colour = 1\n", "named.toml")
    by_variable = cli("policy", "check", env={**child_env, "LAZARETTO_POLICY": str(named)})
    assert (
        by_variable.returncode == 1
        and f"{named}, line 1: unknown key `colour`" in by_variable.stdout
    )
    default.parent.mkdir(parents=True)
    default.write_text('label = "yes"\n')
    assert cli("policy", "check").returncode == 1


def test_a_file_named_that_does_not_exist_is_1_and_bad_usage_2(cli, tmp_path):
    missing = cli("policy", "check", str(tmp_path / "nope.toml"))
    assert missing.returncode == 1 and "policy file not found" in missing.stdout
    assert cli("policy", "check", "--colour").returncode == 2
    assert cli("policy").returncode == 2


def test_the_tainted_shells_programs_are_names_or_a_name_and_a_subcommand(cli, tmp_path):
    good = write(tmp_path, '[taint]\nread_only_programs = ["sed", "git stash", "Cargo tree"]\n')
    assert cli("policy", "check", str(good)).returncode == 0
    bad = write(
        tmp_path, '[taint]\nread_only_programs = ["/usr/bin/sed", "a b c", "*"]\n', "bad.toml"
    )
    done = cli("policy", "check", str(bad))
    assert done.returncode == 1
    lines = [line for line in done.stdout.splitlines() if "is not a program" in line]
    assert len(lines) == 3 and all(", line 2: the `taint.read_only_programs`" in x for x in lines)
