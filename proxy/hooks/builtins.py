"""The agent's own tools, read for the two questions the gate asks: does it reach out, does it read outside text."""

import re

from ..classify import OUTBOUND_WORDS
from . import environment
from .shell import Invocation, Unreadable, expand, invocations

# Programs whose whole purpose is talking to another machine: outbound when tainted, exposure when they print.
NETWORK_PROGRAMS = frozenset(
    """curl wget nc ncat netcat ssh scp sftp rsync socat telnet ftp http https xh aria2c httpie
    dig nslookup host""".split()
)
# git subcommands that send the repository somewhere, and those that fetch from a remote.
_GIT_SENDS = frozenset({"push", "send-email", "request-pull"})
_GIT_FETCHES = frozenset({"clone", "fetch", "pull", "ls-remote", "submodule"})
# gh subcommands that only read (anything else may write to GitHub).
_GH_READS = frozenset(
    {"view", "list", "status", "diff", "checks", "clone", "checkout", "search", "browse"}
)
_CODE_REACHES_OUT = re.compile(
    r"https?://|socket|urllib|requests|httpx|aiohttp|fetch\(|XMLHttpRequest|net\.", re.I
)
# `git clone` options that take a separate value (so the value is not read as the repository).
_CLONE_VALUED = frozenset(
    """-b --branch -o --origin -c --config --depth --reference --reference-if-able -u --upload-pack
    --separate-git-dir --template -j --jobs --filter --shallow-since --shallow-exclude --server-option
    --bundle-uri --ref-format""".split()
)


def _verbs(invocation: Invocation) -> list[str]:
    return [word for word in invocation.argv[1:] if not word.startswith("-")]


def _git_args(invocation: Invocation) -> tuple[str, list[str]]:
    """(the directory git runs in, its words after global options such as `-C DIR`)."""
    cwd, words, index = invocation.cwd, list(invocation.argv[1:]), 0
    while index < len(words) and words[index].startswith("-"):
        if words[index] == "-C" and index + 1 < len(words):
            cwd = expand(words[index + 1], cwd)
            index += 2
        elif words[index] in ("-c", "--git-dir", "--work-tree", "--namespace") and index + 1 < len(
            words
        ):
            index += 2
        else:
            index += 1
    return cwd, words[index:]


def outbound_reason(command: str, cwd: str) -> str | None:
    """Why this shell command counts as outbound (it can carry data off the machine), or None."""
    try:
        found = invocations(command, cwd)
    except Unreadable as exc:
        return f"it cannot be checked ({exc})"
    for invocation in found:
        name = invocation.program
        if name in NETWORK_PROGRAMS:
            return f"it runs {name}, which reaches the network"
        if name == "git":
            _, words = _git_args(invocation)
            if words and words[0] in _GIT_SENDS:
                return f"it runs git {words[0]}, which sends data to a remote"
        if name == "gh":
            verbs = _verbs(invocation)
            if verbs and (
                verbs[0] == "api"
                or (len(verbs) > 1 and verbs[1] not in _GH_READS)
                or any(v in OUTBOUND_WORDS for v in verbs[:2])
            ):
                return f"it runs gh {' '.join(verbs[:2])}, which can write to GitHub"
        if invocation.code and _CODE_REACHES_OUT.search(invocation.code):
            return "it runs inline code that can reach the network"
    return None


def reads_network(command: str, cwd: str) -> str | None:
    """Which program of this command prints what another machine sent, or None."""
    try:
        found = invocations(command, cwd)
    except Unreadable:
        return "an unreadable command line"
    for invocation in found:
        name = invocation.program
        if name in NETWORK_PROGRAMS or name == "gh":
            return name
        if name == "git":
            _, words = _git_args(invocation)
            if words and words[0] in _GIT_FETCHES | {"log", "show"} and _fetched_or_cloned(words):
                return f"git {words[0]}"
        if invocation.code and _CODE_REACHES_OUT.search(invocation.code):
            return "inline code that reaches the network"
    return None


def _fetched_or_cloned(words: list[str]) -> bool:
    # `git log` / `git show` print commits someone else wrote only when a remote ref is named.
    return words[0] in _GIT_FETCHES or any(
        "/" in word and not word.startswith("-") for word in words[1:]
    )


def command_paths(command: str, cwd: str) -> list[str]:
    """Every directory the command runs in and every argument read as a path (absolute)."""
    try:
        found = invocations(command, cwd)
    except Unreadable:
        return [cwd]
    paths = [cwd]
    for invocation in found:
        paths.append(invocation.cwd)
        paths.extend(
            expand(word, invocation.cwd) for word in invocation.argv[1:] if not word.startswith("-")
        )
    return list(dict.fromkeys(paths))


def clone_targets(command: str, cwd: str) -> list[str]:
    """The directories `git clone` and `gh repo clone` in this command create (absolute)."""
    try:
        found = invocations(command, cwd)
    except Unreadable:
        return []
    targets = []
    for invocation in found:
        if invocation.program == "git":
            where, words = _git_args(invocation)
            if words and words[0] == "clone":
                target = _clone_dir(words[1:], where)
                if target:
                    targets.append(target)
        elif invocation.program == "gh":
            words = list(invocation.argv[1:])
            if words[:2] == ["repo", "clone"] and len(words) > 2:
                positional = [w for w in words[2:] if not w.startswith("-")]
                if "--" in words:
                    positional = [w for w in words[2 : words.index("--")] if not w.startswith("-")]
                if positional:
                    name = positional[1] if len(positional) > 1 else _repo_basename(positional[0])
                    targets.append(expand(name, invocation.cwd))
    return targets


def _clone_dir(words: list[str], cwd: str) -> str | None:
    positional, index = [], 0
    while index < len(words):
        word = words[index]
        if word == "--":
            positional.extend(words[index + 1 :])
            break
        if word in _CLONE_VALUED:
            index += 2
            continue
        if not word.startswith("-"):
            positional.append(word)
        index += 1
    if not positional:
        return None
    name = positional[1] if len(positional) > 1 else _repo_basename(positional[0])
    return expand(name, cwd) if name else None


def _repo_basename(repository: str) -> str:
    """`https://host/o/r.git` -> `r`, `host:o/r` -> `r`, `o/r` -> `r` (git's own default)."""
    tail = repository.rstrip("/").replace("\\", "/")
    tail = re.split(r"[/:]", tail)[-1]
    tail = tail.removesuffix(".git")
    return tail or "repository"


def real(path: str) -> str:
    """The absolute path with symlinks resolved as far as they exist (clones are compared this way)."""
    return environment.current().realpath(path)
