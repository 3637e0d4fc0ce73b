"""Keys typed into a terminal (tmux send-keys, screen stuff, Codex's write_stdin), as the lines they enter.

A terminal does not run what is typed as it arrives: its line editor does, when Enter comes. Until
then the keys may still be changed by editing keys (backspace, cursor moves, word erase, history
recall, tab completion), and a line left without Enter is finished by whatever is typed next, which
is checked on its own. So typed keys are readable only as whole lines of plain characters: text
ending in Enter, with no key but Enter that the line editor acts on. Keys that only interrupt or end
input (Ctrl-C, Ctrl-D, Ctrl-Z, Ctrl-\\) enter nothing and may be sent alone.
"""

import re

from .shell import Unreadable

# Ctrl-C, Ctrl-D, Ctrl-Z, Ctrl-\: they signal or end input and enter no text.
_STOPPING = frozenset("\x03\x04\x1a\x1c")
# Every other C0 control, DEL, and the C1 controls: the keys a line editor edits or recalls with.
_EDITING = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_CONTINUED = re.compile(r"(?<!\\)(?:\\\\)*\\\n\Z")


def typed_lines(keys: str) -> str:
    """The lines `keys` enter when typed at a terminal (empty when they enter none).

    Raises Unreadable when what they enter cannot be told from them alone.
    """
    if not keys or set(keys) <= _STOPPING:
        return ""
    text = keys.replace("\r\n", "\n").replace("\r", "\n")
    found = _EDITING.search(text) or re.search("\t", text)
    if found:
        raise Unreadable(
            f"it types the terminal key {found.group(0)!r}, which edits, completes or recalls"
            " what is entered: what runs cannot be read from the keys"
        )
    if not text.endswith("\n"):
        raise Unreadable(
            "it types a line without entering it: the keys typed next would finish it unread"
        )
    if _CONTINUED.search(text):
        raise Unreadable("it types a line that continues onto keys typed later")
    return text


# tmux key names (matched as tmux does, ignoring case) and what they type. Any other named key
# (cursor, paging, function keys) sends an escape sequence: an editing key.
_TMUX_NAMES = {"enter": "\n", "kpenter": "\n", "space": " ", "tab": "\t", "btab": "\x1b"}
_TMUX_NAMES |= {"bspace": "\x7f", "escape": "\x1b"}
_TMUX_EDITING = frozenset(
    """up down left right home end pageup pgup ppage pagedown pgdn npage insert ic delete dc
    any""".split()
)
_TMUX_MODIFIED = re.compile(r"(?i)^((?:[CMS]-)+)(.+)$")
_TMUX_FUNCTION = re.compile(r"(?i)^(?:f\d{1,2}|kp.+)$")
_SEND_KEYS_VALUED = frozenset("ctN")


def tmux_send_keys(words: list[str]) -> str:
    """The keys `tmux send-keys WORDS` types (its options included), before the line editor sees them.

    Its operands follow each other with nothing between them (`'lazaretto unt' aint` types one
    word); `-H` gives each key as a hexadecimal number, `-l` sends every operand as it is written.
    Raises Unreadable where the keys cannot be told (a repeat count).
    """
    flags, index = set(), 0
    while index < len(words) and words[index].startswith("-") and len(words[index]) > 1:
        word = words[index]
        index += 1
        if word == "--":
            break
        for position, flag in enumerate(word[1:], 1):
            if flag in _SEND_KEYS_VALUED:
                value = word[position + 1 :]
                if not value and index < len(words):
                    value, index = words[index], index + 1
                if flag == "N" and value != "1":
                    raise Unreadable("it sends keys a repeated number of times")
                break
            flags.add(flag)
    operands = words[index:]
    if "X" in flags:
        return ""  # copy-mode commands, not keys typed into the pane
    if "H" in flags:
        try:
            return "".join(chr(int(word, 16)) for word in operands)
        except (ValueError, OverflowError) as exc:
            raise Unreadable(f"it sends keys by a number that is not one ({exc})") from exc
    if "l" in flags:
        return "".join(operands)
    return "".join(_tmux_key(word) for word in operands)


def _tmux_key(word: str) -> str:
    """What one send-keys operand types: a key name's key, else its characters as written."""
    if len(word) <= 1:
        return word
    lower = word.lower()
    if lower in _TMUX_NAMES:
        return _TMUX_NAMES[lower]
    if lower in _TMUX_EDITING or _TMUX_FUNCTION.match(word):
        return "\x1b"
    if word.startswith("^") and len(word) == 2:
        return _control(word[1])
    modified = _TMUX_MODIFIED.match(word)
    if modified:
        key = _tmux_key(modified.group(2))
        if len(key) != 1 or key == "\x1b":
            return "\x1b"  # a modified named key is an escape sequence
        if "M-" in modified.group(1).upper():
            return "\x1b" + key
        return _control(key) if "C-" in modified.group(1).upper() else key.upper()
    return word


def _control(key: str) -> str:
    """The control character Ctrl+`key` types (Ctrl-M is Enter, Ctrl-H backspace)."""
    if key == " " or key == "@":
        return "\x00"
    if key == "?":
        return "\x7f"
    return chr(ord(key.upper()) & 0x1F) if key.isascii() else "\x1b"


_SCREEN_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "a": "\a", "b": "\b", "f": "\f", "e": "\x1b"}


def screen_stuff(text: str) -> str:
    """The keys `screen -X stuff TEXT` types: `^M`-style controls and backslash escapes decoded."""
    text = re.sub(r"\^(.)", lambda m: _control(m.group(1)), text, flags=re.S)

    def escape(match: re.Match[str]) -> str:
        value: str = match.group(1)
        if value[0] in "01234567":
            return chr(int(value, 8))
        return _SCREEN_ESCAPES.get(value, value)

    return re.sub(r"\\([0-7]{1,3}|.)", escape, text, flags=re.S)
