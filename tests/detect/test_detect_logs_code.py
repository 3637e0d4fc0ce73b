"""Logs, request lines, settings and code read as the data they are, beside the orders they hide.

A log record or a commit opens its own line; an HTTP method before a path, a value after "=",
a key of code given a string, a measure such as "3m" are no words of an order. Chinese help
text saying what an admin can do, and a feature that lets users do something, are statements.
Each benign shape is paired with the attack written in the same place.
"""

from lazaretto.proxy.quarantine.scan import ScanRules, Verdict, scan_text


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
