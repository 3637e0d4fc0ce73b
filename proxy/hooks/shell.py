"""A shell command line as the programs it runs: wrappers, `sh -c`, `eval` and substitutions unwrapped.

This is not a shell: it reads a command the way the deny rules need to, erring towards seeing
more programs rather than fewer. Whatever it cannot take apart is reported, so the caller can
refuse rather than guess.
"""

import os
import re
import shlex
from dataclasses import dataclass, field

from . import environment

MAX_DEPTH = 8  # nested `sh -c` / `eval` / `$(...)` levels before the line counts as unreadable
MAX_SCRIPT_BYTES = 256 * 1024  # a script run by `bash FILE` is read and checked up to this size

_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "|&", ";;", "(", ")", "\n", "{", "}", "!"})
_REDIRECT = re.compile(r"^(?:\d*|&)(?:>>?|>\||<>)$")
_READ_REDIRECT = re.compile(r"^\d*<{1,3}$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\+?=")
_SHELLS = frozenset("sh bash dash zsh ksh mksh ash fish tcsh csh busybox".split())
_PYTHON = re.compile(r"^(python|pypy)[0-9.]*$|^py$")
_INLINE_CODE = {
    "node": ("-e", "--eval", "-p", "--print"),
    "perl": ("-e", "-E"),
    "ruby": ("-e",),
    "deno": ("eval",),
    "bun": ("-e", "--eval"),
    "php": ("-r",),
    "osascript": ("-e",),
}
# Wrappers that run the rest of their arguments as a command; the value is the set of their
# options that take a separate value (skipped together with it).
_WRAPPERS: dict[str, frozenset[str]] = {
    "sudo": frozenset("-u -g -C -D -h -p -r -t -U -T".split()),
    "doas": frozenset("-u -C".split()),
    "timeout": frozenset("-s -k --signal --kill-after".split()),
    "nohup": frozenset(),
    "time": frozenset(),
    "builtin": frozenset(),
    "setsid": frozenset(),
    "command": frozenset(),
    "exec": frozenset({"-a"}),
    "nice": frozenset({"-n"}),
    "chronic": frozenset(),
    "ionice": frozenset("-c -n -p".split()),
    "stdbuf": frozenset("-i -o -e".split()),
    "unbuffer": frozenset(),
    "caffeinate": frozenset("-t -w".split()),
    "taskset": frozenset(),
    "xargs": frozenset(
        "-a -d -E -e -I -i -L -l -n -P -s --max-args --max-procs --delimiter".split()
    ),
    "flock": frozenset("-w -E".split()),
    "chroot": frozenset(),
    "torsocks": frozenset(),
    "proxychains": frozenset(),
}
# Runners whose subcommand runs a program: `uv run X`, `npx X`, `poetry run X`...
_RUNNERS: dict[str, frozenset[str]] = {
    "uv": frozenset({"run", "tool"}),
    "uvx": frozenset({""}),
    "pipx": frozenset({"run"}),
    "npx": frozenset({""}),
    "bunx": frozenset({""}),
    "pnpm": frozenset({"dlx", "exec"}),
    "yarn": frozenset({"dlx", "exec"}),
    "poetry": frozenset({"run"}),
    "pdm": frozenset({"run"}),
    "hatch": frozenset({"run"}),
    "rye": frozenset({"run"}),
    "conda": frozenset({"run"}),
    "mamba": frozenset({"run"}),
    "direnv": frozenset({"exec"}),
    "nix": frozenset({"run", "shell"}),
    "docker": frozenset(),
}


class Unreadable(ValueError):
    """A command line nested too deeply (or otherwise beyond this reader) to check."""


@dataclass(frozen=True)
class Invocation:
    """One program the line runs: its arguments, where it runs, what it writes, inline code it is given."""

    argv: tuple[str, ...]
    cwd: str
    writes: tuple[str, ...] = ()
    code: str = ""

    @property
    def program(self) -> str:
        """The program's base name, lower-cased, without `.exe`."""
        return program_name(self.argv[0]) if self.argv else ""


def program_name(word: str) -> str:
    """`/usr/bin/Curl.exe` -> `curl`."""
    return os.path.basename(word.replace("\\", "/")).lower().removesuffix(".exe")


def expand(word: str, cwd: str | None = None) -> str:
    """`~` and `$VARS` expanded; with `cwd`, also made absolute (for comparing paths)."""
    text = environment.current().expand(word)
    if cwd is not None and text and not os.path.isabs(text):
        text = os.path.join(cwd, text)
    return os.path.normpath(text) if cwd is not None and text else text


@dataclass
class _Reader:
    invocations: list[Invocation] = field(default_factory=list)

    def line(self, command: str, cwd: str, depth: int) -> str:
        """Read one command line starting in `cwd`; return the directory it leaves the shell in."""
        if depth > MAX_DEPTH:
            raise Unreadable(f"commands nested more than {MAX_DEPTH} levels deep")
        for inner in substitutions(command):
            self.line(inner, cwd, depth + 1)
        for segment in _segments(_words(command)):
            cwd = self.segment(segment, cwd, depth)
        return cwd

    def segment(self, words: list[str], cwd: str, depth: int) -> str:
        argv, writes = [], []
        pending_write = pending_read = False
        for word in words:
            if pending_write or pending_read:
                if pending_write:
                    writes.append(word)
                pending_write = pending_read = False
            elif _REDIRECT.match(word):
                if argv and argv[-1].isdigit():
                    argv.pop()  # `2>file`: the lexer split off the descriptor number
                pending_write = True
            elif _READ_REDIRECT.match(word):
                pending_read = True
            else:
                argv.append(word)
        while argv and _ASSIGNMENT.match(argv[0]):
            argv.pop(0)
        if not argv:
            if writes:
                self.invocations.append(Invocation((), cwd, tuple(writes)))
            return cwd
        if program_name(argv[0]) in ("cd", "pushd") and len(argv) > 1:
            return expand(argv[-1], cwd)
        self.program(argv, cwd, tuple(writes), depth)
        return cwd

    def program(self, argv: list[str], cwd: str, writes: tuple[str, ...], depth: int) -> None:
        """Record what `argv` runs, unwrapping wrappers, shells and interpreters."""
        name = program_name(argv[0])
        rest = argv[1:]
        if name == "env":
            self.program_or_record(_after_env(rest), argv, cwd, writes, depth)
        elif name in _WRAPPERS:
            self.program_or_record(
                _after_options(rest, _WRAPPERS[name], _leading_value(name)),
                argv,
                cwd,
                writes,
                depth,
            )
        elif name in _RUNNERS:
            self.program_or_record(_after_runner(rest, _RUNNERS[name]), argv, cwd, writes, depth)
        elif name in _SHELLS:
            self.shell(argv, cwd, writes, depth)
        elif name in ("eval", "source", "."):
            self.invocations.append(Invocation(tuple(argv), cwd, writes))
            if name == "eval":
                self.line(" ".join(rest), cwd, depth + 1)
            elif rest:
                self.script(rest[0], cwd, depth)
        elif _PYTHON.match(name):
            self.python(argv, cwd, writes, depth)
        elif name in _INLINE_CODE:
            code = _option_value(rest, _INLINE_CODE[name])
            self.invocations.append(Invocation(tuple(argv), cwd, writes, code or ""))
        else:
            self.invocations.append(Invocation(tuple(argv), cwd, writes))

    def program_or_record(
        self, inner: list[str], argv: list[str], cwd: str, writes: tuple, depth: int
    ) -> None:
        # The wrapper itself is recorded too: its options may name files.
        self.invocations.append(Invocation(tuple(argv), cwd, writes))
        if inner:
            self.program(inner, cwd, writes, depth)

    def shell(self, argv: list[str], cwd: str, writes: tuple[str, ...], depth: int) -> None:
        rest = argv[1:]
        if program_name(argv[0]) == "busybox" and rest:
            rest = rest[1:]
        self.invocations.append(Invocation(tuple(argv), cwd, writes))
        for index, word in enumerate(rest):
            if word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
                if index + 1 < len(rest):
                    self.line(rest[index + 1], cwd, depth + 1)
                return
            if not word.startswith("-") and not word.startswith("+"):
                self.script(word, cwd, depth)
                return

    def script(self, path: str, cwd: str, depth: int) -> None:
        """A script file run by a shell: read it and check its lines too (when it exists)."""
        text = environment.current().read(expand(path, cwd), MAX_SCRIPT_BYTES)
        if text is None:
            return
        if len(text) > MAX_SCRIPT_BYTES:
            raise Unreadable(f"script {path} is larger than {MAX_SCRIPT_BYTES} bytes")
        self.line(text.decode("utf-8", "replace"), cwd, depth + 1)

    def python(self, argv: list[str], cwd: str, writes: tuple[str, ...], depth: int) -> None:
        rest = argv[1:]
        for index, word in enumerate(rest):
            if word == "-c" or (
                word.startswith("-") and not word.startswith("--") and word.endswith("c")
            ):
                self.invocations.append(
                    Invocation(
                        tuple(argv), cwd, writes, rest[index + 1] if index + 1 < len(rest) else ""
                    )
                )
                return
            if word.startswith("-m"):
                module = word[2:] or (rest[index + 1] if index + 1 < len(rest) else "")
                tail = rest[index + (1 if word[2:] else 2) :]
                self.invocations.append(Invocation(tuple(argv), cwd, writes))
                self.invocations.append(Invocation(_module_argv(module, tail), cwd, writes))
                return
            if not word.startswith("-"):
                break
        self.invocations.append(Invocation(tuple(argv), cwd, writes))


def _module_argv(module: str, tail: list[str]) -> tuple[str, ...]:
    """`python -m lazaretto.app approve X` is `lazaretto approve X`; `-m lazaretto.app.commands.trust` too."""
    parts = module.split(".")
    if parts[0] == "lazaretto":
        command = [p for p in parts[1:] if p not in ("app", "cli", "commands", "__main__", "proxy")]
        return ("lazaretto", *command, *tail)
    return (module, *tail)


def _leading_value(name: str) -> int:
    # `timeout 5 cmd`: one positional (the duration) before the command.
    return 1 if name in ("timeout",) else 0


def _after_options(words: list[str], with_value: frozenset[str], positional: int = 0) -> list[str]:
    index = 0
    while index < len(words) and words[index].startswith("-") and words[index] != "-":
        if words[index] == "--":
            index += 1
            break
        index += 2 if words[index] in with_value else 1
    return words[index + positional :]


def _after_env(words: list[str]) -> list[str]:
    index = 0
    while index < len(words):
        word = words[index]
        if word in ("-u", "--unset", "-C", "--chdir"):
            index += 2
        elif word in ("-S", "--split-string") and index + 1 < len(words):
            # `env -S "lazaretto approve X"`: the string is a whole command line.
            return [*_words(words[index + 1]), *words[index + 2 :]]
        elif word.startswith("-S") and len(word) > 2:
            return [*_words(word[2:]), *words[index + 1 :]]
        elif word.startswith("-") or _ASSIGNMENT.match(word):
            index += 1
        else:
            break
    return words[index:]


def _after_runner(words: list[str], subcommands: frozenset[str]) -> list[str]:
    if "" in subcommands:
        rest = _after_options(words, frozenset({"--from", "-p", "--package", "--with"}))
        return rest
    for index, word in enumerate(words):
        if word in subcommands:
            rest = words[index + 1 :]
            # `uv tool run X`: a second subcommand word before the program.
            while rest and (rest[0] in subcommands or rest[0] == "run"):
                rest = rest[1:]
            return _after_options(rest, frozenset({"--from", "--with", "-p", "--package", "-n"}))
        if not word.startswith("-"):
            return []
    return []


def _option_value(words: list[str], options: tuple[str, ...]) -> str | None:
    for index, word in enumerate(words):
        if word in options and index + 1 < len(words):
            return words[index + 1]
    return None


_SUBSTITUTION_OPENERS = ("$(", "<(", ">(")


def substitutions(text: str) -> list[str]:
    """The command lines inside `$(...)`, `<(...)`, `>(...)` and backticks, outermost first."""
    found = []
    index = 0
    while index < len(text):
        if text.startswith(_SUBSTITUTION_OPENERS, index):
            end = _closing(text, index + 2)
            found.append(text[index + 2 : end])
            index = end + 1
        elif text[index] == "`":
            end = text.find("`", index + 1)
            end = len(text) if end < 0 else end
            found.append(text[index + 1 : end])
            index = end + 1
        else:
            index += 1
    return found


def _closing(text: str, start: int) -> int:
    depth = 1
    for index in range(start, len(text)):
        if text[index] == "(":
            depth += 1
        elif text[index] == ")":
            depth -= 1
            if depth == 0:
                return index
    return len(text)


def _words(command: str) -> list[str]:
    """Shell words and operators; unbalanced quotes fall back to splitting with quotes dropped."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>\n")
    lexer.whitespace = " \t\r"
    lexer.commenters = ""
    lexer.wordchars += "~-./*?[]=+:@%,^$\\{}!#"
    try:
        return list(lexer)
    except ValueError:
        # An unterminated quote: read every word anyway, so nothing hides behind the error.
        return re.findall(r"&&|\|\||[;&|()<>\n]|[^\s;&|()<>'\"]+", command)


def _segments(words: list[str]) -> list[list[str]]:
    segments: list[list[str]] = [[]]
    for word in words:
        if word in _SEPARATORS:
            segments.append([])
        else:
            segments[-1].append(word)
    return [segment for segment in segments if segment]


def invocations(command: str, cwd: str) -> list[Invocation]:
    """Every program `command` runs (starting in `cwd`), wrappers and nested shells unwrapped.

    Raises Unreadable when the line nests deeper than this reader follows.
    """
    reader = _Reader()
    reader.line(command, cwd, 0)
    return reader.invocations
