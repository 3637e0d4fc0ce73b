"""The server misbehaves: killed mid-call, silent, or babbling before it dies."""

import json
import signal
import time

from support.faultkit import gone, server_of, text_of

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
    late = proxy.call("slow", {"seconds": 0.6})
    assert late["error"]["data"]["reason"] == "timeout"
    deadline = time.monotonic() + 20
    said = f"a late answer to request {late['id']}".encode()
    while said not in proxy.stderr:
        assert time.monotonic() < deadline, proxy.stderr
        time.sleep(0.02)
    # Had the late answer been relayed, it would be the next line instead of this call's answer.
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
