"""@modelcontextprotocol/server-filesystem, the most-installed MCP server, behind the proxy.

Trusted, every tool answers the same through the proxy as directly (both servers serve one
folder, so even the paths and times in their answers agree). Untrusted, every read answers the
same as directly too (nothing in these files is hidden or addressed to a model), a read taints
the session, and `write_file` is refused until a person approves it; then the same call writes
the file and the agent is told so (it was once told that an approved write had failed).
"""

import pytest
from support.interop import (
    Interop,
    Pair,
    installed,
    refusal_token,
    trusted_pair,
    untrusted_beside,
)
from support.interop_servers import FILESYSTEM, seed_files
from support.sdk_session import SdkSession

pytestmark = installed(FILESYSTEM.executable)

NOTES = "Release 4.2 builds faster.\nThe cache is per branch.\n"
# Paths are relative to the one folder the server may read, which both servers share.
READS = {
    "list_allowed_directories": {},
    "list_directory": {"path": "."},
    "list_directory_with_sizes": {"path": ".", "sortBy": "name"},
    "directory_tree": {"path": "."},
    "read_text_file": {"path": "notes.txt", "head": 1},
    "read_file": {"path": "docs/guide.md"},
    "read_media_file": {"path": "pixel.png"},
    "read_multiple_files": {"paths": ["notes.txt", "docs/guide.md"]},
    "search_files": {"path": ".", "pattern": "**/*.md"},
    "get_file_info": {"path": "notes.txt"},
    "edit_file": {
        "path": "notes.txt",
        "edits": [{"oldText": "faster", "newText": "slower"}],
        "dryRun": True,
    },
}


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    with trusted_pair(tmp_path_factory.mktemp("filesystem"), FILESYSTEM) as both:
        yield both


@pytest.fixture(scope="module")
def untrusted(pair, tmp_path_factory):
    with untrusted_beside(pair, FILESYSTEM, tmp_path_factory.mktemp("untrusted")) as session:
        yield session


@pytest.mark.parametrize("tool", READS)
def test_trusted_a_read_answers_the_same(pair: Pair, tool):
    outcome = pair.call(tool, READS[tool])
    assert outcome["result"]["isError"] is False


# edit_file writes unless told to preview: a tainted session's preview is refused like a write.
@pytest.mark.parametrize("tool", [tool for tool in READS if tool != "edit_file"])
def test_untrusted_a_read_answers_the_same(pair: Pair, untrusted: SdkSession, tool):
    assert untrusted.call(tool, READS[tool]) == pair.direct.call(tool, READS[tool])


def test_trusted_a_path_outside_the_folder_is_the_same_error(pair: Pair):
    outcome = pair.call("read_text_file", {"path": "/etc/hostname"})
    assert outcome["result"]["isError"] is True


def test_trusted_writes_answer_the_same_and_are_made(pair: Pair):
    root = pair.data / "files"

    def write(session: SdkSession) -> dict:
        outcomes = [
            session.call("create_directory", {"path": "drafts"}),
            session.call("write_file", {"path": "drafts/plan.txt", "content": "Ship it.\n"}),
            session.call("move_file", {"source": "drafts/plan.txt", "destination": "plan.txt"}),
        ]
        assert (root / "plan.txt").read_text() == "Ship it.\n"
        # The other server starts from the same folder, and so does every other test.
        (root / "plan.txt").unlink()
        (root / "drafts").rmdir()
        return {"outcomes": outcomes}

    made = pair.same(write)
    assert [outcome["result"]["isError"] for outcome in made["outcomes"]] == [False] * 3


@pytest.mark.slow
def test_untrusted_a_read_taints_and_an_approved_write_is_written(tmp_path):
    box = Interop(tmp_path, "filesystem")
    written = seed_files(tmp_path / "data") / "summary.txt"
    call = {"path": "summary.txt", "content": "Builds are faster.\n"}
    with box.proxied(FILESYSTEM.launch(tmp_path / "data"), "untrusted") as agent:
        assert agent.call("read_text_file", {"path": "notes.txt"}) == {
            "result": {
                "content": [{"type": "text", "text": NOTES}],
                "structuredContent": {"content": NOTES},
                "isError": False,
            }
        }
        assert [(event["method"], event["tool"]) for event in box.taint()] == [
            ("tools/call", "read_text_file")
        ]
        token = refusal_token(agent.call("write_file", call))
        assert not written.exists()
        box.approve(token)
        assert agent.call("write_file", call) == {
            "result": {
                "content": [{"type": "text", "text": "Successfully wrote to summary.txt"}],
                "structuredContent": {"content": "Successfully wrote to summary.txt"},
                "isError": False,
            }
        }
    assert written.read_text() == "Builds are faster.\n"
