"""The server misbehaves: killed mid-call, silent, or babbling before it dies."""

import json
import signal

from support.faultkit import gone, server_of, text_of
from support.waiting import wait_for

INTERNAL_ERROR = -32603


def test_server_killed_mid_call_answers_the_pending_call_and_exits_with_its_code(start):
    proxy = start()
    server = server_of(proxy)
    proxy.send(
        {
            "jsonrpc": "2.0",
            "id": 41,
            "method": "tools/call",
            "params": {"name": "hang", "arguments": {}},
        }
    )
    # The echo is answered after the hang was read, so the server holds the hanging call now.
    assert "result" in proxy.call("prose", {"bytes": 10})
    server.send_signal(signal.SIGKILL)
    reply = proxy.recv()
    assert reply["id"] == 41 and reply["error"]["code"] == INTERNAL_ERROR
    assert reply["error"]["data"] == {"reason": "server_exited", "exit_code": 128 + signal.SIGKILL}
    assert proxy.recv_raw() is None  # nothing else, then the end of output
    assert proxy.close() == 128 + signal.SIGKILL


def test_a_server_that_never_answers_times_out_and_keeps_serving(start):
    proxy = start("request_timeout_seconds = 0.3")
    reply = proxy.call("hang")
    assert reply["error"]["code"] == INTERNAL_ERROR
    assert reply["error"]["data"] == {"reason": "timeout", "timeout_seconds": 0.3}
    assert "did not answer tools/call within 0.3 seconds" in reply["error"]["message"]
    assert text_of(proxy.call("prose", {"bytes": 12})) == "The build no"


def test_a_late_answer_after_the_timeout_is_dropped(start):
    proxy = start("request_timeout_seconds = 0.3")
    late = proxy.call("hang")
    assert late["error"]["data"]["reason"] == "timeout"
    # The server answers the hung call only now, before this one's answer: had the late answer
    # been relayed, it would be the next line instead of this call's answer.
    assert "result" in proxy.call("release")
    said = f"a late answer to request {late['id']}".encode()
    wait_for(lambda: said in proxy.stderr, "the late answer's log", proxy.stderr)
    assert text_of(proxy.call("prose", {"bytes": 3})) == "The"


def test_garbage_then_exit_answers_the_pending_call(start):
    proxy = start()
    reply = proxy.call("garbage_exit")
    assert reply["error"]["data"] == {"reason": "server_exited", "exit_code": 5}
    assert proxy.recv_raw() is None
    assert proxy.close() == 5
    assert b"could not be inspected" in proxy.stderr


def test_partial_line_then_exit_answers_the_pending_call(start):
    proxy = start()
    server = server_of(proxy)
    reply = proxy.call("partial")
    assert reply["error"]["code"] == INTERNAL_ERROR
    assert reply["error"]["data"]["reason"] in ("server_exited", "unreadable_reply")
    assert "Traceback" not in json.dumps(reply)
    assert proxy.close() == 7
    assert gone(server)
