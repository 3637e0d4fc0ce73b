"""Withheld fields and stripped hidden content: everything the agent was kept from reading."""

import json
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .canonical import canonical_json
from .states import Action, Actor, FieldStatus, ReleasedAs
from .tokens import ALPHABET, random_chars

if TYPE_CHECKING:
    from .store import Store


def new_quarantine_id() -> str:
    """`Q-` and six random characters, e.g. `Q-7F3K9M`: short enough to type, 30 bits."""
    return "Q-" + random_chars(6)


def normalize_quarantine_id(text: str) -> str:
    """Accept `q-7f3k9m`, `Q7F3K9M` and `7F3K9M` for `Q-7F3K9M`."""
    raw = text.strip().upper()
    if raw.startswith("Q-"):
        raw = raw[2:]
    elif len(raw) == 7 and raw.startswith("Q"):
        raw = raw[1:]  # only the prefix: the random part may itself start with Q
    return "Q-" + raw if len(raw) == 6 and all(ch in ALPHABET for ch in raw) else text.strip()


_JSON_COLUMNS = ("signals", "decoded", "removed")


class Quarantine:
    """The withheld originals (nothing is lost) and a log of every removal, withheld or not."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def withhold(
        self,
        *,
        session: str,
        server: str,
        tool: str | None,
        method: str,
        request_id: str | None,
        path: str,
        content_hash: str,
        fingerprint: str | None,
        payload_fingerprints: Sequence[tuple[int, int | None, str | None]],
        original: str,
        cleaned: str,
        score: float,
        signals: list[dict],
        decoded: list[dict],
        removed: list[dict],
        stripped: list[dict[str, Any]] | None = None,
    ) -> str:
        """Store a withheld field and return its id; audited as a proxy decision.

        `stripped` are its removals as `record_stripped` takes them, logged in the same
        transaction with this field's id (one write where a station serves the store).
        """
        for _ in range(8):
            qid = new_quarantine_id()
            try:
                with self._store.write() as conn:
                    conn.execute(
                        "INSERT INTO quarantine (id, session, server, tool, method, request_id, path,"
                        " content_hash, fingerprint, original, cleaned, score, signals, decoded, removed,"
                        " status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            qid,
                            session,
                            server,
                            tool,
                            method,
                            request_id,
                            path,
                            content_hash,
                            fingerprint,
                            original,
                            cleaned,
                            score,
                            canonical_json(signals),
                            canonical_json(decoded),
                            canonical_json(removed),
                            FieldStatus.WITHHELD,
                            self._store.now(),
                        ),
                    )
                    conn.executemany(
                        "INSERT INTO fingerprints (fingerprint, anchor, word, quarantine_id)"
                        " VALUES (?, ?, ?, ?)",
                        [(fp, anchor, word, qid) for fp, anchor, word in payload_fingerprints],
                    )
                    if stripped:
                        self._insert_stripped(
                            conn, [{**row, "quarantine_id": qid} for row in stripped]
                        )
                    names = ", ".join(sorted({s["name"] for s in signals})) or "hidden content"
                    self._store.audit.append(
                        conn,
                        Actor.PROXY,
                        Action.WITHHOLD,
                        session=session,
                        subject=qid,
                        reason=f"{server}/{tool or method}: {names}",
                        detail={"score": score, "path": path},
                    )
                return qid
            except sqlite3.IntegrityError:  # pragma: no cover - a 30-bit id collided
                continue
        raise RuntimeError("could not allocate a unique quarantine id")

    def record_stripped(self, rows: list[dict[str, Any]]) -> None:
        """Log removals (session, server, tool, method, request_id, path, kind, count, decoded, quarantine_id)."""
        if not rows:
            return
        with self._store.write() as conn:
            self._insert_stripped(conn, rows)

    def _insert_stripped(self, conn: sqlite3.Connection, rows: list[dict[str, Any]]) -> None:
        now = self._store.now()
        conn.executemany(
            "INSERT INTO stripped (session, server, tool, method, request_id, path, kind, count, decoded,"
            " quarantine_id, created_at) VALUES (:session, :server, :tool, :method, :request_id, :path,"
            " :kind, :count, :decoded, :quarantine_id, :created_at)",
            [{"quarantine_id": None, "decoded": None, **row, "created_at": now} for row in rows],
        )

    def waiting(self) -> int:
        """How many withheld fields no person has released or dismissed yet."""
        return self._store.query(
            "SELECT count(*) AS n FROM quarantine WHERE status = ? AND reviewed_at IS NULL",
            (FieldStatus.WITHHELD,),
        )[0]["n"]

    def get(self, qid: str) -> dict | None:
        """One withheld field with its JSON columns decoded."""
        rows = self._store.query(
            "SELECT * FROM quarantine WHERE id = ?", (normalize_quarantine_id(qid),)
        )
        return _decode(rows[0]) if rows else None

    def earlier(self, content_hash: str, server: str, tool: str | None) -> dict | None:
        """The newest earlier quarantine row for this exact content from this server and tool:
        its id, status and, once released, what was released (`released_as`)."""
        rows = self._store.query(
            "SELECT id, status, released_as FROM quarantine WHERE content_hash = ? AND server = ?"
            " AND tool IS ? ORDER BY created_at DESC LIMIT 1",
            (content_hash, server, tool),
        )
        return _statuses(rows[0]) if rows else None

    def fingerprints_since(
        self, rowid: int, unlocked: bool = True
    ) -> list[tuple[int, int, int | None, str | None]]:
        """(rowid, fingerprint, anchor, anchor word) added after `rowid`, for an incremental
        in-memory index. The anchor word is a word of withheld content: without `unlocked` (a
        station's client that did not give the reviewer passphrase) it is None, as in rows stored
        before words were kept."""
        rows = self._store.query(
            "SELECT rowid, fingerprint, anchor, word FROM fingerprints WHERE rowid > ? ORDER BY rowid",
            (rowid,),
        )
        return [
            (row["rowid"], row["fingerprint"], row["anchor"], row["word"] if unlocked else None)
            for row in rows
        ]

    def withheld_by_fingerprint(self, fingerprints: list[int]) -> dict | None:
        """A still-withheld field whose payload fingerprints include one of these (re-entry)."""
        if not fingerprints:
            return None
        marks = ",".join("?" for _ in fingerprints)
        rows = self._store.query(
            f"SELECT q.id, q.server, q.tool FROM fingerprints f JOIN quarantine q ON q.id = f.quarantine_id"
            f" WHERE f.fingerprint IN ({marks}) AND q.status = ? LIMIT 1",
            (*fingerprints, FieldStatus.WITHHELD),
        )
        return rows[0] if rows else None

    def recent(
        self, *, limit: int = 100, before: str | None = None, status: FieldStatus | None = None
    ) -> list[dict]:
        """Newest first, paged by `created_at` (pass the last row's created_at as `before`)."""
        clauses, params = [], []
        if status:
            clauses.append("status = ?")
            params.append(status)
        if before:
            clauses.append("created_at < ?")
            params.append(before)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        rows = self._store.query(
            f"SELECT * FROM quarantine {where} ORDER BY created_at DESC, id LIMIT ?",
            (*params, limit),
        )
        return [_decode(row) for row in rows]

    def stripped_for(
        self, *, request_id: str | None = None, quarantine_id: str | None = None
    ) -> list[dict]:
        """Removals logged for one request or one withheld field."""
        if quarantine_id:
            return self._store.query(
                "SELECT * FROM stripped WHERE quarantine_id = ? ORDER BY id", (quarantine_id,)
            )
        return self._store.query(
            "SELECT * FROM stripped WHERE request_id IS ? ORDER BY id", (request_id,)
        )


def _statuses(row: dict) -> dict:
    row["status"] = FieldStatus(row["status"])
    if row["released_as"] is not None:
        row["released_as"] = ReleasedAs(row["released_as"])
    return row


def _decode(row: dict) -> dict:
    _statuses(row)
    for column in _JSON_COLUMNS:
        row[column] = json.loads(row[column]) if row[column] else []
    return row
