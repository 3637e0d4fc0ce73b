"""The station's service account: a system user with no login shell (useradd, or dscl on macOS)."""

import os
import pwd
import subprocess
import sys
from pathlib import Path


class AccountError(RuntimeError):
    """The account could not be made or removed."""


def uid_of(name: str) -> int | None:
    """The account's uid, or None when there is no such account."""
    try:
        return pwd.getpwnam(name).pw_uid
    except KeyError:
        return None


def _no_login_shell() -> str:
    for shell in ("/usr/sbin/nologin", "/sbin/nologin", "/usr/bin/false", "/bin/false"):
        if os.path.exists(shell):
            return shell
    return "/bin/false"


def create(name: str, home: Path) -> int:
    """Make the account (reusing one that exists) and return its uid."""
    existing = uid_of(name)
    if existing is not None:
        return existing
    if sys.platform == "darwin":
        _create_macos(name, home)
    else:
        _run(
            [
                "useradd",
                "--system",
                "--user-group",
                "--no-create-home",
                "--home-dir",
                str(home),
                "--shell",
                _no_login_shell(),
                name,
            ]
        )
    uid = uid_of(name)
    if uid is None:
        raise AccountError(f"the account {name} was not created")
    return uid


def delete(name: str) -> None:
    """Remove the account (nothing to do when it does not exist)."""
    if uid_of(name) is None:
        return
    if sys.platform == "darwin":
        _run(["dscl", ".", "-delete", f"/Users/{name}"])
        _run(["dscl", ".", "-delete", f"/Groups/{name}"], check=False)
    else:
        _run(["userdel", name])


def _create_macos(name: str, home: Path) -> None:
    # System accounts on macOS take ids below 500; pick the first free one above 300.
    taken = {entry.pw_uid for entry in pwd.getpwall()}
    uid = next(number for number in range(300, 500) if number not in taken)
    for record in (
        ["/Groups/" + name, "PrimaryGroupID", str(uid)],
        ["/Users/" + name, "UniqueID", str(uid)],
        ["/Users/" + name, "PrimaryGroupID", str(uid)],
        ["/Users/" + name, "UserShell", "/usr/bin/false"],
        ["/Users/" + name, "NFSHomeDirectory", str(home)],
        ["/Users/" + name, "IsHidden", "1"],
    ):
        _run(["dscl", ".", "-create", *record])


def _run(argv: list[str], *, check: bool = True) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise AccountError(f"{' '.join(argv)} failed: {done.stderr.strip() or done.returncode}")
