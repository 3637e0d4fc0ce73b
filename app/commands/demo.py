"""`lazaretto demo [--store PATH] [--no-ui]`: the worm scenario through real proxies, then the review app."""

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from lazaretto.app import human
from lazaretto.app.demo.driver import POLICY, DemoRun, run_scenario, store_summary
from lazaretto.proxy.policy import parse_policy
from lazaretto.store import Store, StoreUnavailable

PREVIEW_LINES = 3
PREVIEW_WIDTH = 100


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto demo`."""
    parser.add_argument(
        "--store",
        metavar="PATH",
        help="write the demo into this new store file (default: a temporary one)",
    )
    parser.add_argument(
        "--no-ui",
        action="store_true",
        help="print a summary and exit instead of opening the review app",
    )


def run(args: argparse.Namespace) -> int:
    """0 when the post was refused and never reached the server; 1 when it was not; 2 for bad usage."""
    if not args.no_ui and not human.on_terminal():
        print(
            "lazaretto demo: the review app needs a terminal; use --no-ui for the summary only.",
            file=sys.stderr,
        )
        return human.EXIT_REFUSED
    if not args.store:
        folder = Path(tempfile.mkdtemp(prefix="lazaretto-demo-"))
        code = 1
        try:
            code = _demo(args, folder / "demo.db", kept=False)
        finally:
            if code == 0:
                shutil.rmtree(folder, ignore_errors=True)
            else:
                # Something went wrong: the proxies' log says what, so it stays.
                print(
                    f"The demo's store and the proxies' log are kept in {folder}.", file=sys.stderr
                )
        return code
    store_path = Path(args.store).expanduser()
    if store_path.exists():
        # The demo must not mix its example into a real store.
        print(
            f"lazaretto demo: {store_path} exists; the demo writes a fresh store.",
            file=sys.stderr,
        )
        return human.EXIT_REFUSED
    return _demo(args, store_path, kept=True)


def _demo(args: argparse.Namespace, store_path: Path, *, kept: bool) -> int:
    """Run the scenario into `store_path`, print it, open the app unless --no-ui; 0 if protected."""
    print(
        "Lazaretto demo: an agent reads three poisoned pages through real proxies, then tries to post."
    )
    where = (
        "" if kept else " (a temporary one, removed when the demo ends; keep one with --store PATH)"
    )
    print(f"Store: {store_path}{where}\n")
    result = run_scenario(store_path)
    store = Store(store_path)
    try:
        print(render(result, store_summary(store), kept=kept))
    except StoreUnavailable as exc:
        print(f"lazaretto demo: {exc}", file=sys.stderr)
        store.close()
        return 1
    protected = result.refusal is not None and not result.post_delivered
    if args.no_ui or not protected:
        store.close()
        return 0 if protected else 1
    from lazaretto.app.commands.review import open_review

    return open_review(store, parse_policy(POLICY), demo=True)


def render(result: DemoRun, summary: dict, *, kept: bool = True) -> str:
    """The run, step by step, and what it left in the store."""
    out = []
    for number, step in enumerate(result.steps, 1):
        call = f"{number}. {step.server}/{step.tool}"
        if step.error is not None and step.error.get("code") is None:
            out.append(
                f"{call}: FAILED: {step.error.get('message')} (the proxies' log is beside the store)"
            )
        elif step.error is not None:
            out.append(f"{call}: refused ({step.error.get('code')})")
            out.append(_indent(step.error.get("message", "")))
            token = (step.error.get("data") or {}).get("token")
            if token:
                out.append(f"     approval token: {token}")
            delivered = "received it anyway" if result.post_delivered else "never received it"
            out.append(f"   The {step.server} server {delivered}.")
        else:
            texts = [
                item.get("text", "")
                for item in (step.result or {}).get("content", [])
                if isinstance(item, dict) and item.get("type") == "text"
            ]
            out.append(f"{call}: the agent received")
            out.append(_indent("\n".join(texts) or "(no text)"))
    out.append("")
    out.append("In the store:")
    state = "tainted by " + summary["taint"] if summary["tainted"] else "not tainted"
    out.append(f"  session lazaretto-demo: {human.visible(state)}")
    withheld = (
        ", ".join(f"{qid} ({server}/{tool})" for qid, server, tool in summary["withheld"]) or "none"
    )
    out.append(f"  withheld fields: {len(summary['withheld'])}: {withheld}")
    out.append(f"  hidden-content removals logged: {summary['stripped']}")
    pending = (
        ", ".join(f"#{bid} {server}/{tool}" for bid, server, tool in summary["pending"]) or "none"
    )
    out.append(f"  calls waiting for a person: {len(summary['pending'])}: {pending}")
    if kept:
        out.append("")
        out.append(f"Review it: lazaretto review --store {result.store_path}")
    return "\n".join(out)


def _indent(text: str) -> str:
    lines = [
        human.clip(human.visible(line), PREVIEW_WIDTH) for line in text.splitlines() if line.strip()
    ]
    if len(lines) > PREVIEW_LINES:
        lines = lines[:PREVIEW_LINES] + [f"… {len(lines) - PREVIEW_LINES} more lines"]
    return "\n".join(f"     {line}" for line in lines)
