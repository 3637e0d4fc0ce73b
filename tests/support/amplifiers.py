"""Server lines shaped to cost a JSON parser many times their size, and the proxy's peak memory.

The proxy must judge any server line within four times its size in memory, whether it came over
stdio or as an HTTP body; the stdio and remote tests send these shapes and read the peak.
"""

import json

# Shapes that cost json many times their size once parsed: (prefix, unit repeated, suffix).
AMPLIFIERS = {
    "short strings": (
        '{"jsonrpc":"2.0","id":$ID,"result":{"structuredContent":{"v":[',
        '"a",',
        '"a"]},"content":[]}}',
    ),
    "empty objects": (
        '{"jsonrpc":"2.0","id":$ID,"result":{"structuredContent":{"v":[',
        "{},",
        '{}]},"content":[]}}',
    ),
    "short strings in a text": (
        '{"jsonrpc":"2.0","id":$ID,"result":{"content":[{"type":"text","text":"[',
        '\\"a\\",',
        '\\"a\\"]"}]}}',
    ),
    # A flood of one hidden character: what always-on stripping removes, in bulk.
    "zero-width joiners": (
        '{"jsonrpc":"2.0","id":$ID,"result":{"content":[{"type":"text","text":"',
        "\u200d",
        '"}]}}',
    ),
}
# How the text of a shape begins once judged; None: the reply is withheld whole.
READS_AS = {
    "short strings": None,
    "empty objects": None,
    "short strings in a text": '["a","a"',
    "zero-width joiners": "\n[lazaretto: removed hidden content: 8388608 zero-width characters.]",
}
MiB = 1024 * 1024


def peak_rss(pid: int) -> int:
    """The process's peak resident memory so far, in bytes (Linux)."""
    with open(f"/proc/{pid}/status") as status:
        for row in status:
            if row.startswith("VmHWM:"):
                return int(row.split()[1]) * 1024
    raise AssertionError("no VmHWM")


def check_judged_within_bound(proxy, shape: str, size: int) -> None:
    """Ask `proxy` (serving an amplified `read_page` answer of `size` bytes) for it, then close it:
    the peak memory it added is at most four times the line's size, and the answer is judged:
    withheld whole, or read as the plain text it is (hidden characters stripped and counted),
    never passed on unread."""
    before = peak_rss(proxy.proc.pid)
    reply = proxy.request("tools/call", {"name": "read_page", "arguments": {}}, timeout=120)
    after = peak_rss(proxy.proc.pid)
    proxy.close()
    assert after - before <= 4 * size, (shape, (after - before) / size)
    text = json.dumps(reply)
    if READS_AS[shape] is None:
        assert "withheld the server's reply" in text, text[:300]
    else:
        assert reply["result"]["content"][0]["text"].startswith(READS_AS[shape]), text[:300]
