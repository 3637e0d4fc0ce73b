"""A policy cannot be silently wrong: every mistake is an error naming its file, line and key,
with what to do, in TOML and in mcp-gate's JSON alike."""

import pytest

from lazaretto.proxy.policy import PolicyError, load_policy, parse_policy
from lazaretto.proxy.policy_lines import key_positions


def mistakes(tmp_path, text: str, name: str = "lazaretto.toml") -> list[str]:
    """The error's lines for a policy file holding `text`."""
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(PolicyError) as caught:
        load_policy(path)
    assert str(caught.value) == "\n".join(caught.value.lines())
    return caught.value.lines()


def test_a_typo_in_a_key_names_file_line_key_and_the_key_meant(tmp_path):
    lines = mistakes(tmp_path, '[servers.slack]\ntrust = "untrusted"\noutbond = ["post_message"]\n')
    assert lines[0] == (
        f"{tmp_path / 'lazaretto.toml'}, line 3: unknown key `outbond` in `servers.slack`:"
        " did you mean `outbound`? Rename it, or remove it"
    )
    assert (
        lines[-1]
        == f"Fix it, then check it again with: lazaretto policy check {tmp_path / 'lazaretto.toml'}"
    )


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        # A key of another table says where it belongs.
        ("[servers.web]\ntrust = 'trusted'\nthreshold = 2\n", "line 3", "belongs in `[detect]`"),
        ("threshold = 2\n", "line 1", "belongs in `[detect]`"),
        # A server written at the top level, or a table name misspelt.
        ('[slack]\ntrust = "trusted"\n', "line 1", "did you mean `[servers.slack]`?"),
        ('[server.slack]\ntrust = "trusted"\n', "line 1", "did you mean `servers`?"),
        ("[detect]\nthreshhold = 2\n", "line 2", "did you mean `threshold`?"),
        # Nothing like it: the keys the table takes are listed.
        ("colour = 'red'\n", "line 1", "remove it (the top level takes `allow_hosts`"),
        # A dotted key and an inline table are found where they are written.
        ('servers.web.trst = "trusted"\n', "line 1", "did you mean `trust`?"),
        (
            '[servers]\nweb = { trust = "trusted", outbund = [] }\n',
            "line 2, column 28",
            "`outbound`",
        ),
    ],
)
def test_unknown_keys_say_what_to_do(tmp_path, text, line, says):
    [first, _how] = mistakes(tmp_path, text)
    assert f", {line}: unknown key" in first and says in first


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ('[servers.web]\ntrust = "trused"\n', 2, 'not "trused"; did you mean "trusted"?'),
        ("[servers.web]\noutbound = 'post'\n", 2, 'like `outbound = ["post"]`, not "post"'),
        ("[servers.web]\nlabel = 'yes'\n", 2, 'must be true or false, not "yes"'),
        ("[servers.web]\nlock = 3\n", 2, "the path of a pin lock file"),
        ("[approval]\nttl_minutes = 0\n", 2, "must be a number above 0, not 0"),
        ("[proxy]\nmax_line_bytes = nan\n", 2, "must be a number above 0, not nan"),
        ("\n\nallow_hosts = ['git*.com']\n", 3, '"git*.com" is not a host pattern: write a host'),
        ("[servers]\nweb = 'trusted'\n", 2, "must be a table of the server's keys"),
        ('[servers]\ntrust = "trusted"\n', 2, "write `[servers.NAME]`"),
        ("detect = 3\n", 1, "`detect` must be a table"),
    ],
)
def test_invalid_values_name_their_line_and_the_value_wanted(tmp_path, text, line, says):
    [first, _how] = mistakes(tmp_path, text)
    assert first.startswith(f"{tmp_path / 'lazaretto.toml'}, line {line}") and says in first


def test_every_mistake_is_named_in_the_order_of_the_file(tmp_path):
    lines = mistakes(
        tmp_path,
        '[servers.web]\ntrust = "maybe"\n[detect]\nthreshold = -1\n[servers.slack]\noutbond = []\n',
    )
    assert [line.split(":")[0].rsplit(", ", 1)[-1] for line in lines[:-1]] == [
        "line 2",
        "line 4",
        "line 6",
    ]


def test_a_toml_syntax_error_names_its_line_and_column(tmp_path):
    [first, _how] = mistakes(tmp_path, 'allow_hosts = ["github.com"]\n[servers.web\ntrust = 1\n')
    assert first.startswith(f"{tmp_path / 'lazaretto.toml'}, line 2, column 13: not valid TOML:")
    assert first.endswith("; fix the syntax there") and "(at line" not in first


MCP_GATE = """{
  "allow_hosts": ["github.com"],
  "servers": {
    "web":   { "untrusted": ["*"] },
    "slack": { "untrusted": ["read_channel"], "outbond": ["post_message"] }
  }
}"""


def test_a_json_policy_names_line_column_and_key(tmp_path):
    [first, _how] = mistakes(tmp_path, MCP_GATE, "gate.json")
    assert first == (
        f"{tmp_path / 'gate.json'}, line 5, column 47: unknown key `outbond` in `servers.slack`:"
        " did you mean `outbound`? Rename it, or remove it"
    )


def test_a_json_syntax_error_names_its_line_and_column(tmp_path):
    [first, _how] = mistakes(tmp_path, '{"servers": {"web": {"untrusted": ["*"],}}}', "gate.json")
    assert first.startswith(f"{tmp_path / 'gate.json'}, line 1, column 41: not valid JSON:")


def test_json_keys_in_arrays_and_repeats_are_placed_as_json_reads_them():
    text = '{"servers": {"a": [{"trust": 1}], "b": {"x": 1}, "b": {"trust": 2}}}'
    positions = key_positions(text, is_json=True)
    assert ("servers", "a", "trust") not in positions  # inside an array: no policy key
    assert positions[("servers", "b")] == (1, text.rindex('"b"') + 1)  # the last one counts
    assert positions[("servers", "b", "trust")] == (1, text.index('"trust": 2') + 1)


def test_toml_keys_are_placed_however_they_are_written():
    text = (
        "label = true\n"
        'servers.x.trust = "trusted"\n'
        "[ servers.slack ]\n"
        "  outbound = []\n"
        "[servers.inline]\n"
        "a = { b = 1 }\n"
    )
    positions = key_positions(text, is_json=False)
    assert positions[("label",)] == (1, None)  # first on its line: the line says it all
    assert positions[("servers", "x", "trust")] == (2, None)
    assert positions[("servers", "slack")] == (3, None)
    assert positions[("servers", "slack", "outbound")] == (4, None)
    assert positions[("servers", "inline", "a", "b")] == (6, 7)


def test_every_valid_mcp_gate_policy_reads_unchanged():
    policy = parse_policy(MCP_GATE.replace("outbond", "outbound"))
    assert policy.server("slack").outbound == {"post_message"}
    assert policy.server("web").untrusted == {"*"}
