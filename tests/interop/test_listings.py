"""Every server's description of itself reads the same through the proxy, trusted or not.

For each server of the suite, the official SDK client reads `initialize`'s result and every
list (tools, prompts, resources, resource templates) directly and through the proxy; the JSON
must be the same, errors included (a server without prompts answers `prompts/list` with the
same error either way). Untrusted, the server's description of itself must neither be withheld
nor taint the session: tool and prompt descriptions address the model by design.
"""

from pathlib import Path

import pytest
from support.interop import Interop, installed
from support.interop_servers import SERVERS, ServerSpec
from support.sdk_session import SdkSession

DESCRIPTION = {
    "tools/list": SdkSession.list_tools,
    "prompts/list": SdkSession.list_prompts,
    "resources/templates/list": SdkSession.list_resource_templates,
}
"""The lists that describe the server, pinned rather than judged as data (docs/policy.md)."""


def describe(session: SdkSession) -> dict:
    """The server's description of itself, as the client read it."""
    return {
        "initialize": session.initialized,
        **{method: read(session) for method, read in DESCRIPTION.items()},
    }


def survey(session: SdkSession) -> dict:
    """The description, and the resources the server lists."""
    return {**describe(session), "resources/list": session.list_resources()}


@pytest.fixture(
    scope="module",
    params=[pytest.param(spec, marks=installed(spec.executable)) for spec in SERVERS],
    ids=[spec.name for spec in SERVERS],
)
def server(request, tmp_path_factory) -> tuple[ServerSpec, Path, dict]:
    """A server, the folder its data is in, and what the client reads from it directly."""
    spec: ServerSpec = request.param
    folder = tmp_path_factory.mktemp(spec.name)
    with Interop(folder, spec.name).direct(spec.launch(folder / "data")) as direct:
        return spec, folder, survey(direct)


def test_trusted_the_client_reads_the_same_server(server, tmp_path):
    spec, folder, direct = server
    with Interop(tmp_path, spec.name).proxied(spec.launch(folder / "data"), "trusted") as through:
        assert survey(through) == direct


def test_untrusted_the_description_is_whole_and_does_not_taint(server, tmp_path):
    spec, folder, direct = server
    box = Interop(tmp_path, spec.name)
    # A server the policy does not name, as every server is at first; each server's own module
    # runs it with `trust = "untrusted"`, which the proxy reads the same way.
    with box.proxied(spec.launch(folder / "data"), None) as through:
        assert describe(through) == {key: direct[key] for key in ("initialize", *DESCRIPTION)}
        assert box.taint() == []
        if "resources" not in direct["initialize"]["result"]["capabilities"]:
            return
        # What a server lists as resources is its data (file names, page titles), not its
        # description of itself: it reads whole, and it is a read (docs/policy.md).
        assert through.list_resources() == direct["resources/list"]
        assert [(event["method"], event["tool"]) for event in box.taint()] == [
            ("resources/list", None)
        ]
