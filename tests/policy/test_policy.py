"""The policy: the issue's TOML as written, mcp-gate's JSON unchanged, and clear errors."""

import pytest
from support.proxy_harness import WORM_POLICY

from lazaretto.proxy.policy import PolicyError, load_policy, parse_policy

# The policy exactly as issue 2 writes it; the end-to-end tests run the worm under it.
ISSUE_TOML = WORM_POLICY

MCP_GATE_JSON = """{
  "allow_hosts": ["github.com", "api.github.com"],
  "servers": {
    "web":   { "untrusted": ["*"] },
    "slack": { "untrusted": ["read_channel"], "outbound": ["post_message"] }
  }
}"""


def test_the_issue_toml_works_as_written():
    policy = parse_policy(ISSUE_TOML)
    assert policy.allow_hosts == ("github.com", "api.github.com")
    assert policy.server("web").trust == "untrusted"
    assert policy.server("slack").untrusted == {"read_channel"}
    assert policy.server("slack").outbound == {"post_message"}
    assert not policy.server("unknown").has_entry


def test_mcp_gate_json_is_read_as_is(tmp_path):
    path = tmp_path / "gate.json"
    path.write_text(MCP_GATE_JSON)
    policy = load_policy(path)
    assert policy.server("web").untrusted == {"*"} and policy.allow_hosts[0] == "github.com"


def test_options_and_defaults():
    policy = parse_policy(
        "label = true\n[detect]\nthreshold = 4.5\n[taint]\nidle_expiry_minutes = 120\n[approval]\nttl_minutes = 5\n"
    )
    assert (
        policy.label,
        policy.threshold,
        policy.idle_expiry_minutes,
        policy.approval_ttl_minutes,
    ) == (True, 4.5, 120.0, 5.0)
    assert (
        parse_policy("").approval_ttl_minutes == 15 and parse_policy("").idle_expiry_minutes is None
    )


def test_a_json_null_is_a_number_left_out():
    nulls = parse_policy(
        '{"approval": {"ttl_minutes": null}, "taint": {"idle_expiry_minutes": null},'
        ' "proxy": {"store_busy_timeout_seconds": null, "max_line_bytes": null}}'
    )
    defaults = parse_policy("")
    assert (
        nulls.approval_ttl_minutes,
        nulls.idle_expiry_minutes,
        nulls.store_busy_timeout_seconds,
        nulls.max_line_bytes,
    ) == (
        defaults.approval_ttl_minutes,
        None,
        defaults.store_busy_timeout_seconds,
        defaults.max_line_bytes,
    )
    assert nulls.approval_ttl_minutes == 15


def test_missing_default_policy_is_empty_but_a_named_one_must_exist(tmp_path, monkeypatch):
    assert load_policy(None).servers == {}
    with pytest.raises(PolicyError, match="not found"):
        load_policy(tmp_path / "nope.toml")
    monkeypatch.setenv("LAZARETTO_POLICY", str(tmp_path / "nope.toml"))
    with pytest.raises(PolicyError, match="not found"):
        load_policy(None)


@pytest.mark.parametrize(
    "text, message",
    [
        ("allow_hosts = 'github.com'", "`allow_hosts` must be a list"),
        ('[servers.web]\ntrust = "maybe"', "trust` must be"),
        ("[servers.web]\noutbound = [1]", "outbound` must be a list of strings"),
        ("[detect]\nthreshold = -1", "must be a number above 0"),
        ("[servers", "not valid TOML"),
        ('{"servers": ', "not valid JSON"),
        ('allow_hosts = ["git*.com"]', "allow_hosts"),
    ],
)
def test_bad_policies_say_what_is_wrong(text, message):
    with pytest.raises(PolicyError, match=message):
        parse_policy(text)


def test_unknown_keys_are_errors_naming_each_one():
    with pytest.raises(PolicyError) as caught:
        parse_policy("colour = 'red'\n[servers.web]\nshade = 1\n")
    assert [problem.key for problem in caught.value.problems] == [
        ("colour",),
        ("servers", "web", "shade"),
    ]
