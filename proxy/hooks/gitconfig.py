"""A repository's git configuration as git itself reads it (includes, worktrees, every scope).

Git's configuration decides where a push goes and which programs git runs; it lives in files the
agent's account can write, so it is read afresh by `git config` in the user's account each time
(through the hook when a station answers). Light on purpose: the thin hook runs it when asked.
"""

import subprocess


class GitConfigTimeout(RuntimeError):
    """git did not finish reading its configuration in the time it was given."""


def git_config(where: str, pattern: str, timeout: float) -> str | None:
    """`git -C where config --get-regexp pattern`'s `key value` lines ("" when none match), or None
    when git could not read the configuration. Raises GitConfigTimeout past `timeout` seconds."""
    if timeout <= 0:
        raise GitConfigTimeout("no time was left to read git's configuration")
    try:
        done = subprocess.run(
            ["git", "-C", where, "config", "--null", "--get-regexp", pattern],
            capture_output=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        raise GitConfigTimeout(
            f"git took more than {timeout:.1f} s to read its configuration"
        ) from exc
    except OSError:
        return None
    if done.returncode not in (0, 1):  # 1: nothing matched
        return None
    return done.stdout.decode("utf-8", "replace")


def entries(text: str) -> list[tuple[str, str]]:
    """`--null` output as (key, value) pairs: each entry is `key\\nvalue\\0`."""
    found = []
    for item in text.split("\0"):
        if item:
            key, _, value = item.partition("\n")
            found.append((key, value))
    return found
