"""`lazaretto approve TOKEN`: a person lets one refused call through, once (human only)."""

import argparse
import json
import sys

import humanize

from lazaretto.app import human
from lazaretto.store import TokenError
from lazaretto.store.claims import claim_note
from lazaretto.store.clock import parse_stamp
from lazaretto.store.decisions import DecisionError
from lazaretto.store.opening import StoreAPI
from lazaretto.store.states import CallStatus
from lazaretto.store.station.protocol import ProofError
from lazaretto.store.tokens import normalize_token


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto approve`."""
    parser.add_argument(
        "token", help="the approval token from the agent's refusal notice, e.g. K7QF-2M9X"
    )
    human.add_store_option(parser)


def run(args: argparse.Namespace) -> int:
    """0 approved; 1 not approved (unknown, expired, used, or not confirmed); 2 refused or malformed."""
    # The terminal check comes before anything else: without a person, nothing is even looked up.
    if not human.refuse_unless_terminal("approve"):
        return human.EXIT_REFUSED
    try:
        token = normalize_token(args.token)
    except TokenError as exc:
        print(f"lazaretto approve: {exc}", file=sys.stderr)
        return human.EXIT_REFUSED
    return human.with_store(args, "approve", lambda store: _approve(store, token))


def _approve(store: StoreAPI, token: str) -> int:
    row = store.blocked.by_token(token)
    if row is None:
        print(f"lazaretto approve: no blocked call has the token {token}.", file=sys.stderr)
        return human.EXIT_DECLINED
    if row["status"] != CallStatus.PENDING:
        print(
            f"lazaretto approve: the call behind {token} is {row['status']}, not waiting for approval. "
            "If the agent still needs it, let it retry to get a fresh token.",
            file=sys.stderr,
        )
        return human.EXIT_DECLINED
    print(describe(row, store))
    call = f"{human.visible(row['server'])}/{human.visible(row['tool'])}"
    confirmation = human.confirm(store, f"let this one {call} call through")
    if confirmation is None:
        return human.EXIT_DECLINED
    try:
        approved = confirmation.on(store).decisions.approve(row["id"], note=confirmation.note)
    except (DecisionError, ProofError) as exc:
        print(f"lazaretto approve: {exc}. Nothing was changed.", file=sys.stderr)
        return human.EXIT_DECLINED
    window = parse_stamp(approved["expires_at"]) - store.clock()
    print(
        f"Approved. The agent may make this exact call once within the next {humanize.naturaldelta(window)}; "
        "any other arguments are still refused."
    )
    return 0


def describe(row: dict, store: StoreAPI) -> str:
    """What the person is about to approve, and every reason it was refused."""
    now = store.clock()
    v = human.visible
    arguments = json.dumps(row["arguments"], indent=2, sort_keys=True, ensure_ascii=False)
    lines = [
        f"Approve one blocked call (token {row['token_hint']})",
        f"  server:    {v(row['server'])}",
        f"  tool:      {v(row['tool'])}",
        f"  session:   {v(row['session'])}",
        f"  refused:   {v(row['reason'] or '')} [{v(row['reason_code'] or '')}]",
    ]
    if row["outbound_reason"]:
        lines.append(f"  outbound:  {v(row['outbound_reason'])}")
    lines += [
        f"  taint:     {v(row['taint_reason'] or 'session not tainted')}",
        f"  hosts:     {v(', '.join(row['hosts'])) if row['hosts'] else 'none named'}",
        f"  blocked:   {human.ago(now - parse_stamp(row['created_at']))}",
        f"  token expires {human.until(parse_stamp(row['expires_at']) - now)}; "
        f"an approval lasts {humanize.naturaldelta(store.blocked.approval_window(row))}",
        "  arguments (exactly these, nothing else):",
        "    " + v(arguments, keep_newlines=True).replace("\n", "\n    "),
    ]
    note = claim_note(row)
    if note:
        lines.insert(1, f"  CLAIM:     {note}")
    return "\n".join(lines)
