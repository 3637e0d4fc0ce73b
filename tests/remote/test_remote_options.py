"""`lazaretto proxy --url` options: every bad one is refused with a reason, variables are expanded."""

import pytest

from lazaretto.proxy.transport.remote.options import OptionError, build

ENV = {"TOKEN": "s3cret", "TEAM": "blue", "EMPTY": ""}


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"url": "ftp://host/mcp"}, "http:// or https://"),
        ({"url": "https://user:pw@host/mcp"}, "user name or password"),
        ({"url": "https://host/mcp", "headers": ["no colon"]}, '"Name: value"'),
        ({"url": "https://host/mcp", "headers": ["Bad Name: x"]}, '"Name: value"'),
        ({"url": "https://host/mcp", "headers": ["Mcp-Session-Id: x"]}, "sets this header itself"),
        (
            {"url": "https://host/mcp", "headers": ["X-A: ${env:MISSING}"]},
            "MISSING, which is not set",
        ),
        ({"url": "https://host/mcp", "headers": ["X-A: a\r\nX-B: b"]}, "line break"),
        ({"url": "https://host/mcp", "bearer_token_env": "EMPTY"}, "not set or empty"),
        ({"url": "https://host/mcp", "ca_file": "/nowhere/ca.pem"}, "no such file"),
    ],
)
def test_bad_options_are_refused_with_a_reason(kwargs, why):
    with pytest.raises(OptionError, match=why.replace("(", r"\(").replace("?", r"\?")):
        build(environ=ENV, **kwargs)


def test_variables_are_expanded_in_header_values():
    options = build(
        "https://host/mcp",
        [
            "X-Team: ${env:TEAM}",
            "X-Claude: ${TEAM}",
            "X-Default: ${UNSET:-fallback}",
            "X-E: ${EMPTY:-d}",
        ],
        environ=ENV,
    )
    assert options.headers == {
        "X-Team": "blue",
        "X-Claude": "blue",
        "X-Default": "fallback",
        "X-E": "d",
    }
    assert not options.has_credentials


def test_a_bearer_token_replaces_any_configured_authorization():
    options = build(
        "https://host/mcp", ["Authorization: Basic abc"], bearer_token_env="TOKEN", environ=ENV
    )
    assert options.headers == {"Authorization": "Bearer s3cret"}
    assert options.has_credentials and options.host == "host"
