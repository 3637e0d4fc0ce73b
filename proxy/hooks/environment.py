"""What a hook reads from the user's side: environment variables, the working directory, files.

In process (embedded mode) that is this process's own. When the station answers a hook, it runs
under another account: it has the hook's environment and working directory from the request, and
asks the hook itself for what only the user's account can see (a script's bytes, a path's real
form), so a check reads exactly what it would have read in the hook.
"""

import os
import pwd
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .files import read_regular

if TYPE_CHECKING:
    from lazaretto.proxy.session import SessionInfo
    from lazaretto.store.opening import StoreAPI

_VARIABLE = re.compile(r"\$(\w+|\{[^}]*\})", re.ASCII)


class HookEnvironment:
    """The user's side as one hook run sees it."""

    def __init__(self, environ: Mapping[str, str], cwd: str) -> None:
        self.environ = environ
        self.cwd = cwd

    def get(self, name: str) -> str | None:
        """One environment variable."""
        return self.environ.get(name)

    def expand(self, word: str) -> str:
        """`~`, `~user` and `$VARS` expanded as the shell's environment would (unknown ones kept)."""
        return self._expand_vars(self._expand_user(word))

    def _expand_user(self, word: str) -> str:
        if not word.startswith("~"):
            return word
        slash = word.find("/")
        name = word[1:] if slash < 0 else word[1:slash]
        rest = "" if slash < 0 else word[slash:]
        if name:
            try:
                home = pwd.getpwnam(name).pw_dir
            except KeyError:
                return word
        else:
            home = self.environ.get("HOME") or self.home()
            if not home:
                return word
        return (home.rstrip("/") + rest) or "/"

    def home(self) -> str | None:
        """The user's home directory when HOME is not set."""
        return None

    def _expand_vars(self, word: str) -> str:
        if "$" not in word:
            return word

        def value(match: re.Match) -> str:
            name = match.group(1)
            if name.startswith("{"):
                name = name[1:-1]
            found = self.environ.get(name)
            return match.group(0) if found is None else found

        return _VARIABLE.sub(value, word)

    def realpath(self, path: str) -> str:
        """The absolute path with symlinks resolved as far as they exist."""
        return os.path.realpath(path)

    def read(self, path: str, limit: int) -> bytes | None:
        """Up to `limit` + 1 bytes of a regular file, or None when it is not one or cannot be read."""
        return read_regular(path, limit)

    def git_config(self, where: str, pattern: str) -> str | None:
        """git's reading of the configuration entries matching `pattern` that a git run in
        `where` sees (see `gitconfig`), or None when git could not read them. Raises OverBudget
        when the hook run's time is up first."""
        from .budget import OverBudget, current
        from .gitconfig import GitConfigTimeout, git_config

        try:
            return git_config(where, pattern, current().seconds_left())
        except GitConfigTimeout as exc:
            raise OverBudget(str(exc)) from exc

    def config_dir(self) -> Path:
        """The user's Lazaretto config directory (where the default policy lives)."""
        from platformdirs import user_config_path

        return user_config_path("lazaretto", appauthor=False)

    def open_store(self) -> tuple["StoreAPI", bool]:
        """The store this hook uses, and whether the hook closes it when done."""
        from lazaretto.store.opening import Side, open_store

        return open_store(side=Side.AGENT), True

    def session(self) -> "SessionInfo":
        """The agent session this hook belongs to."""
        from lazaretto.proxy.session import discover_session

        return discover_session()

    def parent_pid(self) -> int | None:
        """The hook process's parent (None: this process's own), where the agent client is found."""
        return None


class ClientEnvironment(HookEnvironment):
    """A hook run inside the station on behalf of a hook process of the user (see the module doc)."""

    def __init__(
        self,
        environ: Mapping[str, str],
        cwd: str,
        *,
        ask: Callable[[dict], Any],
        store: "StoreAPI",
        parent_pid: int | None,
        uid: int,
    ) -> None:
        super().__init__(environ, cwd)
        self._ask = ask
        self._store = store
        self._parent_pid = parent_pid
        self._uid = uid

    def home(self) -> str | None:
        try:
            return pwd.getpwuid(self._uid).pw_dir
        except KeyError:
            return None

    def realpath(self, path: str) -> str:
        answer = self._ask({"realpath": path})
        return answer if isinstance(answer, str) else os.path.normpath(path)

    def read(self, path: str, limit: int) -> bytes | None:
        answer = self._ask({"read": path, "limit": limit})
        if not isinstance(answer, str):
            return None
        return answer.encode("latin-1")

    def git_config(self, where: str, pattern: str) -> str | None:
        # git must run as the user: as the station's account it would not read the user's files.
        answer = self._ask({"git_config": where, "pattern": pattern})
        return answer if isinstance(answer, str) else None

    def config_dir(self) -> Path:
        # platformdirs reads this process's environment; the hook's is the one that counts.
        if sys.platform == "darwin":
            return Path(self.expand("~/Library/Application Support")) / "lazaretto"
        base = (self.environ.get("XDG_CONFIG_HOME") or "").strip() or self.expand("~/.config")
        return Path(base) / "lazaretto"

    def open_store(self) -> tuple["StoreAPI", bool]:
        return self._store, False

    def session(self) -> "SessionInfo":
        from lazaretto.proxy.session import discover_session

        return discover_session(self.environ, self._parent_pid)

    def parent_pid(self) -> int | None:
        return self._parent_pid


_CURRENT: ContextVar[HookEnvironment | None] = ContextVar("hook_environment", default=None)


def current() -> HookEnvironment:
    """The environment of the hook run in progress (this process's own outside the station)."""
    found = _CURRENT.get()
    return HookEnvironment(os.environ, os.getcwd()) if found is None else found


@contextmanager
def using(environment: HookEnvironment) -> Iterator[HookEnvironment]:
    """Run a hook with `environment` as the user's side."""
    token = _CURRENT.set(environment)
    try:
        yield environment
    finally:
        _CURRENT.reset(token)
