"""What the agent may never do itself: run a human-only verb, open the store, or disarm the hooks.

Each check returns the reason to refuse with, or None. Commands are read through `shell.invocations`,
so `sh -c`, `env`, `python -m`, runners and substitutions do not hide a verb; a line too tangled to
read is refused.
"""

import os
import re
from collections.abc import Iterable, Iterator

from lazaretto.store import default_store_path, resolve_store_path

from ..policy import POLICY_ENV, POLICY_FILE
from . import budget, environment
from .budget import OverBudget
from .programs import (
    CLIENT_VERBS,
    COPIES_FILES,
    DISARMING_VERBS,
    HUMAN_PIN_VERBS,
    HUMAN_VERBS,
    PRINTS_ITS_ARGUMENTS,
)
from .shell import Invocation, Unreadable, expand, invocations, program_name

# A whole `lazaretto VERB` command line written inside one argument of another program (`git -c
# alias.x='!lazaretto approve'`, `vim -c '!lazaretto show Q-1'`): whatever runs that argument, it is
# refused. Programs that only print or search their arguments are the exception.
_VERB_IN_TEXT = re.compile(
    r"(?:^|[\s;&|`(!'\"=])(?:\S*/)?lazaretto(?:\.exe)?\s+(?:-\S+\s+)*"
    r"(?:"
    + "|".join(sorted(HUMAN_VERBS | DISARMING_VERBS | CLIENT_VERBS))
    + r"|pin\s+(?:accept|reject))\b",
    re.IGNORECASE,
)

_TAIL = r"(?:settings[^/]*|hooks(?:/.*)?)"
# Client settings, hook files and MCP configs, as a path (anchored) or anywhere in code (not).
_CONFIG_PARTS = (
    r"\.claude/" + _TAIL,
    r"\.claude\.json",
    r"\.mcp\.json",
    r"claude_desktop_config\.json",
    r"managed-settings\.json",
    r"\.codex/(?:hooks[^/]*|config\.toml|rules(?:/.*)?|requirements\.toml)",
    r"\.cursor/(?:hooks[^/]*(?:/.*)?|mcp\.json)",
    r"lazaretto\.toml",
)
_CONFIG_PATH = re.compile(
    r"(?:^|/)(?:" + "|".join(_CONFIG_PARTS) + r")$"
    # The directories themselves (`rm -rf .claude`) and globs inside them (`.claude/*`).
    r"|(?:^|/)\.(?:claude|codex|cursor)/?$|(?:^|/)\.(?:claude|codex|cursor)/[^/]*[*?\[]"
)
_CONFIG_IN_CODE = re.compile("|".join(_CONFIG_PARTS))
_DISABLE = re.compile(r"disableAllHooks|codex_hooks", re.IGNORECASE)

# Programs that only read the files they name; anything else near a settings file could change it.
_READ_ONLY = frozenset(
    """cat less more head tail grep egrep fgrep rg ag ls stat file wc diff cmp jq bat md5sum sha1sum
    sha256sum shasum realpath readlink test [ echo printf tree du basename dirname""".split()
)
_READ_ONLY_GIT = frozenset({"status", "diff", "log", "show", "blame"})
_SHELL_LIKE = frozenset("sh bash dash zsh ksh mksh ash fish tcsh csh busybox eval env".split())
_PATH_KEYS = (
    "file_path",
    "path",
    "notebook_path",
    "target_file",
    "filePath",
    "file",
    "directory",
    "dir",
)


def _config_roots() -> list[str]:
    """Extra settings files named by the environment: the policy, the Codex and Claude config homes."""
    return budget.current().remembered("config roots", _find_config_roots)


def _find_config_roots() -> list[str]:
    env = environment.current()
    roots = [str(env.config_dir() / POLICY_FILE)]
    if env.get(POLICY_ENV):
        roots.append(expand(env.get(POLICY_ENV) or "", env.cwd))
    codex = env.get("CODEX_HOME")
    if codex:
        roots += [
            os.path.join(expand(codex, env.cwd), name)
            for name in ("hooks.json", "config.toml", "rules")
        ]
    claude = env.get("CLAUDE_CONFIG_DIR")
    if claude:
        roots += [
            os.path.join(expand(claude, env.cwd), name)
            for name in ("settings.json", "settings.local.json")
        ]
    return roots


def is_config_path(path: str) -> bool:
    """A client's settings, hooks or MCP config, or Lazaretto's policy (the path absolute or not)."""
    normal = path.replace("\\", "/")
    if _CONFIG_PATH.search(normal):
        return True
    return any(
        normal == root or normal.startswith(root.rstrip("/") + "/") for root in _config_roots()
    )


def _store_names() -> tuple[str, str | None]:
    """The store file, and its folder when that folder is Lazaretto's own (the default location)."""
    return budget.current().remembered("store names", _find_store_names)


def _find_store_names() -> tuple[str, str | None]:
    store = resolve_store_path()
    folder = str(store.parent) if store == default_store_path() else None
    return str(store), folder


def is_store_path(path: str) -> bool:
    """The store file, its journal files, a file of the same name, or Lazaretto's state folder."""
    store, folder = _store_names()
    if (
        path == store
        or path.startswith(store + "-")
        or os.path.basename(path).startswith(os.path.basename(store))
    ):
        return True
    return folder is not None and (path == folder or path.startswith(folder + os.sep))


def _mentions_store(text: str) -> bool:
    store, folder = _store_names()
    return os.path.basename(store) in text or (folder is not None and folder in text)


def disables_hooks(text: str) -> bool:
    """Whether text names a setting that switches a client's hooks off."""
    return bool(_DISABLE.search(text))


def _words(invocation: Invocation) -> Iterator[str]:
    """Each argument as written and, for `--opt=value`, its value."""
    for word in invocation.argv[1:]:
        yield word
        if word.startswith("-") and "=" in word:
            yield word.split("=", 1)[1]


def _read_only(invocation: Invocation) -> bool:
    if invocation.writes or invocation.code:
        return False
    if invocation.program == "git":
        verbs = [word for word in invocation.argv[1:] if not word.startswith("-")]
        return bool(verbs) and verbs[0] in _READ_ONLY_GIT
    return invocation.program in _READ_ONLY


def _lazaretto_verb(invocation: Invocation) -> str | None:
    """Why the `lazaretto` anywhere in argv (also after `find -exec`) runs a human-only or disarming
    verb, or may: a verb known only when it runs counts as one."""
    argv = invocation.argv
    for index, word in enumerate(argv):
        if program_name(word) != "lazaretto":
            continue
        operands = [i for i in range(index + 1, len(argv)) if not argv[i].startswith("-")]
        for position, i in enumerate(operands):
            if i in invocation.dynamic:
                return f"it runs lazaretto with a verb only known when it runs (`{argv[i]}`)"
            verb = argv[i].lower()
            if verb in HUMAN_VERBS:
                return f"`lazaretto {verb}` is for a person at a terminal, not for the agent"
            if verb == "pin" and any(
                argv[j].lower() in HUMAN_PIN_VERBS for j in operands[position + 1 :]
            ):
                return (
                    "`lazaretto pin accept|reject` is for a person at a terminal, not for the agent"
                )
            if verb in DISARMING_VERBS:
                return f"`lazaretto {verb}` would take Lazaretto out of the client's configuration"
            if verb in CLIENT_VERBS:
                return (
                    f"`lazaretto {verb}` is started by the agent client from its MCP configuration,"
                    " not by the agent"
                )
        if not operands and invocation.open_tail:
            return "it runs lazaretto with a verb its input supplies when it runs"
    return None


def check_command(command: str, cwd: str) -> str | None:
    """Why the agent may not run this shell command, or None."""
    if _DISABLE.search(command):
        return "it would switch the client's hooks off"
    try:
        found = invocations(command, cwd)
    except (Unreadable, OverBudget) as exc:
        return f"it cannot be checked ({exc})"
    for invocation in found:
        reason = _check_invocation(invocation)
        if reason:
            return reason
    # Last, as the widest net: a verb written inside an argument that some program may run.
    for invocation in found:
        if invocation.program not in PRINTS_ITS_ARGUMENTS:
            for word in invocation.argv[1:]:
                if _VERB_IN_TEXT.search(word):
                    return "one of its arguments holds a `lazaretto` human-only command line"
    return None


def _check_invocation(invocation: Invocation) -> str | None:
    reason = _lazaretto_verb(invocation)
    if reason:
        return reason
    if invocation.program in COPIES_FILES and any(
        "lazaretto" in word.lower() for word in invocation.argv[1:]
    ):
        return "it copies or links the lazaretto executable, to be run under another name"
    if invocation.code:
        if "lazaretto" in invocation.code.lower():
            return "it runs inline code that uses Lazaretto"
        if _mentions_store(invocation.code):
            return "it runs inline code that names the quarantine store"
        if _CONFIG_IN_CODE.search(invocation.code.replace("\\", "/")):
            return "it runs inline code that names a client settings or hook file"
    for target in invocation.writes:
        path = expand(target, invocation.cwd)
        if is_store_path(path):
            return "it writes to the quarantine store"
        if is_config_path(path):
            return f"it writes to {target}, a client settings or hook file"
    if invocation.program in _SHELL_LIKE:
        return None  # their command strings were read as invocations of their own
    read_only = _read_only(invocation)
    for word in _words(invocation):
        path = expand(word, invocation.cwd)
        if is_store_path(path):
            return "it opens the quarantine store, which only Lazaretto and the person may read"
        if not read_only and (is_config_path(path) or is_config_path(word)):
            return f"it may change {word}, a client settings or hook file"
    return None


def check_paths(paths: Iterable[str], cwd: str, *, writing: bool) -> str | None:
    """Why a file tool may not touch these paths (reading the store, or writing settings), or None."""
    for raw in paths:
        path = expand(raw, cwd)
        if is_store_path(path):
            return "it opens the quarantine store, which only Lazaretto and the person may read"
        if writing and is_config_path(path):
            return f"it would change {raw}, a client settings or hook file"
    return None


def tool_input_paths(tool_input: object) -> list[str]:
    """The path-like arguments of a file tool (`file_path`, `path`, ...)."""
    if not isinstance(tool_input, dict):
        return []
    return [tool_input[key] for key in _PATH_KEYS if isinstance(tool_input.get(key), str)]


def check_tool_input(tool_input: object, cwd: str, *, writing: bool) -> str | None:
    """Why a file tool call may not run: its paths, or content that switches hooks off."""
    reason = check_paths(tool_input_paths(tool_input), cwd, writing=writing)
    if reason:
        return reason
    if writing and isinstance(tool_input, dict):
        for value in tool_input.values():
            if isinstance(value, str) and _DISABLE.search(value):
                return "it would switch the client's hooks off"
    return None


def refusal_text(reason: str) -> str:
    """The sentence the agent reads when a command is refused."""
    return (
        f"lazaretto refused this: {reason}. Only the user, at their own terminal, may do that; "
        "tell the user what you wanted to do and why."
    )
