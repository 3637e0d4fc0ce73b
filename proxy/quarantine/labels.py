"""Provenance tags around untrusted text, named with a per-session nonce the text cannot guess."""

import re
from functools import cache


@cache
def _lookalike() -> re.Pattern[str]:
    return re.compile(r"<(\s*/?\s*untrusted)", re.IGNORECASE)


def neutralize(text: str) -> str:
    """Defuse tags inside the text that imitate ours, whatever nonce they guess."""
    return _lookalike().sub(lambda m: "\u2039" + m.group(1), text)


def wrap(text: str, nonce: str, source: str) -> str:
    """`<untrusted-NONCE source="server/tool">text</untrusted-NONCE>`."""
    return f'<untrusted-{nonce} source="{source}">\n{neutralize(text)}\n</untrusted-{nonce}>'


def label_payload(method: str, payload: dict, nonce: str, source: str) -> dict | None:
    """Wrap each top-level text block of a result; None when there is none."""
    holders: list[tuple[object, str]] = []  # each checked to be a list below
    if method in ("tools/call", "tasks/result"):
        holders.append((payload.get("content"), "content"))
    elif method == "resources/read":
        holders.append((payload.get("contents"), "contents"))
    elif method == "prompts/get":
        messages = payload.get("messages")
        if isinstance(messages, list):
            holders.append(
                ([m.get("content") if isinstance(m, dict) else None for m in messages], "messages")
            )
    changed = False
    result = dict(payload)
    for items, key in holders:
        if not isinstance(items, list):
            continue
        rebuilt = [_label_block(item, nonce, source) for item in items]
        if any(new is not old for new, old in zip(rebuilt, items, strict=False)):
            changed = True
            if key == "messages":
                result["messages"] = [
                    {**message, "content": block} if isinstance(message, dict) else message
                    for message, block in zip(payload["messages"], rebuilt, strict=False)
                ]
            else:
                result[key] = rebuilt
    return result if changed else None


def _label_block(block, nonce: str, source: str):
    if not isinstance(block, dict):
        return block
    if isinstance(block.get("text"), str):
        return {**block, "text": wrap(block["text"], nonce, source)}
    resource = block.get("resource")
    if isinstance(resource, dict) and isinstance(resource.get("text"), str):
        return {**block, "resource": {**resource, "text": wrap(resource["text"], nonce, source)}}
    return block
