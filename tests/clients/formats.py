"""Client configs written the many ways people and clients write them, for the byte-for-byte tests.

A config is drawn as a value (servers of every kind, and the keys around them), then written out
with layout choices drawn too: inline or one member per line, indentation, spacing around `:` and
`,`, escapes, line ends, a final newline or not; TOML with tables or inline tables, either string
quoting, arrays over lines with comments. Each written config comes with the text around its
server entries, cut where the entries go, so a test can check that `wrap` left that text alone.
"""

import json
import random
from dataclasses import dataclass

from hypothesis import strategies as st

# Text people put in configs: ASCII, accents, CJK, emoji (outside the BMP), quotes, backslashes.
_TEXT = st.text(
    alphabet=st.sampled_from(list("abcXYZ019 -_./:@$ \"'\\é中🙂\t")), min_size=0, max_size=12
)
_NAME = st.text(alphabet=st.sampled_from(list("abcdefgz-_0")), min_size=1, max_size=8)
_VARIABLE = st.text(alphabet=st.sampled_from(list("ABCXYZ_")), min_size=1, max_size=6)
_PLAIN = st.text(alphabet=st.sampled_from(list("abcxyz019-./@")), min_size=1, max_size=10)
_NUMBER_TEXTS = {1000: ["1000", "1E3", "1.0e+3", "1000.0"], 0.5: ["0.5", "5e-1"], -3: ["-3"]}


@dataclass(frozen=True)
class Written:
    """A config's text, and the text around its server entries (one more piece than entries)."""

    text: str
    around: list[str]


def assert_json_around_kept(text: str, around: list[str]) -> None:
    """The wrapped text is the original's pieces around its entries, each entry some JSON value."""
    decoder = json.JSONDecoder()
    position = 0
    for index, piece in enumerate(around):
        assert text.startswith(piece, position), (index, piece, text[position:])
        position += len(piece)
        if index < len(around) - 1:
            _, position = decoder.raw_decode(text, position)
    assert position == len(text)


def assert_toml_around_kept(text: str, around: list[str]) -> None:
    """The wrapped text holds the original's pieces around its entries, in order, whole."""
    if len(around) == 1:
        assert text == around[0]
        return
    assert text.startswith(around[0])
    position = len(around[0])
    for piece in around[1:-1]:
        found = text.find(piece, position)
        assert found >= 0, (piece, text[position:])
        position = found + len(piece)
    assert text.endswith(around[-1]) and len(text) - len(around[-1]) >= position


# ---------------------------------------------------------------------------------------------
# Values


@st.composite
def stdio_entry(draw) -> dict:
    entry: dict = {"command": draw(st.sampled_from(["npx", "uvx", "node", "/opt/bin/srv"]))}
    if draw(st.booleans()):
        entry["args"] = draw(st.lists(_TEXT, max_size=4))
    if draw(st.booleans()):
        entry["env"] = draw(st.dictionaries(_VARIABLE, _TEXT, max_size=2))
    if draw(st.booleans()):
        entry["type"] = "stdio"
    if draw(st.booleans()):
        entry["timeout"] = draw(st.sampled_from(sorted(_NUMBER_TEXTS)))
    if draw(st.booleans()):
        entry["disabled"] = draw(st.booleans())
    return _shuffled(draw, entry)


@st.composite
def remote_entry(draw, cursor: bool) -> dict:
    entry: dict = {"url": "https://" + draw(_PLAIN) + ".example/mcp"}
    if draw(st.booleans()):
        entry["type"] = draw(st.sampled_from(["http", "sse", "streamable-http"]))
    headers: dict = {}
    if draw(st.booleans()):
        variable = draw(_VARIABLE)
        headers["Authorization"] = "Bearer " + ("${env:%s}" if cursor else "${%s}") % variable
    if draw(st.booleans()):
        name = "X-" + draw(_PLAIN).replace(".", "").replace("/", "").replace("@", "")
        headers[name] = draw(st.one_of(_TEXT, st.just("${SECRET}")))
    if headers or draw(st.booleans()):
        entry["headers"] = _shuffled(draw, headers)
    return _shuffled(draw, entry)


@st.composite
def json_config(draw, claude_json: bool, cursor: bool) -> dict:
    servers = draw(
        st.dictionaries(
            _NAME,
            st.one_of(
                stdio_entry(),
                remote_entry(cursor),
                st.just({"type": "ws", "url": "wss://x.example/ws"}),
                st.just({"note": "no command"}),
            ),
            max_size=4,
        )
    )
    config: dict = {"mcpServers": servers}
    for key in draw(
        st.lists(st.sampled_from(["theme", "numStartups", "tips", "ünï"]), unique=True)
    ):
        config[key] = draw(
            st.one_of(_TEXT, st.integers(-5, 5000), st.booleans(), st.none(), st.lists(_TEXT))
        )
    if claude_json and draw(st.booleans()):
        config["projects"] = {
            "/home/me/" + draw(_PLAIN): {
                "allowedTools": [],
                "mcpServers": draw(st.dictionaries(_NAME, stdio_entry(), max_size=2)),
            }
        }
    return _shuffled(draw, config)


def _shuffled(draw, mapping: dict) -> dict:
    keys = draw(st.permutations(list(mapping)))
    return {key: mapping[key] for key in keys}


# ---------------------------------------------------------------------------------------------
# JSON layout


@dataclass(frozen=True)
class JsonLayout:
    """How one JSON file is written."""

    indent: str
    newline: str
    colon: str
    comma: str
    pad: str
    inline_from: int  # containers this deep or deeper are written on one line
    escape_non_ascii: bool
    escape_slash: bool
    final_newline: bool
    seed: int  # odd escapes and odd number spellings, here and there


json_layouts = st.builds(
    JsonLayout,
    indent=st.sampled_from(["  ", "    ", "\t", " "]),
    newline=st.sampled_from(["\n", "\r\n"]),
    colon=st.sampled_from([": ", ":", " : ", ":  "]),
    comma=st.sampled_from([", ", ",", " , ", ",  "]),
    pad=st.sampled_from(["", " "]),
    inline_from=st.integers(0, 5),
    escape_non_ascii=st.booleans(),
    escape_slash=st.booleans(),
    final_newline=st.booleans(),
    seed=st.integers(0, 2**16),
)


def write_json(config: dict, layout: JsonLayout) -> Written:
    """The config as text in this layout, cut around every server entry."""
    writer = _JsonWriter(layout)
    placeholders: dict[str, dict] = {}
    marked = _mark_entries(config, placeholders)
    text = writer.value(marked, 0) + (layout.newline if layout.final_newline else "")
    around, entries = [], []
    rest = text
    for marker, (entry, depth) in sorted(
        placeholders.items(), key=lambda pair: text.index(json.dumps(pair[0]))
    ):
        head, _, rest = rest.partition(json.dumps(marker))
        around.append(head)
        entries.append(writer.value(entry, depth))
    around.append(rest)
    whole = "".join(part for pair in zip(around, [*entries, ""], strict=True) for part in pair)
    return Written(whole, around)


def _mark_entries(config: dict, placeholders: dict) -> dict:
    """The config with each server entry replaced by a unique string (its depth noted)."""

    def servers(table: dict, depth: int) -> dict:
        marked = {}
        for name, entry in table.items():
            marker = f"@@entry{len(placeholders)}@@"
            placeholders[marker] = (entry, depth)
            marked[name] = marker
        return marked

    marked = dict(config)
    if "mcpServers" in config:
        marked["mcpServers"] = servers(config["mcpServers"], 2)
    if "projects" in config:
        marked["projects"] = {
            path: {**settings, "mcpServers": servers(settings["mcpServers"], 4)}
            for path, settings in config["projects"].items()
        }
    return marked


class _JsonWriter:
    def __init__(self, layout: JsonLayout) -> None:
        self.layout = layout
        self.random = random.Random(layout.seed)

    def value(self, value, depth: int) -> str:
        if isinstance(value, dict):
            items = [
                self.string(k) + self.layout.colon + self.value(v, depth + 1)
                for k, v in value.items()
            ]
            return self._container("{", "}", items, depth)
        if isinstance(value, list):
            return self._container("[", "]", [self.value(v, depth + 1) for v in value], depth)
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, bool) or value is None:
            return json.dumps(value)
        spellings = _NUMBER_TEXTS.get(value, [json.dumps(value)])
        return self.random.choice(spellings)

    def _container(self, opening: str, closing: str, items: list[str], depth: int) -> str:
        layout = self.layout
        if not items:
            return opening + closing
        if depth >= layout.inline_from:
            return opening + layout.pad + layout.comma.join(items) + layout.pad + closing
        inner = layout.newline + layout.indent * (depth + 1)
        return (
            opening
            + inner
            + ("," + inner).join(items)
            + layout.newline
            + layout.indent * depth
            + closing
        )

    def string(self, text: str) -> str:
        if text.startswith("@@entry"):
            return json.dumps(text)  # a place for an entry, found again by its exact text
        out = ['"']
        for char in text:
            code = ord(char)
            if char in '"\\':
                out.append("\\" + char)
            elif char == "/" and self.layout.escape_slash:
                out.append("\\/")
            elif code < 0x20:
                out.append({"\t": "\\t", "\n": "\\n"}.get(char, f"\\u{code:04x}"))
            elif (code > 0x7E and self.layout.escape_non_ascii) or self.random.random() < 0.03:
                out.append(_escaped(char))
            else:
                out.append(char)
        return "".join(out) + '"'


def _escaped(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


# ---------------------------------------------------------------------------------------------
# Codex TOML


@st.composite
def codex_config(draw) -> Written:
    """A Codex config.toml in a drawn layout, cut around every `mcp_servers` entry."""
    rnd = random.Random(draw(st.integers(0, 2**16)))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    lines_before = draw(
        st.lists(
            st.sampled_from(
                ['model = "gpt-5-codex"', "# my settings", "", 'approval_policy = "never"']
            ),
            max_size=3,
            unique=True,
        )
    )
    servers = draw(st.lists(st.one_of(toml_stdio(), toml_remote()), min_size=0, max_size=4))
    inline_style = draw(st.booleans())
    around = [newline.join([*lines_before, ""]) if lines_before else ""]
    entries = []
    if inline_style:
        around[0] += "[mcp_servers]" + newline + draw(st.sampled_from(["", "# servers" + newline]))
    names = []
    for index, (kind, spec) in enumerate(servers):
        name = draw(_NAME.filter(lambda value: value not in names))
        names.append(name)
        entries.append(
            _toml_inline(name, spec, rnd)
            if inline_style
            else _toml_table(name, kind, spec, rnd, newline)
        )
        around.append(
            newline if inline_style else newline + f"# after entry {index}" + newline + newline
        )
    after = draw(
        st.sampled_from(
            [
                "",
                "[features]" + newline + "hooks = true",
                "[profiles.fast]" + newline + 'model = "o4"  # fast',
            ]
        )
    )
    around[-1] += after
    if not after and around[-1] and not draw(st.booleans()):
        around[-1] = around[-1].removesuffix(newline)  # no final newline
    text = "".join(part for pair in zip(around, [*entries, ""], strict=True) for part in pair)
    return Written(text, around)


@st.composite
def toml_stdio(draw) -> tuple[str, dict]:
    spec: dict = {"command": draw(st.sampled_from(["npx", "uvx", "/opt/bin/srv"]))}
    if draw(st.booleans()):
        spec["args"] = draw(st.lists(_TEXT, max_size=4))
    if draw(st.booleans()):
        spec["env"] = draw(st.dictionaries(_VARIABLE, _TEXT, min_size=1, max_size=2))
    if draw(st.booleans()):
        spec["startup_timeout_sec"] = draw(st.integers(1, 60))
    return "stdio", spec


@st.composite
def toml_remote(draw) -> tuple[str, dict]:
    spec: dict = {"url": "https://" + draw(_PLAIN) + ".example/mcp"}
    if draw(st.booleans()):
        spec["bearer_token_env_var"] = draw(_VARIABLE)
    if draw(st.booleans()):
        spec["http_headers"] = {"X-Team": draw(_PLAIN)}
    if draw(st.booleans()):
        spec["env_http_headers"] = {"X-Key": draw(_VARIABLE)}
    if draw(st.booleans()):
        spec["tool_timeout_sec"] = draw(st.integers(1, 60))
    return "remote", spec


def _toml_string(text: str, rnd: random.Random) -> str:
    if "'" not in text and "\t" not in text and rnd.random() < 0.4:
        return "'" + text + "'"
    out = ['"']
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\t":
            out.append("\\t")
        elif ord(char) > 0x7E and rnd.random() < 0.3:
            out.append(f"\\u{ord(char):04X}" if ord(char) < 0x10000 else f"\\U{ord(char):08X}")
        else:
            out.append(char)
    return "".join(out) + '"'


def _toml_value(value, rnd: random.Random, newline: str, multiline_ok: bool) -> str:
    if isinstance(value, str):
        return _toml_string(value, rnd)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        items = [_toml_value(item, rnd, newline, False) for item in value]
        if multiline_ok and items and rnd.random() < 0.6:
            body = "".join(f"    {item},{rnd.choice(['', '  # why'])}{newline}" for item in items)
            return "[" + newline + body + "]"
        pad = rnd.choice(["", " "])
        return "[" + pad + rnd.choice([", ", ","]).join(items) + pad + "]"
    pairs = [f"{_toml_key(k)} = {_toml_value(v, rnd, newline, False)}" for k, v in value.items()]
    return "{ " + ", ".join(pairs) + " }" if pairs else "{}"


def _toml_key(key: str) -> str:
    return (
        key
        if key.replace("-", "").replace("_", "").isalnum() and key.isascii()
        else json.dumps(key)
    )


def _toml_table(name: str, kind: str, spec: dict, rnd: random.Random, newline: str) -> str:
    lines = [f"[mcp_servers.{_toml_key(name)}]" + rnd.choice(["", "  # " + kind])]
    subtables = []
    for key, value in spec.items():
        if isinstance(value, dict) and rnd.random() < 0.5:
            body = [
                f"{_toml_key(k)} = {_toml_value(v, rnd, newline, False)}" for k, v in value.items()
            ]
            subtables.append(newline.join(["", f"[mcp_servers.{_toml_key(name)}.{key}]", *body]))
            continue
        comment = rnd.choice(["", "", "  # " + key, " #"])
        lines.append(f"{key} = {_toml_value(value, rnd, newline, True)}{comment}")
    return newline.join(lines) + "".join(subtables)


def _toml_inline(name: str, spec: dict, rnd: random.Random) -> str:
    return f"{_toml_key(name)} = {_toml_value(spec, rnd, '', False)}"
