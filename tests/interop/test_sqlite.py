"""mcp-server-sqlite (PyPI, on MCP SDK 1 in a virtualenv of its own) behind the proxy.

Trusted, querying, writing and the insights memo answer the same through the proxy as directly
(each server on its own copy of one database; no answer names its path). Untrusted, a query
taints the session, and `write_query` is refused until a person approves it; then the same call
answers as the server does directly, and the row is in the database.
"""

import sqlite3

import pytest
from support.interop import Interop, Pair, installed, refusal_token, trusted_pair
from support.interop_servers import SQLITE

pytestmark = installed(SQLITE.executable)

SELECT = {"query": "SELECT name, price FROM products ORDER BY id"}
INSERT = {"query": "INSERT INTO products (name, price) VALUES ('jug', 12.0)"}


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    with trusted_pair(tmp_path_factory.mktemp("sqlite"), SQLITE, shared=False) as both:
        yield both


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("list_tables", {}),
        ("describe_table", {"table_name": "products"}),
        ("read_query", {"query": "SELECT name FROM products WHERE price < 20 ORDER BY name"}),
        ("read_query", {"query": "DELETE FROM products"}),  # the server refuses: an error result
    ],
    ids=["list_tables", "describe_table", "read_query", "read_query-refused"],
)
def test_trusted_a_read_answers_the_same(pair: Pair, tool, arguments):
    pair.call(tool, arguments)


def test_trusted_writes_answer_the_same(pair: Pair):
    pair.call("create_table", {"query": "CREATE TABLE IF NOT EXISTS orders (id INTEGER)"})
    pair.call("write_query", {"query": "INSERT INTO orders (id) VALUES (7)"})
    count = pair.call("read_query", {"query": "SELECT count(*) AS n FROM orders"})
    assert count["result"]["isError"] is False


def test_trusted_the_memo_and_its_prompt_read_the_same(pair: Pair):
    pair.call("append_insight", {"insight": "Mugs sell best under ten."})
    memo = pair.same(lambda session: session.read_resource("memo://insights"))
    assert "Mugs sell best under ten." in memo["result"]["contents"][0]["text"]
    pair.same(lambda session: session.get_prompt("mcp-demo", {"topic": "a tea shop"}))


@pytest.mark.slow
def test_untrusted_a_query_taints_and_an_approved_write_is_made(tmp_path):
    box = Interop(tmp_path, "sqlite")
    with box.direct(SQLITE.launch(tmp_path / "direct")) as direct:
        expected = direct.call("write_query", INSERT)
    with box.proxied(SQLITE.launch(tmp_path / "data"), "untrusted") as agent:
        read = agent.call("read_query", SELECT)
        assert read["result"]["content"][0]["text"] == (
            "[{'name': 'kettle', 'price': 24.5}, {'name': 'teapot', 'price': 18.0},"
            " {'name': 'mug', 'price': 6.25}]"
        )
        assert [(event["method"], event["tool"]) for event in box.taint()] == [
            ("tools/call", "read_query")
        ]
        token = refusal_token(agent.call("write_query", INSERT))
        assert jugs(tmp_path / "data" / "shop.db") == []
        box.approve(token)
        assert agent.call("write_query", INSERT) == expected
    assert jugs(tmp_path / "data" / "shop.db") == [("jug", 12.0)]


def test_untrusted_its_prompt_reads_whole_and_taints(tmp_path, pair: Pair):
    # A prompt a person picks tells the model what to do: it is judged as text for the model.
    box = Interop(tmp_path, "sqlite")
    expected = pair.direct.get_prompt("mcp-demo", {"topic": "a tea shop"})
    with box.proxied(SQLITE.launch(tmp_path / "data"), "untrusted") as agent:
        assert agent.get_prompt("mcp-demo", {"topic": "a tea shop"}) == expected
        assert [(event["method"], event["tool"]) for event in box.taint()] == [
            ("prompts/get", "mcp-demo")
        ]


def jugs(database) -> list[tuple]:
    """The rows INSERT writes, read from the database file itself."""
    db = sqlite3.connect(database)
    try:
        return db.execute("SELECT name, price FROM products WHERE name = 'jug'").fetchall()
    finally:
        db.close()
