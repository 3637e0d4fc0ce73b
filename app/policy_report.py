"""The policy as a person checks it: what is wrong with it and what is worth knowing, told alike
by `lazaretto policy check`, `doctor`, `status` and the review app."""

import os
from dataclasses import dataclass, field
from pathlib import Path

from lazaretto.proxy.pins.lockfile import LockError, server_lock
from lazaretto.proxy.policy import (
    Policy,
    PolicyError,
    Problem,
    dotted,
    is_json_policy,
    load_policy,
    policy_path,
)

CONSEQUENCE = (
    "until it is fixed, a proxy reading it does not start and the hooks refuse every tool call"
)


@dataclass(frozen=True)
class PolicyReport:
    """One policy file checked: its problems (any makes it unusable) and its notes."""

    path: Path
    exists: bool
    policy: Policy | None = None
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)

    @property
    def broken(self) -> bool:
        """Whether the proxies and hooks reading it cannot use it."""
        return bool(self.problems)

    def lines(self) -> list[str]:
        """`FILE, line N: ...` for each problem, then each note, as a compiler lists them."""
        return [_line(self.path, problem, "") for problem in self.problems] + [
            _line(self.path, note, "note: ") for note in self.notes
        ]

    def headline(self) -> str:
        """One line for a status display: what is wrong first, and where to read the rest."""
        if not self.broken:
            return (
                f"{self.path}: ok"
                if self.exists
                else f"{self.path}: none (every server is untrusted)"
            )
        first = _line(self.path, self.problems[0], "")
        more = len(self.problems) - 1
        rest = f" (and {more} more)" if more else ""
        return f"BROKEN, see `lazaretto policy check`: {first}{rest}"


def _line(path: Path, problem: Problem, kind: str) -> str:
    place = problem.place()
    return f"{path}{', ' + place if place else ''}: {kind}{problem.message}"


def check_policy(explicit: str | os.PathLike | None = None) -> PolicyReport:
    """Read the policy the proxies would read (or `explicit`), and judge it as they would, and
    then some: the pin lock files it names must be usable, and an entry that says nothing of
    trust is noted."""
    path, named = policy_path(explicit)
    if not path.exists() and not named:
        return PolicyReport(path, False, Policy(source=path))
    try:
        policy = load_policy(path)
    except PolicyError as exc:
        return PolicyReport(path, path.exists(), problems=exc.problems)
    problems, notes = _lock_problems(policy), _trust_notes(policy)
    if problems or notes:
        # Imported here: finding a key's line reads the text again, which only a finding needs.
        from lazaretto.proxy.policy_lines import placed

        text = path.read_text(encoding="utf-8")
        is_json = is_json_policy(text, path)
        problems, notes = placed(text, is_json, problems), placed(text, is_json, notes)
    return PolicyReport(path, True, policy, problems, notes)


def _lock_problems(policy: Policy) -> list[Problem]:
    """A lock file the proxy could not use stops that server's proxy from starting."""
    found = []
    for name, entry in policy.servers.items():
        if entry.lock is None:
            continue
        try:
            server_lock(entry.lock, name)
        except LockError as exc:
            found.append(
                Problem(
                    ("servers", name, "lock"),
                    f"the pin lock file cannot be used ({exc}): point `{dotted(('servers', name, 'lock'))}`"
                    " at a lock file `lazaretto pin export` wrote, or remove it",
                )
            )
    return found


def _trust_notes(policy: Policy) -> list[Problem]:
    """An entry that sets neither `trust` nor `untrusted` (one that only lists outbound tools)
    leaves its server untrusted: every result of it taints, which is seldom what was meant."""
    return [
        Problem(
            ("servers", name),
            f"`{dotted(('servers', name))}` sets neither `trust` nor `untrusted`, so every result"
            f' of {name} taints the session: add `trust = "trusted"` if all it returns is yours,'
            ' or `trust = "untrusted"` to say so',
        )
        for name, entry in policy.servers.items()
        if entry.trust is None and not entry.untrusted
    ]
