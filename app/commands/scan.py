"""`lazaretto scan`: run the cleaning and detection pipeline offline on text or on a tool result."""

import argparse
import json
import sys
from dataclasses import dataclass, field
from functools import partial
from typing import TypeGuard

from lazaretto.app.scan_lines import answer_lines
from lazaretto.proxy.classify import untrusted_tool
from lazaretto.proxy.mcp.surfaces import walk_surfaces
from lazaretto.proxy.policy import Policy, PolicyError, load_policy
from lazaretto.proxy.quarantine.document import judge_message
from lazaretto.proxy.quarantine.notices import removal_notice, withheld_notice
from lazaretto.proxy.quarantine.scan import (
    FieldVerdict,
    ReadInMessage,
    ScanRules,
    Verdict,
    field_scanner,
    scan_text,
)

_DEFAULT_SERVER = "scan"

EXIT_STATUS = (
    "exit status: 0 the text is clean (the agent would read it unchanged); 1 something was "
    "stripped or withheld; 2 the file or the policy cannot be read. With --jsonl: 0 once every "
    "line is answered (a bad line gets an error object), 2 for an unreadable policy. 141 when the "
    "reader of the output goes away (`| head`)."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of `lazaretto scan`."""
    parser.epilog = EXIT_STATUS
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="text or a CallToolResult JSON (- = stdin)",
    )
    parser.add_argument(
        "-p", "--policy", help="policy file (default: LAZARETTO_POLICY or the user config)"
    )
    parser.add_argument(
        "-n",
        "--server",
        default=_DEFAULT_SERVER,
        metavar="SERVER_ID",
        help="classify as coming from this server of the policy",
    )
    parser.add_argument(
        "-t", "--tool", help="the tool that produced the result (for per-tool trust and notices)"
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="print one JSON object")
    mode.add_argument(
        "--jsonl",
        action="store_true",
        help='read JSON Lines ({"text": ...} or {"result": ...}) on stdin, write one verdict per line',
    )


@dataclass
class ResultScan:
    """A whole tool result: every field's verdict by path, and the result the agent would get."""

    fields: dict[str, FieldVerdict] = field(default_factory=dict)
    rewritten: dict | None = None
    uninspected: int = 0

    @property
    def verdict(self) -> Verdict:
        """The worst verdict of any field."""
        return max(
            (v.verdict for v in self.fields.values()),
            key=list(Verdict).index,
            default=Verdict.CLEAN,
        )

    def to_json(self, original: dict) -> dict:
        """The --jsonl shape for a result: the worst verdict, summed removals, the rewritten result."""
        removed: dict[str, int] = {}
        for verdict in self.fields.values():
            for removal in verdict.removed:
                removed[removal.kind] = removed.get(removal.kind, 0) + removal.count
        return {
            "verdict": self.verdict,
            "score": max((v.score for v in self.fields.values()), default=0.0),
            "signals": [
                {"name": s.name, "weight": s.weight, "excerpt": s.excerpt}
                for v in self.fields.values()
                for s in v.signals
            ],
            "removed": [{"kind": kind, "count": count} for kind, count in removed.items()],
            "decoded": [
                {"kind": d.kind, "text": d.text} for v in self.fields.values() for d in v.decoded
            ],
            "text": json.dumps(
                self.rewritten if self.rewritten is not None else original,
                ensure_ascii=False,
                separators=(",", ":"),
            ),
            "uninspected": self.uninspected,
        }


class Scanner:
    """The pipeline with one policy decision applied: which server (and tool) the text came from."""

    def __init__(self, rules: ScanRules, server: str, tool: str | None) -> None:
        self.rules, self.server, self.tool = rules, server, tool

    def agent_text(self, verdict: FieldVerdict) -> str:
        """What the agent would read in place of the field."""
        if verdict.verdict == Verdict.WITHHELD:
            return withheld_notice(None, self.server, self.tool, verdict.signal_names)
        return verdict.cleaned

    def text(self, text: str, path: str = "", seen: ReadInMessage | None = None) -> FieldVerdict:
        return scan_text(text, self.rules, path, seen)

    def result(self, result: dict) -> ResultScan:
        scan = ResultScan()
        verdicts = judge_message(result, field_scanner(self.rules), self.rules)

        def visit(path: str, text: str) -> str | None:
            verdict = verdicts[path]
            if verdict.verdict == Verdict.CLEAN:
                return None
            scan.fields[path] = verdict
            return self.agent_text(verdict)

        # Clean fields are not recorded one by one; the result still needs a verdict for them.
        outcome = walk_surfaces(result, visit)
        scan.rewritten, scan.uninspected = outcome.payload, outcome.uninspected
        return scan


def policy_scanner(policy: Policy, server: str, tool: str | None) -> tuple[Scanner, str]:
    """The scanner for text from `server` (and `tool`) under `policy`, and why it trusts or not."""
    untrusted, reason = untrusted_tool(policy.server(server), tool)
    return Scanner(ScanRules(untrusted, policy.allow_hosts, policy.threshold), server, tool), reason


def is_call_tool_result(value: object) -> TypeGuard[dict]:
    """A JSON object shaped like a CallToolResult (content blocks or structured content)."""
    return isinstance(value, dict) and (
        isinstance(value.get("content"), list) or "structuredContent" in value
    )


def run(args: argparse.Namespace) -> int:
    """Scan the input; the exit status is `EXIT_STATUS`."""
    try:
        policy = load_policy(args.policy)
    except PolicyError as exc:
        print(f"lazaretto scan: {exc}", file=sys.stderr)
        return 2
    scanner, reason = policy_scanner(policy, args.server, args.tool)
    if args.jsonl:
        return _run_jsonl(scanner, sys.stdin, sys.stdout)
    try:
        if args.file == "-":
            raw = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                raw = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"lazaretto scan: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    parsed = _json_or_none(raw)
    if is_call_tool_result(parsed):
        scan = scanner.result(parsed)
        worst = scan.verdict
        if args.json:
            print(json.dumps(scan.to_json(parsed), ensure_ascii=False))
        else:
            _print_result(scan, parsed, reason)
    else:
        verdict = scanner.text(raw)
        worst = verdict.verdict
        if args.json:
            print(json.dumps(verdict.to_json(scanner.agent_text(verdict)), ensure_ascii=False))
        else:
            _print_field("text", verdict, scanner.agent_text(verdict), reason)
    return 0 if worst == Verdict.CLEAN else 1


def _json_or_none(raw: str) -> object:
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _run_jsonl(scanner: Scanner, source, sink) -> int:
    """One output line per input line, in order; a bad line gets an error object and the run goes on."""
    answer_lines(partial(jsonl_answer, scanner), source, sink)
    sink.flush()
    return 0


def jsonl_answer(scanner: Scanner, number: int, line: str) -> str | None:
    """The output line for input line `number` (None for a blank line)."""
    if not line.strip():
        return None
    try:
        item = json.loads(line)
    except ValueError as exc:
        out = {"error": f"line {number}: not JSON: {exc}"}
    else:
        out = _jsonl_item(scanner, item, number)
    return json.dumps(out, ensure_ascii=False) + "\n"


def _jsonl_item(scanner: Scanner, item: object, number: int) -> dict:
    if isinstance(item, dict) and isinstance(item.get("text"), str):
        verdict = scanner.text(item["text"])
        return verdict.to_json(scanner.agent_text(verdict))
    if isinstance(item, dict) and is_call_tool_result(item.get("result")):
        return scanner.result(item["result"]).to_json(item["result"])
    return {"error": f'line {number}: expected {{"text": string}} or {{"result": CallToolResult}}'}


def _print_field(
    label: str, verdict: FieldVerdict, agent_text: str, reason: str | None = None
) -> None:
    print(f"{label}: {verdict.verdict} (score {verdict.score:g})")
    if reason:
        print(f"  trust: {reason}")
    for signal in verdict.signals:
        print(f"  signal {signal.name} +{signal.weight:g}: {signal.excerpt!r}")
    for removal in verdict.removed:
        print(f"  removed {removal.count} x {removal.kind}")
    for payload in verdict.decoded:
        print(f"  decoded {payload.kind}: {payload.text!r}")
    notice = removal_notice(verdict.removed)
    if notice:
        print(f"  notice: {notice}")
    print("  the agent sees:")
    for line in (agent_text or "").splitlines() or [""]:
        print(f"    {line}")


def _print_result(scan: ResultScan, original: dict, reason: str) -> None:
    print(
        f"result: {scan.verdict} ({len(scan.fields)} field(s) changed, {scan.uninspected} part(s) uninspected)"
    )
    print(f"  trust: {reason}")
    for path, verdict in scan.fields.items():
        agent = (
            verdict.cleaned
            if verdict.verdict != Verdict.WITHHELD
            else "(withheld: replaced by a notice)"
        )
        _print_field(path, verdict, agent)
    print("the agent receives:")
    print(
        json.dumps(
            scan.rewritten if scan.rewritten is not None else original, ensure_ascii=False, indent=2
        )
    )
