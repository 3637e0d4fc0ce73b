"""How each server's tools were classified (outbound? untrusted?) and why, for reviewers."""

from typing import TYPE_CHECKING, Any

from .canonical import canonical_json

if TYPE_CHECKING:
    from .store import Store


class ToolClassifications:
    """The proxy's verdict per (server, tool), replaced whenever it is seen again."""

    def __init__(self, store: "Store") -> None:
        self._store = store

    def record_many(self, server: str, verdicts: list[dict[str, Any]]) -> None:
        """Store verdicts: dicts with name, outbound, outbound_reason, untrusted, untrusted_reason, annotations."""
        now = self._store.now()
        rows = [
            (
                server,
                v["name"],
                int(v["outbound"]),
                v["outbound_reason"],
                int(v["untrusted"]),
                v["untrusted_reason"],
                canonical_json(v.get("annotations")) if v.get("annotations") is not None else None,
                now,
            )
            for v in verdicts
        ]
        with self._store.write() as conn:
            conn.executemany(
                "INSERT INTO tools (server, name, outbound, outbound_reason, untrusted, untrusted_reason,"
                " annotations, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(server, name) DO UPDATE SET outbound = excluded.outbound,"
                " outbound_reason = excluded.outbound_reason, untrusted = excluded.untrusted,"
                " untrusted_reason = excluded.untrusted_reason, annotations = excluded.annotations,"
                " updated_at = excluded.updated_at",
                rows,
            )

    def get(self, server: str, name: str) -> dict | None:
        """The last verdict for one tool, if any."""
        rows = self._store.query(
            "SELECT * FROM tools WHERE server = ? AND name = ?", (server, name)
        )
        return rows[0] if rows else None
