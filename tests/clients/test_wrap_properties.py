"""`wrap` then `unwrap` gives every config back byte for byte, however it is written; `wrap` leaves
the text around the entries it changes as it was. Configs are drawn (see formats), and each goes
through the same code the commands run, in this process (thousands of them would take minutes as
processes; test_wrap_bytes runs real ones).
"""

import contextlib
import io
import json
import tempfile
from pathlib import Path

import tomlkit
from clients.formats import (
    Written,
    assert_json_around_kept,
    assert_toml_around_kept,
    codex_config,
    json_config,
    json_layouts,
    write_json,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazaretto.app.clients.files import backups_of
from lazaretto.app.commands.wrap import change_servers

MANY = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
JSON_NAMES = {".claude.json": (True, False), ".mcp.json": (False, False), "mcp.json": (False, True)}


def run(path: Path, action: str) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return change_servers(path, action, dry_run=False)


def round_trip(name: str, written: Written, keep_backups: bool = True) -> tuple[str, str]:
    """(the text after wrap, the text after unwrap) of a config written as `written`."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(written.text.encode())
        assert run(path, "wrap") in (0, 1)  # 1: an entry was refused, the rest written
        wrapped = path.read_bytes().decode()
        if not keep_backups:
            for saved in backups_of(path):
                saved.unlink()
        assert run(path, "unwrap") == 0
        return wrapped, path.read_bytes().decode()


@st.composite
def json_files(draw) -> tuple[str, Written]:
    name = draw(st.sampled_from(sorted(JSON_NAMES)))
    claude_json, cursor = JSON_NAMES[name]
    config = draw(json_config(claude_json, cursor))
    return name, write_json(config, draw(json_layouts))


@MANY
@given(json_files())
def test_a_json_config_comes_back_byte_for_byte(drawn):
    name, written = drawn
    assert json.loads(written.text)  # the test's own writer writes JSON
    wrapped, unwrapped = round_trip(name, written)
    assert unwrapped == written.text
    assert_json_around_kept(wrapped, written.around)


@MANY
@given(codex_config())
def test_a_codex_config_comes_back_byte_for_byte(written):
    tomlkit.parse(written.text)  # the test's own writer writes TOML
    wrapped, unwrapped = round_trip("config.toml", written)
    assert unwrapped == written.text
    assert_toml_around_kept(wrapped, written.around)


@MANY
@given(json_files())
def test_without_its_backups_a_json_config_still_means_what_it_did(drawn):
    name, written = drawn
    _, unwrapped = round_trip(name, written, keep_backups=False)
    assert json.loads(unwrapped) == json.loads(written.text)


@MANY
@given(codex_config())
def test_without_its_backups_a_codex_config_still_means_what_it_did(written):
    _, unwrapped = round_trip("config.toml", written, keep_backups=False)
    assert tomlkit.parse(unwrapped).unwrap() == tomlkit.parse(written.text).unwrap()
