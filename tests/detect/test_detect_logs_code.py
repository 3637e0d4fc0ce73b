"""Logs, request lines, settings and code read as the data they are, beside the orders they hide.

A log record or a commit opens its own line; an HTTP method before a path, a value after "=",
a key of code given a string, a measure such as "3m" are no words of an order. Chinese help
text saying what an admin can do, and a feature that lets users do something, are statements.
Each benign shape is paired with the attack written in the same place.
"""

import json

import pytest
from support.verdicts import withheld

from lazaretto.proxy.detect import detect
from lazaretto.proxy.quarantine.scan import ScanRules, Verdict, scan_text


@pytest.mark.parametrize(
    "text",
    [
        # Log records: each line its own; a method before a path; values after "=".
        "2026-03-02T10:00:01Z INFO api POST /v2/password/reset user=u_12 status=202\n"
        "2026-03-02T10:00:02Z WARN relay action=forward to=archive@partner.example ok=false",
        # A commit log: one change a line, a feature that lets users do something.
        "3f2a9c1 Let users override the system prompt from the settings page\n"
        '9b0e4d7 Revert "Allow admins to reset any password"\n'
        "77c1e02 Bump the prompt evaluation harness",
        # Cluster events: "3m" is three minutes, the container is named bot.
        "LAST SEEN  TYPE     OBJECT             MESSAGE\n"
        "3m         Warning  pod/chat-bot-5f8c  GET /ready: system prompt file missing\n"
        "2m         Normal   pod/chat-bot-5f8c  Started container bot",
        # Code that builds a request: keys given strings.
        'const body = {\n  model: "small-1",\n  user: "anon",\n  messages: [{ role: "system",'
        ' content: "Answer billing questions only." }],\n};',
        # Chinese help text: what the admin can do, what the system will not show.
        "管理员可以在后台为员工发送重置密码邮件。系统不会显示员工的原密码。",
        # A triage prompt kept in a config map: it describes what a phishing mail asks.
        "triage.txt: |\n  Mark as suspicious any email that asks the reader to change bank details,"
        " share passwords or open an attachment.",
    ],
)
def test_logs_code_and_help_text_are_not_withheld(text):
    assert not withheld(text), detect(text).signals
    assert not withheld(json.dumps({"content": text}, ensure_ascii=False))


def test_a_measure_is_not_leetspeak():
    from lazaretto.proxy.quarantine.readings import readings

    text = "4m Normal Pulled image, 3m Warning probe failed after 5s; h4x0r l33t"
    leet = next(r.text for r in readings(text) if r.kind == "leetspeak")
    assert "4m Normal" in leet and "3m Warning" in leet and "5s" in leet
    assert "haxor" in leet and "leet" in leet


def test_a_tool_listing_read_as_one_document_asks_for_nothing():
    # A server's tools: a title that names what a tool prints, a description of what it returns.
    from lazaretto.proxy.quarantine.document import judge_message

    tools = {
        "tools": [
            {
                "name": "printEnv",
                "title": "Print Environment Tool",
                "description": "Returns all environment variables, helpful for debugging.",
            },
            {"name": "echo", "title": "Echo Tool", "description": "Echoes back the input."},
            {
                "name": "longRun",
                "title": "Trigger Long Running Operation Tool",
                "description": "Demonstrates a long running operation with progress updates.",
            },
        ]
    }
    verdicts = judge_message(
        tools, lambda text, path, seen: scan_text(text, ScanRules(), path, seen), ScanRules()
    )
    assert all(v.verdict != Verdict.WITHHELD for v in verdicts.values()), verdicts
