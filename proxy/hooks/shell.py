"""A shell command line as the programs it runs: wrappers, shells, interpreters, pipes and here-documents unwrapped.

The line is parsed by tree-sitter's bash grammar (a maintained parser of the whole language:
quoting, expansions, here-documents, functions, compound commands), not by splitting words: a
reader that splits words cannot tell `'$X'` from `$X`, nor see that `cat <<EOF | sh` runs the
here-document. What each program does with its arguments comes from the tables in `programs.py`.

This is not a shell: it errs towards seeing more programs rather than fewer. Whatever it cannot
know (a program named by a variable or a glob, a shell line built from an expansion, a script piped
in from a command whose output it cannot tell, a line that does not parse) raises Unreadable, so
the caller refuses rather than guesses.
"""

import codecs
import functools
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from . import budget, environment
from . import programs as P
from .budget import Budget

MAX_DEPTH = 8  # nested `sh -c` / `eval` / `$(...)` levels before the line counts as unreadable
MAX_SCRIPT_BYTES = 256 * 1024  # a script run by `bash FILE` is read and checked up to this size

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\+?=")
# A line of plain words: no quote, expansion, operator, redirection, glob, comment or tilde.
_PLAIN = re.compile(r"[\w ./=:,@%+-]*", re.ASCII)
_GLOB = re.compile(r"[*?]|\[[^\]]+\]")
_BRACES = re.compile(r"\{[^{}]*(?:,|\.\.)[^{}]*\}")
# `$NAME` or `${NAME}`, nothing more: any other expansion (`$1`, `$_`, `${X:-a b}`) may split.
_PLAIN_EXPANSION = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
# A run of name characters: a name is mentioned where such a run equals it.
_NAME_RUN = re.compile(r"[A-Za-z0-9_]+")
# What bash splits an unquoted expansion's value at, unless IFS is changed.
_IFS_DEFAULT = frozenset(" \t\n")
_QUOTING = frozenset({"string", "raw_string", "ansi_c_string", "translated_string"})
_WRITE_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>", ">&", "<>"})
_SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})
_EXPANSIONS = frozenset(
    {"simple_expansion", "expansion", "arithmetic_expansion", "brace_expression"} | _SUBSTITUTIONS
)
_HEREDOC_PARTS = frozenset({"heredoc_start", "heredoc_body", "heredoc_end", "<<", "<<-"})


class Unreadable(ValueError):
    """A command line whose programs cannot all be known: refuse it rather than guess."""


@dataclass(frozen=True)
class Word:
    """One shell word: its text with quotes removed, and whether its value is only known at run time.

    `tail` is the part after the last expansion or glob: `$HOME/bin/lazaretto` ends in a known name,
    unless the expansion may split into words when it runs (`$X/` with X="curl https:"): then the
    program is the first of those words.
    """

    text: str
    dynamic: bool = False  # holds an expansion or a substitution
    glob: bool = False  # holds an unquoted glob or brace pattern
    tail: str = ""
    splits: bool = False  # holds an unquoted expansion that may split into several words

    @property
    def known_name(self) -> bool:
        """Whether the file name this word ends in is known before it runs."""
        return not (self.dynamic or self.glob) or ("/" in self.tail and not self.splits)

    @property
    def unknown(self) -> bool:
        """Whether the word's value is only known at run time."""
        return self.dynamic or self.glob


@dataclass(frozen=True)
class Invocation:
    """One program the line runs: its arguments, where it runs, what it writes, inline code it is given.

    `dynamic` holds the indexes of arguments known only at run time (an expansion, a substitution
    or a glob), `expanded` those of them that hold an expansion or a substitution; `open_tail` says
    standard input adds more (xargs).
    """

    argv: tuple[str, ...]
    cwd: str
    writes: tuple[str, ...] = ()
    code: str = ""
    dynamic: frozenset[int] = frozenset()
    open_tail: bool = False
    reads: tuple[str, ...] = ()
    expanded: frozenset[int] = frozenset()
    opaque: str = ""  # a script that could not be read through, and why
    assigns: tuple[str, ...] = ()  # variables set for it (`X=1 cmd`), or by the line (`X=1`)

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


@functools.cache
def _parser():
    # Imported on first use: a hook that never reads a command line does not pay for the grammar.
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


def _text(node) -> str:
    return node.text.decode("utf-8", "replace")


def _unquoted(node) -> str:
    """A concatenation's text with each quoted or expanded part as one placeholder character:
    what bash looks for brace patterns in."""
    return "".join(
        _text(child) if child.type == "word" or not child.is_named else "\0"
        for child in node.children
    )


def _check_parsed(root) -> None:
    """Raise Unreadable for a line the grammar could not parse (bash would refuse most of them too)."""
    if not root.has_error:
        return
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing or node.type == "ERROR":
            # The grammar does not know `<>` (open for reading and writing): its `<` is left over.
            if node.type == "ERROR" and _text(node) in ("<", ">"):
                continue
            raise Unreadable(
                f"it does not parse as a shell command line (near `{_text(node)[:40]}`)"
            )
        stack.extend(node.children)


def _unescape(text: str, quoted: bool) -> str:
    """Backslash removal: every escaped character outside quotes, only `"$\\` and backtick inside them."""
    if "\\" not in text:
        return text
    pattern = r'\\([$`"\\\n])' if quoted else r"\\(.)"
    return re.sub(pattern, lambda m: "" if m.group(1) == "\n" else m.group(1), text, flags=re.S)


@dataclass
class _Reader:
    invocations: list[Invocation] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)
    # Files this line writes before it may run them: path -> their text (None: not known).
    files: dict[str, str | None] = field(default_factory=dict)
    # The scripts of the project being read (innermost last): see `script`.
    projects: list[str] = field(default_factory=list)
    # What every line read so far (the command, the shell lines inside it, scripts) does with a
    # name: see `_splits`. Kept as it is read, so each text is scanned once.
    mentioned: set[str] = field(default_factory=set)  # names written other than as `$X`/`${X}`
    ifs: bool = False  # whether any line mentions IFS
    run: Budget = field(default_factory=budget.current)

    def read(self, command: str, cwd: str) -> tuple[Invocation, ...]:
        """Every program `command` runs (see `invocations`)."""
        self.line(command, cwd, 0)
        return tuple(self.invocations)

    # -- the tree ------------------------------------------------------------------------------

    def line(self, text: str, cwd: str, depth: int, stdin: str | None = "") -> str | None:
        """Read one command line starting in `cwd`; return what it prints, when that is known."""
        if depth > MAX_DEPTH:
            raise Unreadable(f"commands nested more than {MAX_DEPTH} levels deep")
        self.run.parse(len(text))
        self.note_names(text)
        if _PLAIN.fullmatch(text):
            # Nothing but words and spaces (`git status`, `npm test`): bash splits it at the spaces,
            # and loading the grammar would be most of the hook's time.
            return self.program([Word(w, tail=w) for w in text.split()], cwd, depth, stdin)
        root = _parser().parse(text.encode("utf-8", "surrogatepass")).root_node
        try:
            _check_parsed(root)
        except Unreadable as exc:
            if not self.projects:
                raise
            self.opaque(str(exc), cwd)  # what parsed is still read
        return self.node(root, cwd, depth, stdin)[1]

    def node(self, node, cwd: str, depth: int, stdin: str | None = "") -> tuple[str, str | None]:
        """Read one node; return the directory it leaves the shell in and what it prints (if known)."""
        kind = node.type
        if kind == "command":
            return self.command(node, [], cwd, depth, stdin)
        if kind == "redirected_statement":
            return self.redirected(node, cwd, depth, stdin)
        if kind == "pipeline":
            return cwd, self.pipeline(node.named_children, cwd, depth, stdin)
        if kind in _SUBSTITUTIONS:
            if depth + 1 > MAX_DEPTH:
                raise Unreadable(f"commands nested more than {MAX_DEPTH} levels deep")
            self.children(node, cwd, depth + 1)
            return cwd, None
        if kind in ("subshell", "function_definition"):
            self.children(node, cwd, depth, stdin)  # a subshell's `cd` does not outlive it
            return cwd, None
        if kind == "comment":
            return cwd, None
        if kind == "variable_assignment":
            # `PATH=...` alone changes what every later command of the line runs.
            self.substitutions(node, cwd, depth)
            self.invocations.append(Invocation((), cwd, assigns=(_assigned(node),)))
            return cwd, None
        if kind in ("declaration_command", "unset_command"):
            # `export X=1`, `declare`, `unset`: builtins the grammar does not read as commands.
            self.invocations.append(Invocation((_text(node.children[0]),), cwd))
        return self.children(node, cwd, depth, stdin), None

    def children(self, node, cwd: str, depth: int, stdin: str | None = "") -> str:
        # Every command of a group may read the group's input (`echo ... | { sh; }`).
        for child in _flat(node):
            cwd = self.node(child, cwd, depth, stdin)[0]
        return cwd

    def pipeline(self, stages, cwd: str, depth: int, stdin: str | None) -> str | None:
        """Each stage reads what the one before printed."""
        out = stdin
        for stage in stages:
            out = self.node(stage, cwd, depth, out)[1]
        return out

    def redirected(self, node, cwd: str, depth: int, stdin: str | None) -> tuple[str, str | None]:
        body = node.child_by_field_name("body")
        redirects = node.children_by_field_name("redirect")
        if body is not None and body.type == "command":
            cwd, out = self.command(body, redirects, cwd, depth, stdin)
        else:
            io = self.redirections(redirects, cwd, depth, stdin)
            if io.writes:
                self.invocations.append(
                    Invocation((), cwd, tuple(io.writes), reads=tuple(io.reads))
                )
            out = self.node(body, cwd, depth, io.stdin)[1] if body is not None else None
            out = self.piped(io, out, cwd, depth)
        return cwd, out

    def piped(self, io: "_Redirections", out: str | None, cwd: str, depth: int) -> str | None:
        # `cat <<EOF | sh`: the grammar hangs what follows the here-document's opening line on it.
        for follower in io.followers:
            if follower.type == "pipeline":
                out = self.pipeline(follower.named_children, cwd, depth, out)
            else:
                cwd, out = self.node(follower, cwd, depth)
        return out

    # -- words and redirections ------------------------------------------------------------------

    def word(self, node, cwd: str, depth: int) -> Word:
        """A word node's value, reading every substitution inside it as commands too."""
        self.run.words_read(1)
        kind = node.type
        raw = _text(node)
        if kind == "command_name":
            return (
                self.word(node.named_children[0], cwd, depth) if node.named_children else Word(raw)
            )
        if kind == "word":
            glob = _GLOB.search(raw) or _BRACES.search(raw)
            text = _unescape(raw, quoted=False)
            if glob:
                last = list(_GLOB.finditer(raw)) + list(_BRACES.finditer(raw))
                tail = _unescape(raw[max(m.end() for m in last) :], quoted=False)
                return Word(text, glob=True, tail=tail)
            return Word(text, tail=text)
        if kind == "number":
            return Word(raw, tail=raw)
        if kind == "raw_string":
            return Word(raw[1:-1], tail=raw[1:-1])
        if kind == "ansi_c_string":
            text = _escapes(raw[2:-1])
            return Word(text, tail=text) if text is not None else Word(raw, glob=True)
        if kind in ("string", "translated_string", "concatenation"):
            parts = []
            for child in node.children:
                if child.type == "string_content":
                    value = _unescape(_text(child), quoted=True)
                    parts.append(Word(value, tail=value))
                elif child.is_named:
                    parts.append(self.word(child, cwd, depth))
            if kind == "concatenation" and _BRACES.search(_unquoted(node)):
                # Brace expansion: the grammar reads `{untaint,}` as a concatenation of words.
                return Word(_unescape(raw, quoted=False), glob=True)
            text, tail = "", ""
            for part in parts:
                text += part.text
                tail = part.tail if part.unknown else tail + part.text
            # Inside double quotes nothing splits; a concatenation splits where a part of it does.
            splits = kind == "concatenation" and any(p.splits for p in parts)
            return Word(
                text, any(p.dynamic for p in parts), any(p.glob for p in parts), tail, splits
            )
        # An expansion or substitution (or a node this reader does not know): known only at run time.
        self.substitutions(node, cwd, depth)
        return Word(raw, dynamic=True, splits=self._splits(raw))

    def note_names(self, text: str) -> None:
        """Record how `text` mentions each name (for `_splits`), in one pass over it."""
        for match in _NAME_RUN.finditer(text):
            name = match.group(0)
            start, end = match.span()
            if name == "IFS":
                self.ifs = True
            expanded = text[start - 1 : start] == "$" or (
                text[start - 2 : start] == "${" and text[end : end + 1] == "}"
            )
            if not expanded:
                self.mentioned.add(name)

    def _splits(self, raw: str) -> bool:
        """Whether this expansion, unquoted, may split into several words when it runs.

        Only `$NAME` of a variable the lines read so far leave alone (they mention it only as
        `$NAME` or `${NAME}`, and never mention IFS) is taken as its value in the hook's own
        environment, which splits only if that value holds a blank. A substitution prints what it
        likes; a special parameter (`$1`, `$_`) or an operator (`${X:-a b}`) is set at run time.
        """
        plain = _PLAIN_EXPANSION.fullmatch(raw)
        name = plain and (plain.group(1) or plain.group(2))
        if not name or name == "_":  # `$_` is the last word of the command before
            return True
        if self.ifs or name in self.mentioned:
            return True
        value = environment.current().get(name) or ""
        return not _IFS_DEFAULT.isdisjoint(value)

    def substitutions(self, node, cwd: str, depth: int) -> None:
        """Read the commands of every `$(...)`, backtick and `<(...)` inside a node."""
        stack = [node]
        while stack:
            item = stack.pop()
            if item.type in _SUBSTITUTIONS:
                self.node(item, cwd, depth)
            else:
                stack.extend(item.named_children)

    def redirections(self, nodes, cwd: str, depth: int, stdin: str | None) -> "_Redirections":
        io = _Redirections(stdin)
        self.run.words_read(len(nodes))
        for node in nodes:
            if node.type == "file_redirect":
                target = node.child_by_field_name("destination")
                operator = "".join(
                    _text(c) for c in node.children if not c.is_named or c.type == "ERROR"
                )
                if target is None or target.type == "number":
                    continue  # `2>&1`: another descriptor, not a file
                word = self.word(target, cwd, depth)
                if ">" in operator:
                    io.writes.append(word.text)
                if "<" in operator:
                    io.reads.append(word.text)
                    io.stdin = None if word.unknown else self.file_text(word.text, cwd)
            elif node.type == "heredoc_redirect":
                io.stdin = self.heredoc(node, cwd, depth)
                io.followers.extend(c for c in node.named_children if c.type not in _HEREDOC_PARTS)
            elif node.type == "herestring_redirect":
                word = self.word(node.named_children[0], cwd, depth)
                io.stdin = None if word.unknown else word.text + "\n"
        return io

    def heredoc(self, node, cwd: str, depth: int) -> str | None:
        """A here-document's text; None when it expands something (its delimiter was not quoted)."""
        body = next((c for c in node.named_children if c.type == "heredoc_body"), None)
        if body is None:
            return ""
        self.substitutions(body, cwd, depth)
        if body.named_children:
            return None
        text = _text(body)
        if any(c.type == "<<-" for c in node.children):
            text = "\n".join(line.lstrip("\t") for line in text.split("\n"))
        return text

    def file_text(self, path: str, cwd: str) -> str | None:
        """A file's text as the line will see it: written earlier on the line, else on disk (None:
        not there, or larger than MAX_SCRIPT_BYTES)."""
        where = expand(path, cwd)
        if where in self.files:
            return self.files[where]
        return self.run.remembered(("file", where), lambda: _disk_text(where))

    # -- commands --------------------------------------------------------------------------------

    def command(
        self, node, redirects: list, cwd: str, depth: int, stdin: str | None
    ) -> tuple[str, str | None]:
        if not self.projects:
            return self.simple_command(node, redirects, cwd, depth, stdin)
        try:
            return self.simple_command(node, redirects, cwd, depth, stdin)
        except Unreadable as exc:
            self.opaque(str(exc), cwd)
            return cwd, None

    def opaque(self, reason: str, cwd: str) -> None:
        """Inside a project's script, a command that cannot be read: recorded, and reading goes on."""
        self.invocations.append(Invocation((self.projects[-1],), cwd, opaque=reason))

    def simple_command(
        self, node, redirects: list, cwd: str, depth: int, stdin: str | None
    ) -> tuple[str, str | None]:
        words: list[Word] = []
        assigns: list[str] = []
        redirects = list(redirects)
        for index, child in enumerate(node.children):
            role = node.field_name_for_child(index)
            if role in ("name", "argument"):
                words.append(self.word(child, cwd, depth))
            elif child.type.endswith("_redirect"):
                redirects.append(child)
            elif child.is_named:
                if child.type == "variable_assignment":
                    assigns.append(_assigned(child))
                self.substitutions(child, cwd, depth)  # `X=$(...) cmd`
        io = self.redirections(redirects, cwd, depth, stdin)
        out = self.program(words, cwd, depth, io.stdin, io.writes, io.reads, assigns=assigns)
        for path in io.writes:
            self.files[expand(path, cwd)] = out
        out = self.piped(io, "" if io.writes else out, cwd, depth)
        if words and program_name(words[0].text) in ("cd", "pushd") and len(words) > 1:
            cwd = expand(words[-1].text, cwd)
        return cwd, out

    def program(
        self,
        words: list[Word],
        cwd: str,
        depth: int,
        stdin: str | None = "",
        writes: list[str] | tuple = (),
        reads: list[str] | tuple = (),
        open_tail: bool = False,
        assigns: list[str] | tuple = (),
    ) -> str | None:
        """Record what `words` runs, unwrapping wrappers, shells and interpreters; return its output."""
        start = 0
        while start < len(words) and _ASSIGNMENT.match(words[start].text):
            start += 1
        assigns = (*assigns, *(w.text.partition("=")[0].rstrip("+") for w in words[:start]))
        words = words[start:]
        if not words:
            if writes or assigns:
                self.invocations.append(
                    Invocation((), cwd, tuple(writes), reads=tuple(reads), assigns=assigns)
                )
            return None
        head, rest = words[0], words[1:]
        if not head.known_name:
            raise Unreadable(
                f"it runs a program named by `{head.text}`, which is only known when it runs"
            )
        name = program_name(head.text)
        if name in self.aliases:
            value = self.aliases.pop(name)  # an alias is not expanded inside itself
            try:
                return self.line(" ".join([value, *(w.text for w in rest)]), cwd, depth + 1, stdin)
            finally:
                self.aliases[name] = value
        self.run.program()
        self.run.words_read(len(words))
        invocation = Invocation(
            tuple(w.text for w in words),
            cwd,
            tuple(writes),
            dynamic=frozenset(i for i, w in enumerate(words) if w.unknown),
            open_tail=open_tail,
            reads=tuple(reads),
            expanded=frozenset(i for i, w in enumerate(words) if w.dynamic),
            assigns=assigns,
        )
        interpreter = P.interpreter(name)
        if interpreter is not None:
            self.interpreted(invocation, interpreter, rest, cwd, depth, stdin)
            return None
        self.invocations.append(invocation)
        if name == "env":
            self.env(rest, cwd, depth, stdin, open_tail)
        elif name in P.WRAPPERS:
            self.wrapper(name, P.WRAPPERS[name], rest, cwd, depth, stdin, open_tail)
        elif name in P.RUNNERS:
            inner = _after_runner(rest, P.RUNNERS[name])
            if inner:
                self.program(inner, cwd, depth, stdin, open_tail=open_tail)
        elif name in P.SHELLS:
            self.shell(name, rest, cwd, depth, stdin, open_tail)
        elif name in ("source", "."):
            if rest:
                self.script(rest[0], cwd, depth)
        elif name == "alias":
            self.alias(rest, cwd, depth)
        elif name == "find":
            self.find_exec(rest, cwd, depth)
        elif name == "tmux":
            self.tmux(rest, cwd, depth)
        elif name == "screen":
            self.screen(rest, cwd, depth)
        elif name in P.SCHEDULERS or name == P.CRONTAB:
            self.scheduled(name, rest, cwd, depth, stdin)
        elif name in P.CONTAINERS:
            self.in_container(rest, cwd, depth)
        elif expand(head.text, cwd) in self.files and "/" in head.text:
            self.script(head, cwd, depth)  # a script this line wrote, run by its path
        return _output(name, rest, stdin, self, cwd)

    def env(self, words: list[Word], cwd: str, depth: int, stdin, open_tail: bool) -> None:
        index = 0
        while index < len(words):
            text = words[index].text
            if text in ("-u", "--unset", "-C", "--chdir"):
                index += 2
            elif text in ("-S", "--split-string") or (text.startswith("-S") and len(text) > 2):
                # `env -S "lazaretto approve X"`: the string is a whole command line.
                value = words[index + 1] if text in ("-S", "--split-string") else Word(text[2:])
                tail = (
                    words[index + 2 :] if text in ("-S", "--split-string") else words[index + 1 :]
                )
                self.shell_line(
                    Word(
                        " ".join(w.text for w in [value, *tail]),
                        value.unknown or any(w.unknown for w in tail),
                    ),
                    cwd,
                    depth,
                )
                return
            elif text.startswith("-") or _ASSIGNMENT.match(text):
                index += 1
            else:
                break
        self.program(words[index:], cwd, depth, stdin, open_tail=open_tail)

    def shell_line(self, word: Word, cwd: str, depth: int, stdin: str | None = "") -> None:
        """A whole shell line given as one argument (`sh -c LINE`, `su -c LINE`, `eval LINE`)."""
        if word.dynamic:
            raise Unreadable(f"it runs a shell line built when it runs ({word.text[:80]})")
        self.line(word.text, cwd, depth + 1, stdin)

    def wrapper(
        self, name: str, spec: P.Wrapper, words: list[Word], cwd: str, depth: int, stdin, open_tail
    ) -> None:
        index, placeholder, joins = 0, None, spec.joins
        # Options before the command; for a wrapper whose operands are not a command, options anywhere.
        while index < len(words):
            text = words[index].text
            option, eq, value = text.partition("=")
            if text == "--":
                index += 1
                break
            if not text.startswith("-") or text == "-":
                if spec.runs_rest:
                    break
                index += 1
                continue
            given = Word(value, words[index].dynamic) if eq else _at(words, index + 1)
            if option in spec.line_options:
                if given is not None:
                    self.shell_line(given, cwd, depth, stdin)
                index += 1 if eq else 2
            elif option in spec.placeholders or (option[:2] == "-I" and "-I" in spec.placeholders):
                placeholder = text[2:] if option[:2] == "-I" and len(option) > 2 else "{}"
                if option in ("-I", "--replace") and not eq and given is not None:
                    placeholder = given.text
                    index += 1
                index += 1
            elif option in spec.valued and not eq:
                index += 2
            else:
                joins = joins or (name == "sudo" and option in ("-s", "-i", "--shell", "--login"))
                index += 1
        if not spec.runs_rest:
            return
        rest = words[index + spec.positionals :]
        if placeholder:
            rest = [Word(w.text, True) if placeholder in w.text else w for w in rest]
        if joins and rest:
            self.shell_line(
                Word(" ".join(w.text for w in rest), any(w.unknown for w in rest)),
                cwd,
                depth,
                stdin,
            )
        elif rest:
            self.program(rest, cwd, depth, stdin, open_tail=spec.open_tail or open_tail)

    def shell(self, name: str, words: list[Word], cwd: str, depth: int, stdin, open_tail) -> None:
        index = 0
        while index < len(words):
            text = words[index].text
            if text == "--":
                index += 1
                break
            if text in P.SHELL_VALUED_OPTIONS:
                index += 2
            elif text.startswith("-") and not text.startswith("--") and "c" in text[1:]:
                if index + 1 < len(words):
                    self.shell_line(words[index + 1], cwd, depth)
                return
            elif text.startswith(("-", "+")) and text != "-":
                index += 1
            else:
                break
        if index < len(words) and words[index].text not in ("-", "/dev/stdin"):
            self.script(words[index], cwd, depth)
        elif open_tail:
            raise Unreadable(f"{name} reads a script named by its input when it runs")
        else:
            self.stdin_code(name, stdin, cwd, depth)

    def stdin_code(self, consumer: str, stdin: str | None, cwd: str, depth: int) -> None:
        """A shell line read from standard input: a pipe, a here-document or a here-string."""
        if stdin is None:
            raise Unreadable(f"it pipes text the hook cannot read into {consumer}")
        if stdin.strip():
            self.line(stdin, cwd, depth + 1)

    def script(self, word: Word, cwd: str, depth: int) -> None:
        """A script file a shell runs: its lines are read and checked too."""
        if word.unknown:
            raise Unreadable(f"it runs a script named by `{word.text}`, only known when it runs")
        written = expand(word.text, cwd) in self.files
        text = self.file_text(word.text, cwd)
        if text is None:
            # Not there yet (written by this line, or by a program whose output is not known).
            raise Unreadable(f"it runs {word.text}, whose text the hook cannot read")
        if written:
            self.line(text, cwd, depth + 1)
            return
        # A script that was there before the command (`sh ./configure`, `source env.sh`) is the
        # project's, as it is when run by its path, which no hook reads: every command of it is
        # read, but one that cannot be does not refuse the line; it makes the run opaque (outbound,
        # destination unknown), and the commands after it are still read.
        self.projects.append(word.text)
        try:
            self.line(text, cwd, depth + 1)
        finally:
            self.projects.pop()

    def interpreted(
        self,
        invocation: Invocation,
        spec: P.Interpreter,
        words: list[Word],
        cwd: str,
        depth: int,
        stdin: str | None,
    ) -> None:
        """An interpreter: record it with the inline code it runs (given, piped in, or written on this line)."""
        name = invocation.program
        codes: list[Word] = []
        index = 0
        if spec.subcommand and words[:1] and words[0].text == spec.subcommand:
            codes = words[1:2]
            index = len(words)
        while index < len(words):
            text = words[index].text
            option, eq, value = text.partition("=")
            if text == "--":
                index += 1
                break
            if (option.lower() if spec.fold_case else option) in spec.opaque_options:
                raise Unreadable(f"{name} runs an encoded command the hook cannot read")
            if (option.lower() if spec.fold_case else option) in spec.code_options:
                given = Word(value, words[index].dynamic) if eq else _at(words, index + 1)
                if given is not None:
                    codes.append(given)
                index += 1 if eq else 2
                continue
            if text.startswith("-") and not text.startswith("--") and len(text) > 1:
                step = 1
                for position, flag in enumerate(text[1:], 1):
                    if flag not in spec.short_valued:
                        continue
                    attached = text[position + 1 :]
                    given = (
                        Word(attached, words[index].dynamic) if attached else _at(words, index + 1)
                    )
                    step = 1 if attached else 2
                    if f"-{flag}" in spec.code_options and given is not None:
                        codes.append(given)
                    elif flag == "m" and spec is P.INTERPRETERS["python"] and given is not None:
                        self.invocations.append(invocation)
                        module = _module_argv(given.text, words[index + step :])
                        self.program(module, cwd, depth, stdin)
                        return
                    break
                index += step
                continue
            if text.startswith("-") and text != "-":
                index += 1
                continue
            break
        operands = words[index:]
        if spec.code_first and not codes and operands:
            codes, operands = operands[:1], operands[1:]
        if not codes:
            if operands and operands[0].text != "-":
                script = operands[0]
                # `python $f` is common; `python $(which lazaretto) approve` is the verb in disguise.
                if script.unknown and any(
                    w.unknown or w.text.lower() in P.HUMAN_VERBS for w in operands[1:]
                ):
                    raise Unreadable(
                        f"{name} runs a script named by `{script.text}`, only known when it runs,"
                        " with arguments that may be a human-only verb"
                    )
                where = expand(script.text, cwd)
                if where in self.files:
                    text = self.files[where]
                    if text is None:
                        raise Unreadable(
                            f"{name} runs {script.text}, whose text the hook cannot read"
                        )
                    codes = [Word(text)]
            elif invocation.open_tail:
                raise Unreadable(f"{name} reads a program named by its input when it runs")
            else:
                if stdin is None:
                    raise Unreadable(f"it pipes text the hook cannot read into {name}")
                codes = [Word(stdin)] if stdin.strip() else []
        for code in codes:
            if code.dynamic:
                raise Unreadable(f"{name} runs code built when it runs ({code.text[:80]})")
        self.invocations.append(replace(invocation, code="\n".join(c.text for c in codes)))

    def alias(self, words: list[Word], cwd: str, depth: int) -> None:
        for word in words:
            name, eq, value = word.text.partition("=")
            if eq:
                if word.unknown:
                    raise Unreadable(f"it defines an alias built when it runs ({word.text[:80]})")
                self.aliases[name] = value
                self.line(value, cwd, depth + 1)

    def find_exec(self, words: list[Word], cwd: str, depth: int) -> None:
        index = 0
        while index < len(words):
            if words[index].text in P.FIND_EXEC:
                end = index + 1
                while end < len(words) and words[end].text not in (";", "+"):
                    end += 1
                segment = [
                    Word(w.text, True) if "{}" in w.text else w for w in words[index + 1 : end]
                ]
                self.program(segment, cwd, depth)
                index = end
            index += 1

    def tmux(self, words: list[Word], cwd: str, depth: int) -> None:
        command: list[Word] = []
        for word in [*words, Word(";")]:
            if word.text != ";":
                command.append(word)
                continue
            operands = _tmux_operands(command)
            if operands and operands[0].text in P.TMUX_TYPES:
                # Imported here: keystrokes raises this module's Unreadable.
                from .keystrokes import tmux_send_keys, typed_lines

                after = command[command.index(operands[0]) + 1 :]
                typed = typed_lines(tmux_send_keys([w.text for w in after]))
                self.shell_line(Word(typed, any(w.unknown for w in after)), cwd, depth)
            elif operands and operands[0].text in P.TMUX_RUNS:
                for w in operands[1:]:
                    self.shell_line(w, cwd, depth)
            elif command and command[0].text == "-c" and len(command) > 1:
                self.shell_line(command[1], cwd, depth)
            command = []

    def screen(self, words: list[Word], cwd: str, depth: int) -> None:
        texts = [w.text for w in words]
        if "-X" in texts:
            after = words[texts.index("-X") + 1 :]
            if after and after[0].text == "stuff":
                from .keystrokes import screen_stuff, typed_lines  # see `tmux`

                for w in after[1:]:
                    self.shell_line(Word(typed_lines(screen_stuff(w.text)), w.dynamic), cwd, depth)
            elif after:
                self.program(after[1:] if after[0].text == "exec" else after, cwd, depth)
            return
        index = 0
        while index < len(words) and words[index].text.startswith("-"):
            index += 2 if words[index].text in ("-S", "-c", "-e", "-p", "-t", "-h", "-T") else 1
        self.program(words[index:], cwd, depth)

    def scheduled(self, name: str, words: list[Word], cwd: str, depth: int, stdin) -> None:
        """at, batch and crontab: the commands they will run later are read now."""
        texts = [w.text for w in words]
        if name == P.CRONTAB:
            if any(t in ("-l", "-r", "-e") for t in texts):
                return
            files = [w for w in words if not w.text.startswith("-") or w.text == "-"]
            if files and files[-1].text != "-":
                if files[-1].unknown:
                    raise Unreadable(f"crontab reads a file named by `{files[-1].text}`")
                stdin = self.file_text(files[-1].text, cwd)
            if stdin is None:
                raise Unreadable("it schedules commands the hook cannot read")
            for entry in stdin.splitlines():
                fields = entry.split(None, 1 if entry.startswith("@") else 5)
                if (
                    fields
                    and not fields[0].startswith("#")
                    and len(fields) > (1 if entry.startswith("@") else 5)
                ):
                    self.line(fields[-1], cwd, depth + 1)
            return
        if "-f" in texts and texts.index("-f") + 1 < len(words):
            self.script(words[texts.index("-f") + 1], cwd, depth)
        else:
            self.stdin_code(name, stdin, cwd, depth)

    def in_container(self, words: list[Word], cwd: str, depth: int) -> None:
        """`docker run IMAGE sh -c ...`: the first word that names a known program starts the command."""
        for index, word in enumerate(words):
            name = program_name(word.text)
            if (
                name in P.SHELLS
                or name in P.NETWORK_PROGRAMS
                or name == "lazaretto"
                or P.interpreter(name)
            ):
                self.program(words[index:], cwd, depth)
                return


@dataclass
class _Redirections:
    stdin: str | None
    writes: list[str] = field(default_factory=list)
    reads: list[str] = field(default_factory=list)
    followers: list = field(default_factory=list)


def _named(node) -> Iterator:
    """A node's named children, one at a time: a line of a hundred thousand commands is not held
    as a hundred thousand node objects at once (the reader may stop at its budget well before)."""
    cursor = node.walk()
    if not cursor.goto_first_child():
        return
    while True:
        child = cursor.node
        if child is not None and child.is_named:
            yield child
        if not cursor.goto_next_sibling():
            return


def _flat(node) -> Iterable:
    """A node's named children, with a chain of `a && b || c` (which the grammar nests one `list`
    inside the next, leftmost deepest) read as one level, in order."""
    if node.type != "list":
        return _named(node)
    spine = []
    while node.type == "list":
        spine.append(node)
        children = node.named_children
        if not children:
            break
        node = children[0]
    found = [] if node.type == "list" else [node]
    for item in reversed(spine):
        found.extend(item.named_children[1:])
    return found


def _assigned(node) -> str:
    """The variable a `variable_assignment` node sets."""
    name = node.child_by_field_name("name")
    return _text(name) if name is not None else _text(node).partition("=")[0]


def _tmux_operands(words: list[Word]) -> list[Word]:
    """A tmux command's words without its options and their values: the command name, then operands."""
    operands, index = [], 0
    while index < len(words):
        text = words[index].text
        if text.startswith("-") and len(text) > 1:
            index += 2 if text in P.TMUX_VALUED else 1
        else:
            operands.append(words[index])
            index += 1
    return operands


def _escapes(text: str) -> str | None:
    """Backslash escapes (`\\n`, `\\x41`) decoded as `$'...'` and printf do; None if malformed."""
    try:
        return codecs.decode(text.encode("latin-1", "backslashreplace"), "unicode_escape")
    except UnicodeDecodeError:
        return None


def _at(words: list[Word], index: int) -> Word | None:
    return words[index] if index < len(words) else None


def _output(
    name: str, words: list[Word], stdin: str | None, reader: _Reader, cwd: str
) -> str | None:
    """What echo, printf and cat print, when their words are known (they feed `| sh`)."""
    if any(w.unknown for w in words):
        return None
    texts = [w.text for w in words]
    if name == "echo":
        while texts and re.fullmatch(r"-[neE]+", texts[0]):
            texts = texts[1:]
        printed = " ".join(texts) + "\n"
        # Whether escapes are decoded depends on the shell's echo (`-e`, sh's echo, xpg_echo):
        # both readings are what it may print, and each is read.
        decoded = _echo_escapes(printed)
        return printed if decoded == printed else printed + decoded
    if name == "printf" and texts:
        return _printf(texts[0], texts[1:])
    if name == "cat":
        files = [t for t in texts if not t.startswith("-") or t == "-"]
        if not files:
            return stdin
        parts = [stdin if t == "-" else reader.file_text(t, cwd) for t in files]
        if any(p is None for p in parts):
            return None
        # `cat a.sh a.sh ...` would build a text many times the files' size: past what the run
        # may still read, it is not built (unknown, so nothing may run it).
        if sum(map(len, parts)) > reader.run.shell_bytes:  # type: ignore[arg-type]
            return None
        return "".join(parts)  # type: ignore[arg-type]
    return None


def _disk_text(where: str) -> str | None:
    """A file's text on disk, read once per hook run (None: not there, not a regular file, or
    larger than MAX_SCRIPT_BYTES, past which it counts as unknown: refused only where it would
    run as code)."""
    data = environment.current().read(where, MAX_SCRIPT_BYTES)
    if data is None or len(data) > MAX_SCRIPT_BYTES:
        return None
    return data.decode("utf-8", "replace")


_ECHO_ESCAPE = re.compile(
    r"\\(0[0-7]{0,3}|[1-7][0-7]{0,2}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|.)", re.S
)
_ECHO_LETTERS = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n"}
_ECHO_LETTERS |= {"r": "\r", "t": "\t", "v": "\v", "\\": "\\"}


def _echo_escapes(text: str) -> str:
    """`text` as `echo -e`, sh's echo and `printf %b` print it: octal, `\\xHH`, `\\c` stops."""
    pieces = _ECHO_ESCAPE.split(text)
    out = [pieces[0]]
    for escape, following in zip(pieces[1::2], pieces[2::2], strict=True):
        if escape == "c":
            break
        if escape[0] == "0":  # bash and dash: `\\0NNN`
            out.append(chr(int(escape[1:] or "0", 8)))
        elif escape[0] in "1234567":  # dash and zsh also take `\\NNN`
            out.append(chr(int(escape, 8)))
        elif escape[0] in "xuU" and len(escape) > 1:
            out.append(chr(min(int(escape[1:], 16), 0x10FFFF)))
        else:
            out.append(_ECHO_LETTERS.get(escape, "\\" + escape))
        out.append(following)
    return "".join(out)


_CONVERSION = re.compile(r"%(.)")


def _printf(form: str, values: list[str]) -> str | None:
    """What `printf FORM VALUES...` prints: the format used again while values remain; None for a
    conversion this reader does not follow (widths, precisions, numbers in other bases)."""
    decoded = _escapes(form)
    if decoded is None:
        return None
    printed, remaining = [], list(values)
    while True:
        used = False
        position = 0
        for match in _CONVERSION.finditer(decoded):
            printed.append(decoded[position : match.start()])
            position = match.end()
            kind = match.group(1)
            if kind == "%":
                printed.append("%")
                continue
            if kind not in "sbcdiq":
                return None
            value = remaining.pop(0) if remaining else ""
            used = True
            if kind == "b":
                value = _echo_escapes(value)
            printed.append(value[:1] if kind == "c" else value)
        printed.append(decoded[position:])
        if not (used and remaining):
            return "".join(printed)


def _module_argv(module: str, tail: list[Word]) -> list[Word]:
    """`python -m lazaretto.app approve X` is `lazaretto approve X`; `-m lazaretto.app.commands.trust` too."""
    parts = module.split(".")
    if parts[0] == "lazaretto":
        command = [p for p in parts[1:] if p not in ("app", "cli", "commands", "__main__", "proxy")]
        return [Word("lazaretto"), *(Word(c) for c in command), *tail]
    return [Word(module), *tail]


def _after_runner(words: list[Word], subcommands: frozenset[str]) -> list[Word]:
    if "" in subcommands:
        return _after_options(words, P.RUNNER_VALUED)
    for index, word in enumerate(words):
        if word.text in subcommands:
            rest = words[index + 1 :]
            # `uv tool run X`: a second subcommand word before the program.
            while rest and (rest[0].text in subcommands or rest[0].text == "run"):
                rest = rest[1:]
            return _after_options(rest, P.RUNNER_VALUED)
        if not word.text.startswith("-"):
            return []
    return []


def _after_options(words: list[Word], with_value: frozenset[str]) -> list[Word]:
    index = 0
    while index < len(words) and words[index].text.startswith("-") and words[index].text != "-":
        if words[index].text == "--":
            index += 1
            break
        index += 2 if words[index].text in with_value else 1
    return words[index:]


def invocations(command: str, cwd: str) -> list[Invocation]:
    """Every program `command` runs (starting in `cwd`), wrappers, shells and interpreters unwrapped.

    Raises Unreadable when what the line runs cannot all be known, and OverBudget when reading it
    would take more work than a hook run may spend. A hook run reads each line once: its checks
    all ask for the same reading.
    """
    run = budget.current()
    found = run.remembered(("shell", command, cwd), lambda: _reading(run, command, cwd))
    if isinstance(found, Unreadable):
        raise found
    return list(found)


def _reading(run: Budget, command: str, cwd: str) -> tuple[Invocation, ...] | Unreadable:
    try:
        return _Reader(run=run).read(command, cwd)
    except Unreadable as exc:
        return exc
    except RecursionError:
        return Unreadable("it nests commands more deeply than the hook reads")
