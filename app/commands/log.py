"""`lazaretto log`: the audit log of every decision, or `--verify` of its hash chain."""

import argparse
import json
from functools import cache

from lazaretto.app import human
from lazaretto.app.human import table
from lazaretto.store.opening import StoreAPI

COLUMNS = ("actor", "action", "session", "subject")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    """Options of `lazaretto log`."""
    parser.add_argument(
        "--verify",
        action="store_true",
        help="check the hash chain; exit 1 naming the first bad row",
    )
    parser.add_argument("--limit", type=_positive, metavar="N", help="only the newest N rows")
    parser.add_argument("--json", action="store_true", help="print one JSON object for scripts")
    human.add_store_option(parser)


def run(args: argparse.Namespace) -> int:
    """Print the rows (exit 0) or the verification (exit 0 intact, 1 tampered)."""
    return human.with_store(
        args,
        "log",
        lambda store: (
            verify(store, args.json) if args.verify else show(store, args.limit, args.json)
        ),
    )


def verify(store: StoreAPI, as_json: bool) -> int:
    """Walk the chain; report `ok` or the first row that does not fit."""
    result = store.audit.verify()
    if as_json:
        print(
            json.dumps(
                {
                    "ok": result.ok,
                    "rows": result.rows,
                    "row": result.first_bad_id,
                    "problem": result.problem,
                    "findings": list(result.findings),
                }
            )
        )
    elif result.ok:
        print(f"ok: {result.rows} rows, chain intact, state tables agree with it")
    elif result.findings:
        print(f"tampered: {result.problem} (chain of {result.rows} rows intact):")
        for line in result.findings:
            print(f"  {human.visible(line)}")
    else:
        print(f"tampered: row {result.first_bad_id}: {result.problem}")
    return 0 if result.ok else 1


def _reason(row: dict) -> str:
    # A person's note says why they cleared something: it belongs beside the reason.
    note = row["detail"].get("note") if isinstance(row["detail"], dict) else None
    return f"{row['reason'] or ''} (note: {note})" if note else row["reason"] or ""


def _actor(row: dict) -> str:
    # A row a station's client asked for, other than a person's proven decision, says what
    # that client claims: the station saw none of it happen.
    client = isinstance(row["detail"], dict) and "peer" in row["detail"]
    return f"{row['actor']} (claim)" if client and row["actor"] != "human" else row["actor"]


@cache
def account(uid: int | None) -> str:
    """The account behind a row: its name where this machine knows the number, else the number;
    empty for rows from before accounts were recorded."""
    if uid is None:
        return ""
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return str(uid)


def show(store: StoreAPI, limit: int | None, as_json: bool) -> int:
    """The newest rows (all without a limit), oldest first so the latest ends up at the bottom."""
    rows = list(reversed(store.audit.rows(limit, newest_first=True)))
    if as_json:
        print(json.dumps({"rows": rows}, indent=2))
    elif rows:
        cells = [
            [row["at"][:19].replace("T", " "), account(row.get("uid")), _actor(row)]
            + [row[name] or "" for name in COLUMNS[1:]]
            + [_reason(row)]
            for row in rows
        ]
        headings = ["TIME (UTC)", "ACCOUNT", "ACTOR", "ACTION", "SESSION", "SUBJECT", "REASON"]
        print(table(headings, cells, indent=""))
    else:
        print("The audit log is empty.")
    return 0
