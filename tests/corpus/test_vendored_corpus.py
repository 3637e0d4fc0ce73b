"""The vendored corpus is what its README says: every file listed, with its record count, digest and licence."""

import hashlib
import json
import lzma
import re

from corpus.records import DATA, NAMES, path, records

ROW = re.compile(r"^\| (\S+\.jsonl) \| (\d+) \| ([0-9a-f]{64}) \| .+ \| (.+) \|$", re.MULTILINE)


def _table() -> dict[str, tuple[int, str, str]]:
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    return {
        name: (int(count), digest, licence) for name, count, digest, licence in ROW.findall(readme)
    }


def test_every_file_is_in_the_readme_and_every_row_is_a_file():
    assert NAMES and set(_table()) == set(NAMES)


def test_each_file_has_the_records_and_digest_its_row_gives():
    for name, (count, digest, _) in _table().items():
        raw = lzma.decompress(path(name).read_bytes())
        assert hashlib.sha256(raw).hexdigest() == digest, name
        assert raw.count(b"\n") == count, name
        for line in raw.decode("utf-8").splitlines():
            record = json.loads(line)
            assert record["label"] in {"attack", "benign"} and record["text"] and record["source"]


def test_each_licence_the_readme_names_is_there():
    for name, (_, _, licence) in _table().items():
        named = re.findall(r"`(licences/[^`]+)`", licence)
        assert named, name
        for file in named:
            assert (DATA / file).stat().st_size > 0, file


def test_records_yields_one_record_per_line():
    assert sum(1 for _ in records("comparables.jsonl")) == _table()["comparables.jsonl"][0]
