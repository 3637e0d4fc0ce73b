"""`install` then `uninstall` gives hook settings back byte for byte, however they are written
(drawn settings in drawn layouts, see formats; in this process, as test_config_writes does a few
as processes)."""

import tempfile
from pathlib import Path

from clients.formats import json_layouts, write_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lazaretto.app.clients.files import apply
from lazaretto.app.clients.hook_settings import install, uninstall

_TEXT = st.text(alphabet=st.sampled_from(list('abc *()/\\"é🙂')), max_size=10)
_EVENTS = ["PreToolUse", "PostToolUse", "Stop", "postToolUse", "beforeShellExecution"]


@st.composite
def hook_settings(draw, cursor: bool) -> dict:
    data: dict = {}
    for key in draw(st.lists(st.sampled_from(["model", "env", "permissions"]), unique=True)):
        data[key] = draw(st.one_of(_TEXT, st.dictionaries(_TEXT, _TEXT, max_size=2)))
    if cursor and draw(st.booleans()):
        data["version"] = 1
    if draw(st.booleans()):
        hooks = {}
        for event in draw(st.lists(st.sampled_from(_EVENTS), unique=True, max_size=3)):
            handler = (
                {"command": draw(_TEXT)}
                if cursor
                else {"hooks": [{"type": "command", "command": draw(_TEXT)}]}
            )
            hooks[event] = draw(st.lists(st.just(handler), max_size=2))
        data["hooks"] = hooks
    keys = draw(st.permutations(list(data)))
    return {key: data[key] for key in keys}


@st.composite
def settings_files(draw) -> tuple[str, str]:
    client = draw(st.sampled_from(["claude-code", "codex", "cursor"]))
    value = draw(hook_settings(client == "cursor"))
    return client, write_json(value, draw(json_layouts)).text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(settings_files())
def test_hook_settings_come_back_byte_for_byte(drawn):
    client, text = drawn
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "settings.json"
        path.write_bytes(text.encode())
        apply(install(client, path, "/opt/lazaretto/bin/lazaretto"))
        assert "lazaretto hook" in path.read_text()
        apply(uninstall(client, path))
        assert path.read_bytes().decode() == text
