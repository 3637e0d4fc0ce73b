"""The agent's own tools, read for the two questions the gate asks: does it reach out, does it read outside text."""

import re
from dataclasses import dataclass

from ..classify import OUTBOUND_WORDS
from . import environment
from . import programs as P
from .gitconfig import entries
from .shell import Invocation, Unreadable, expand, invocations

# `git clone` options that take a separate value (so the value is not read as the repository).
_CLONE_VALUED = frozenset(
    """-b --branch -o --origin -c --config --depth --reference --reference-if-able -u --upload-pack
    --separate-git-dir --template -j --jobs --filter --shallow-since --shallow-exclude --server-option
    --bundle-uri --ref-format""".split()
)


@dataclass(frozen=True)
class Egress:
    """One program of a command line that reaches another machine.

    `destinations`: the words that name where it goes (for the host check); `unknown`: why that
    cannot be read, if it cannot; `outbound`: whether data can leave through it (a `git fetch` of a
    configured remote only reads); `prints`: whether its output is what the other machine sent.
    """

    program: str  # what reaches out: `curl`, `git pull`, `/dev/tcp/host/80`, `inline code`
    reason: str
    destinations: tuple[str, ...] = ()
    unknown: str | None = None
    outbound: bool = True
    prints: bool = True


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


def _unknown(invocation: Invocation, start: int = 1) -> str | None:
    # Expansions only: a glob in a URL (`?q=1` unquoted) does not change where it goes.
    dynamic = [invocation.argv[i] for i in sorted(invocation.expanded) if i >= start]
    if dynamic:
        return f"`{dynamic[0]}` is only known when it runs"
    return "its input adds arguments when it runs" if invocation.open_tail else None


def egress(invocation: Invocation) -> Egress | None:
    """Whether (and how) one program reaches the network, by the tables in `programs.py`."""
    name = invocation.program
    args = tuple(invocation.argv[1:])
    verbs = _verbs(invocation)
    if invocation.opaque:
        return Egress(
            invocation.argv[0],
            f"it runs {invocation.argv[0]}, a script the hook cannot read through",
            unknown=invocation.opaque,
            prints=False,
        )
    for path in (*invocation.writes, *invocation.reads):
        match = P.NETWORK_PATH.match(path)
        if match:
            return Egress(path, f"it opens {path}, a network connection", (match.group(1),))
    if name in P.NETWORK_PROGRAMS or (
        name == "rsync" and any(P.REMOTE_OPERAND.match(word) for word in verbs)
    ):
        return Egress(
            name, f"it runs {name}, which reaches the network", args, _unknown(invocation)
        )
    if name in P.DNS_TOOLS or (name == "getent" and verbs[:1] and verbs[0] in P.GETENT_RESOLVES):
        return Egress(
            name,
            f"it runs {name}, which looks names up (the name travels to its domain's server)",
            args,
            _unknown(invocation),
        )
    subcommands = P.NETWORK_SUBCOMMANDS.get(name)
    if subcommands is not None and ("" in subcommands or (verbs and verbs[0] in subcommands)):
        what = f"{name} {verbs[0]}" if verbs and "" not in subcommands else name
        return Egress(
            what, f"it runs {what}, which reaches the network", args, _unknown(invocation)
        )
    if name == "git":
        return _git_egress(invocation)
    if name == "gh":
        writes = verbs and (
            verbs[0] == "api"
            or (len(verbs) > 1 and verbs[1] not in P.GH_READS)
            or any(v in OUTBOUND_WORDS for v in verbs[:2])
        )
        return Egress(
            "gh",
            f"it runs gh {' '.join(verbs[:2])}, which can write to GitHub",
            ("github.com",),
            outbound=bool(writes),
        )
    if name in P.PACKAGE_MANAGERS:
        specs = [word for word in args if P.PACKAGE_SPEC.search(word)]
        if name == "go" and verbs[:1] and verbs[0] in P.GO_FETCHES:
            specs += [word for word in verbs[1:] if P.GO_MODULE.match(word)]
        unknown = _unknown(invocation)
        if specs or unknown:
            return Egress(
                name,
                f"it runs {name} with a URL or repository to fetch from (data can ride in it)",
                tuple(specs),
                unknown,
            )
    if invocation.code and P.NETWORK_CODE.search(invocation.code):
        return Egress(
            "inline code that reaches the network",
            "it runs inline code that can reach the network",
            (invocation.code,),
        )
    return None


def _configured_remotes(where: str) -> tuple[str, ...]:
    """The URLs of the repository's remotes: where a `git push` that names none goes."""
    text = environment.current().git_config(where, r"^remote\..*\.(push)?url$")
    return tuple(value for _, value in entries(text or ""))


def _git_egress(invocation: Invocation) -> Egress | None:
    where, words = _git_args(invocation)
    if not words:
        return None
    verb = words[0]
    urls = tuple(word for word in words[1:] if P.PACKAGE_SPEC.search(word))
    unknown = _unknown(invocation)
    if verb in P.GIT_SENDS:
        return Egress(
            f"git {verb}",
            f"it runs git {verb}, which sends data to a remote",
            urls or _configured_remotes(where),
            unknown,
            prints=False,
        )
    if verb in P.GIT_FETCHES:
        if urls or unknown:
            return Egress(
                f"git {verb}", f"it runs git {verb} with a URL (data can ride in it)", urls, unknown
            )
        return Egress(
            f"git {verb}", f"it runs git {verb}, which fetches from a remote", outbound=False
        )
    if verb in ("log", "show") and any("/" in w and not w.startswith("-") for w in words[1:]):
        # Commits someone else wrote are printed only when a remote ref is named.
        return Egress(f"git {verb}", f"it runs git {verb} of a remote ref", outbound=False)
    return None


def egresses(command: str, cwd: str) -> list[Egress]:
    """Every program of the command that reaches the network. Raises Unreadable like `invocations`."""
    return [found for found in map(egress, invocations(command, cwd)) if found]


def outbound_reason(command: str, cwd: str) -> str | None:
    """Why this shell command counts as outbound (it can carry data off the machine), or None."""
    try:
        found = [e for e in egresses(command, cwd) if e.outbound]
    except Unreadable as exc:
        return f"it cannot be checked ({exc})"
    return found[0].reason if found else None


def reads_network(command: str, cwd: str) -> str | None:
    """Why this command prints what another machine sent, or None."""
    try:
        found = [e for e in egresses(command, cwd) if e.prints]
    except Unreadable:
        return "an unreadable command line"
    return found[0].program if found else None


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
