"""Bad input from either side: the proxy answers clearly, fails closed, and keeps serving."""

import json

import pytest
from support.proxy_harness import SCRIPTED_SERVER

PARSE_ERROR, INTERNAL_ERROR = -32700, -32603


@pytest.fixture
def scripted(start_proxy, tmp_path, proxy_env):
    """A proxy around the misbehaving server, already initialized."""

    def start(policy: str = '[servers.scripted]\ntrust = "untrusted"\n', **env_overrides):
        path = tmp_path / "scripted.toml"
        path.write_text(policy)
        proxy = start_proxy(
            ["-n", "scripted", "--", *SCRIPTED_SERVER],
            env={**proxy_env, "LAZARETTO_POLICY": str(path), **env_overrides},
        )
        proxy.initialize()
        proxy.request("tools/list")
        return proxy

    return start


def assert_still_serving(proxy) -> None:
    assert json.loads(proxy.call("echo", {"still": "here"})["result"]["content"][0]["text"]) == {
        "still": "here"
    }


def test_malformed_json_from_the_client_gets_a_parse_error(scripted):
    proxy = scripted()
    proxy.send_raw(b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": \n')
    reply = proxy.recv()
    assert reply["error"]["code"] == PARSE_ERROR and reply["id"] is None
    assert "not valid JSON" in reply["error"]["message"]
    assert_still_serving(proxy)


def test_malformed_json_from_the_server_is_dropped_not_forwarded(scripted):
    proxy = scripted()
    reply = proxy.call("garbage", {"x": 1})
    # recv() parses every line, so a relayed garbage line would have failed here.
    assert json.loads(reply["result"]["content"][0]["text"]) == {"x": 1}
    assert_still_serving(proxy)
    proxy.close()
    assert b"could not be inspected" in proxy.stderr


def test_invalid_utf8_from_the_client_is_refused(scripted):
    proxy = scripted()
    proxy.send_raw(
        b'{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo\xff"}}\n'
    )
    reply = proxy.recv()
    assert reply["error"]["code"] == PARSE_ERROR and "UTF-8" in reply["error"]["message"]
    assert_still_serving(proxy)


def test_invalid_utf8_from_the_server_is_withheld(scripted):
    proxy = scripted()
    reply = proxy.call("bad_utf8")
    assert reply["error"]["code"] == INTERNAL_ERROR
    assert reply["error"]["data"]["reason"] == "unreadable_reply"
    assert "UTF-8" in reply["error"]["message"]
    assert_still_serving(proxy)


def test_deep_nesting_from_the_client_is_refused(scripted):
    proxy = scripted()
    deep = b"[" * 10000 + b"]" * 10000
    proxy.send_raw(
        b'{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "echo", "arguments": {"a": '
        + deep
        + b"}}}\n"
    )
    reply = proxy.recv()
    assert reply["error"]["code"] == PARSE_ERROR and "deeply" in reply["error"]["message"]
    assert_still_serving(proxy)


def test_deep_nesting_from_the_server_is_withheld(scripted):
    proxy = scripted()
    reply = proxy.call("deep")
    assert reply["error"]["data"]["reason"] == "unreadable_reply"
    assert_still_serving(proxy)


@pytest.mark.slow
def test_a_50_mb_line_is_relayed_and_scanned(scripted):
    proxy = scripted()
    reply = proxy.request(
        "tools/call", {"name": "big", "arguments": {"bytes": 50_000_000}}, timeout=120
    )
    assert len(reply["result"]["content"][0]["text"]) == 50_000_000
    assert_still_serving(proxy)


def test_lines_over_the_limit_are_refused_in_both_directions(scripted):
    proxy = scripted('[servers.scripted]\ntrust = "untrusted"\n[proxy]\nmax_line_bytes = 100000\n')
    proxy.send_raw(
        b'{"jsonrpc": "2.0", "id": 77, "method": "tools/call", "params": {"name": "echo", "arguments": {"a": "'
        + b"y" * 200_000
        + b'"}}}\n'
    )
    reply = proxy.recv()
    assert reply["id"] == 77 and reply["error"]["code"] == PARSE_ERROR
    assert "exceeds" in reply["error"]["message"]
    reply = proxy.call("big", {"bytes": 200_000})
    assert reply["error"]["data"]["reason"] == "oversized_reply"
    assert_still_serving(proxy)


def test_server_dying_mid_call_answers_pending_requests_and_exits_with_its_code(scripted):
    proxy = scripted()
    reply = proxy.call("crash")
    assert reply["error"]["code"] == INTERNAL_ERROR
    assert reply["error"]["data"] == {"reason": "server_exited", "exit_code": 3}
    assert proxy.close() == 3


def test_partial_line_then_exit(scripted):
    proxy = scripted()
    reply = proxy.call("partial")
    assert reply["error"]["data"]["reason"] in ("server_exited", "unreadable_reply")
    assert proxy.close() == 7


def test_server_stderr_is_passed_through(scripted):
    proxy = scripted()
    proxy.call("stderr")
    proxy.close()
    assert b"scripted: a log line on stderr" in proxy.stderr


@pytest.mark.parametrize("where", ["under-a-file", "proc"])
def test_unwritable_store_fails_closed_and_keeps_serving(scripted, tmp_path, where):
    if where == "under-a-file":
        (tmp_path / "not-a-dir").write_text("")
        store = tmp_path / "not-a-dir" / "store.db"
    else:
        store = "/proc/lazaretto-test/store.db"
    proxy = scripted(
        '[servers.scripted]\ntrust = "untrusted"\noutbound = ["echo"]\n', LAZARETTO_STORE=str(store)
    )
    # The tools cannot be pinned nor judged, so their list is withheld, and no call can be
    # checked against a pin: a read is refused like a write, each saying why.
    listed = proxy.request("tools/list")["error"]
    assert listed["data"]["reason"] == "withheld" and "store cannot be written" in listed["message"]
    for tool in ("big", "echo", "big"):  # still serving: the second read fails the same way
        refused = proxy.call(tool, {"bytes": 10})
        assert refused["error"]["code"] == -32002, refused
        assert refused["error"]["data"] == {
            "reason": "store_unavailable",
            "token": None,
            "server": "scripted",
            "tool": tool,
        }
        assert "the store cannot be read" in refused["error"]["message"]
