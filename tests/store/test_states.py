"""Statuses and kinds are enums whose values are the strings stores have always held."""

import sqlite3

import pytest

from lazaretto.store import Store
from lazaretto.store.blocked import arguments_hash
from lazaretto.store.states import (
    Action,
    Actor,
    CallStatus,
    DirectoryStatus,
    DriftChange,
    DriftStatus,
    FieldStatus,
    PinKind,
)
from lazaretto.store.tokens import hash_token, token_hint

# What stores written before the enums hold: these strings are on disk and must read unchanged.
LEGACY = {
    FieldStatus: {"withheld", "released"},
    # "lapsed" is never stored (computed on read, like "expired"): an older store reads the same.
    CallStatus: {"pending", "approved", "used", "expired", "lapsed"},
    DriftStatus: {"pending", "accepted", "rejected"},
    DriftChange: {"new", "changed", "removed"},
    PinKind: {"tool", "prompt", "resource_template", "instructions"},
    DirectoryStatus: {"untrusted", "trusted"},
    # "station": the station's own refusals, in stores it has kept.
    Actor: {"proxy", "hook", "human", "idle-expiry", "station"},
}


@pytest.mark.parametrize("enum", list(LEGACY), ids=lambda enum: enum.__name__)
def test_values_are_the_strings_older_stores_hold(enum):
    assert {member.value for member in enum} == LEGACY[enum]


def write_like_an_older_version(path):
    """Rows as the store wrote them before it had enums: plain SQL with string literals."""
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "INSERT INTO quarantine (id, session, server, tool, method, path, content_hash, original,"
            " cleaned, score, signals, decoded, removed, status, created_at) VALUES ('Q-AAAAAA', 's',"
            " 'web', 'fetch', 'tools/call', 'content[0].text', 'h', 'x', 'x', 0.9, '[]', '[]', '[]',"
            " 'withheld', '2026-11-30T09:00:00.000Z')"
        )
        conn.execute(
            "INSERT INTO blocked_calls (session, server, tool, arguments, args_hash, reason_code, reason,"
            " token_hash, token_hint, status, created_at, expires_at) VALUES ('s', 'chat', 'post',"
            " '{}', ?, 'tainted_outbound', 'r', ?, ?, 'pending', '2026-11-30T09:00:00.000Z',"
            " '2999-01-01T00:00:00.000Z')",
            (arguments_hash({}), hash_token("K7QF-2M9X"), token_hint("K7QF-2M9X")),
        )
        conn.execute(
            "INSERT INTO pin_drift (server, command, kind, name, change, new_canonical, new_sha256,"
            " status, created_at) VALUES ('chat', '[]', 'tool', 'post', 'new', '{}', 'aa', 'pending',"
            " '2026-11-30T09:00:00.000Z')"
        )
        conn.execute(
            "INSERT INTO directories (path, status, created_at) VALUES ('/src/x', 'untrusted',"
            " '2026-11-30T09:00:00.000Z')"
        )
    conn.close()


def test_a_store_written_with_plain_strings_reads_as_enums_and_takes_decisions(store_path):
    schema = Store(store_path)
    schema.query("SELECT 1")  # opening creates the schema
    schema.close()
    write_like_an_older_version(store_path)
    store = Store(store_path)
    field = store.quarantine.get("Q-AAAAAA")
    assert field is not None and field["status"] is FieldStatus.WITHHELD
    [call] = store.blocked.pending()
    assert call["status"] is CallStatus.PENDING
    [drift] = store.pins.pending()
    assert drift["status"] is DriftStatus.PENDING and drift["change"] is DriftChange.NEW
    directory = store.directories.untrusted_for("/src/x/main.py")
    assert directory is not None and directory["status"] == DirectoryStatus.UNTRUSTED

    assert store.decisions.release("Q-AAAAAA")["status"] is FieldStatus.RELEASED
    assert store.decisions.approve(call["id"])["status"] is CallStatus.APPROVED
    assert store.decisions.accept_drift(drift["id"])["status"] is DriftStatus.ACCEPTED
    assert store.directories.trust("/src/x")
    store.close()

    # What went to disk is still the plain strings an older version reads.
    conn = sqlite3.connect(store_path)
    assert conn.execute("SELECT status FROM quarantine").fetchone() == ("released",)
    assert conn.execute("SELECT status FROM blocked_calls").fetchone() == ("approved",)
    assert conn.execute("SELECT status FROM pin_drift").fetchone() == ("accepted",)
    assert conn.execute("SELECT status FROM directories").fetchone() == ("trusted",)
    actions = {row[0] for row in conn.execute("SELECT action FROM audit")}
    assert actions == {"release", "approve", "accept-drift", "trust"}
    assert actions <= {action.value for action in Action}
    conn.close()


def test_expiry_is_read_as_a_status_never_written(store):
    token = store.blocked.record(
        session="s",
        server="chat",
        tool="post",
        arguments={},
        reason_code="tainted_outbound",
        reason="r",
        ttl_minutes=-1,
    )
    row = store.blocked.by_token(token)
    assert row is not None and row["status"] is CallStatus.EXPIRED
    assert store.query("SELECT status FROM blocked_calls") == [{"status": "pending"}]
