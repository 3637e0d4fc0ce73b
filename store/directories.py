"""Directories the agent cloned, untrusted until a person trusts them (`lazaretto trust DIR`)."""

import os
from typing import TYPE_CHECKING

from .states import Action, Actor, DirectoryStatus

if TYPE_CHECKING:
    from .store import Store


def ancestors(path: str) -> list[str]:
    """`path` and every directory above it, deepest first (paths are absolute and normalized)."""
    chain = [path]
    while True:
        parent = os.path.dirname(chain[-1])
        if parent == chain[-1]:
            return chain
        chain.append(parent)


class Directories:
    """Marks cloned directories untrusted; only a person's `trust` lifts that."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def mark_untrusted(self, path: str, *, session: str | None, reason: str) -> None:
        """Record a clone into `path`; a clone into a trusted path makes it untrusted again."""
        with self._store.write() as conn:
            conn.execute(
                "INSERT INTO directories (path, status, session, reason, created_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT(path) DO UPDATE SET status = excluded.status, session = excluded.session,"
                " reason = excluded.reason, created_at = excluded.created_at, decided_at = NULL, note = NULL",
                (path, DirectoryStatus.UNTRUSTED, session, reason, self._store.now()),
            )
            self._store.audit.append(
                conn,
                Actor.HOOK,
                Action.MARK_UNTRUSTED,
                session=session,
                subject=path,
                reason=reason,
            )

    def untrusted_for(self, path: str) -> dict | None:
        """The untrusted directory `path` lies in, or None; the deepest record decides."""
        chain = ancestors(path)
        marks = ",".join("?" * len(chain))
        rows = self._store.query(
            f"SELECT * FROM directories WHERE path IN ({marks}) ORDER BY length(path) DESC LIMIT 1",
            chain,
        )
        return rows[0] if rows and rows[0]["status"] == DirectoryStatus.UNTRUSTED else None

    def trust(self, path: str, *, note: str | None = None) -> bool:
        """A person trusts an untrusted directory; False if it was not untrusted (nothing changes)."""
        with self._store.write() as conn:
            changed = conn.execute(
                "UPDATE directories SET status = ?, decided_at = ?, note = ? WHERE path = ?"
                " AND status = ?",
                (DirectoryStatus.TRUSTED, self._store.now(), note, path, DirectoryStatus.UNTRUSTED),
            ).rowcount
            if changed:
                self._store.audit.append(
                    conn,
                    Actor.HUMAN,
                    Action.TRUST,
                    subject=path,
                    reason="a person trusted a cloned directory",
                    detail={"note": note},
                )
            return bool(changed)

    def untrusted(self) -> list[dict]:
        """Every directory still untrusted, newest first."""
        return self._store.query(
            "SELECT * FROM directories WHERE status = ? ORDER BY created_at DESC",
            (DirectoryStatus.UNTRUSTED,),
        )
