"""The reviewer's view: hidden characters shown in place, by style."""

from lazaretto.proxy.sanitize import reveal


def test_each_family_gets_its_style():
    text = (
        "pay\u200bload"
        + "".join(chr(0xE0000 + ord(c)) for c in "run rm")
        + " \u202eevil\x1b[2J\x00!"
    )
    assert reveal(text) == [
        ("text", "pay"),
        ("hidden", "⟨ZWSP⟩"),
        ("text", "load"),
        ("tag", "run rm"),
        ("text", " "),
        ("bidi", "⟨RLO⟩"),
        ("text", "evil"),
        ("control", "⟨ESC⟩[2J⟨NUL⟩"),
        ("text", "!"),
    ]


def test_selector_runs_show_their_bytes():
    smuggled = "".join(chr(0xFE00 + b) if b < 16 else chr(0xE0100 + b - 16) for b in b"hi")
    assert reveal("x" + smuggled) == [("text", "x"), ("hidden", "⟨2 selector bytes: hi⟩")]


def test_emoji_and_plain_text_stay_text():
    text = "👨\u200d👩\u200d👧 ❤\ufe0f plain"
    assert reveal(text) == [("text", text)]
    assert reveal("") == []
