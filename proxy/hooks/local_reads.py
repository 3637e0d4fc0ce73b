"""The shell while tainted: a line runs only if every program it runs is known to only read locally.

Listing the ways out of a machine cannot end (a wrapper the tables miss, a lookup from a language
one-liner, a git remote changed and then pulled), so a tainted session's shell is default deny:
each program the reader finds must be on the table of `programs.READS_LOCALLY` (or added by the
policy's `taint.read_only_programs`), a git verb that only reads, or a wrapper or shell that only
runs the other programs of the line. Anything else is refused with a token a person can approve.
"""

from collections.abc import Iterable

from . import environment
from . import programs as P
from .gitconfig import entries
from .shell import Invocation, expand

# Where output may be redirected without writing a file.
_DISCARDS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})


def first_not_local(found: Iterable[Invocation], extra: frozenset[str]) -> str | None:
    """Why one of the programs `found` is not known to only read locally (the first), or None.

    `extra`: the policy's additions, each a program (`sed`) or a program and its subcommand
    (`git stash`, `cargo tree`).
    """
    for invocation in found:
        reason = _not_local(invocation, extra)
        if reason:
            return reason
    return None


def _not_local(invocation: Invocation, extra: frozenset[str]) -> str | None:
    argv, name = invocation.argv, invocation.program
    shown = " ".join(argv[:2]) if argv else ""
    if invocation.opaque:
        return f"it runs {argv[0]}, a script the hook cannot read through"
    unsafe = [n for n in invocation.assigns if n not in P.HARMLESS_ASSIGNMENTS]
    if unsafe:
        return f"it sets {unsafe[0]}, which may change what a program loads or runs"
    written = [w for w in invocation.writes if expand(w, invocation.cwd) not in _DISCARDS]
    if written:
        return f"it writes {written[0]}"
    if not argv:
        return None
    if "/" in argv[0].replace("\\", "/"):
        return f"it runs {argv[0]}, a program named by its path rather than found on PATH"
    if invocation.code:
        return f"it runs {name} with inline code"
    if name == "git":
        return _git(invocation, extra)
    if name in extra or (len(argv) > 1 and f"{name} {argv[1]}" in extra):
        return None
    refused = P.READS_LOCALLY.get(name)
    if refused is None:
        refused = P.RUNS_ONLY_ITS_COMMAND.get(name)
        if refused is None:
            return f"it runs {name}, which is not known to only read locally"
        if name == "env" and any("=" in word and not word.startswith("-") for word in argv[1:]):
            return "it runs env with an assignment, which may change what a program loads"
    option = next((word for word in argv[1:] if _options(word) & refused), None)
    if option:
        return f"it runs {shown} with {option}, which writes or runs more than it reads"
    return None


def _options(word: str) -> set[str]:
    """What an option word may be: `--output=x` is `--output`; `-xic` is `-xic` (find's kind of
    option) and each of `-x`, `-i`, `-c` (a cluster, or `-ofile` with its value attached)."""
    if not word.startswith("-") or word == "-":
        return set()
    if word.startswith("--"):
        return {word.partition("=")[0]}
    return {word.partition("=")[0], *(f"-{letter}" for letter in word[1:])}


def _git(invocation: Invocation, extra: frozenset[str]) -> str | None:
    words, index = list(invocation.argv[1:]), 0
    while index < len(words) and words[index].startswith("-"):
        if _options(words[index]) & P.GIT_REFUSED_OPTIONS:
            return f"it runs git with {words[index]}, which changes what git runs"
        index += 2 if words[index] == "-C" else 1
    verb = words[index] if index < len(words) else ""
    if verb not in P.GIT_READS and not {"git", f"git {verb}"} & extra:
        return f"it runs git {verb or 'with no verb'}, which is not known to only read locally"
    option = next(
        (w for w in words[index + 1 :] if w.partition("=")[0] in P.GIT_READ_REFUSED_OPTIONS),
        None,
    )
    if option:
        return f"it runs git {verb} with {option}, which writes or runs more than it reads"
    return _git_config(invocation)


def _git_config(invocation: Invocation) -> str | None:
    """Why git's configuration, where it runs, makes a read run a program (or fetch), or None."""
    where, words = invocation.cwd, invocation.argv[1:]
    for index, word in enumerate(words[:-1]):
        if word == "-C":
            where = expand(words[index + 1], where)
    text = environment.current().git_config(where, P.GIT_RUNS_FROM_CONFIG)
    if text is None:
        return "git's configuration there cannot be read, to know what git would run"
    for key, value in entries(text):
        if value.strip() not in P.GIT_KNOWN_FILTERS:
            return f"git's configuration sets {key}, which makes git run a program or fetch"
    return None
