"""`lazaretto doctor`: which MCP servers are wrapped, which hooks are installed, and what is not covered."""

import argparse

from lazaretto.app.clients.doctor import COVERAGE, hook_reports, mcp_reports
from lazaretto.app.clients.wrapping import lazaretto_gone
from lazaretto.app.human import visible
from lazaretto.store import StoreUnavailable
from lazaretto.store.opening import Side, open_store
from lazaretto.store.station.client import StationStore


def configure(parser: argparse.ArgumentParser) -> None:
    """No options: it reads the user's and the current project's client settings."""


def run(args: argparse.Namespace) -> int:
    """0 everything found is covered; 1 something is not wrapped, not hooked, or cannot run."""
    gaps = 0
    print("MCP servers")
    configs = mcp_reports()
    if not configs:
        print("  no client MCP config found")
    for config in configs:
        print(f"  {config.client}: {visible(config.path)}")
        if config.error:
            print(f"    cannot read it: {visible(config.error)}")
            gaps += 1
        for server in config.servers:
            where = (
                ""
                if server.where in ("mcpServers", "mcp_servers")
                else f" ({visible(server.where)})"
            )
            if lazaretto_gone(server):
                print(
                    f"    {visible(server.name)}{where}: BROKEN, wrapped with {visible(server.command)}, "
                    f"which no longer exists (lazaretto wrap {visible(config.path)} points it at this one)"
                )
                gaps += 1
            elif server.state == "wrapped":
                print(f"    {visible(server.name)}{where}: wrapped")
            elif server.state == "remote":
                print(f"    {visible(server.name)}{where}: NOT COVERED, {visible(server.detail)}")
                gaps += 1
            elif server.state == "not-wrapped":
                detail = f", {visible(server.detail)}" if server.detail else ""
                print(
                    f"    {visible(server.name)}{where}: NOT WRAPPED{detail} (lazaretto wrap {visible(config.path)})"
                )
                gaps += 1
            else:
                print(f"    {visible(server.name)}{where}: {server.state} {visible(server.detail)}")
    gaps += _policy()
    print("\nHooks")
    for report in hook_reports():
        if not report.present and not report.found:
            print(f"  {report.client}: not installed for this user")
            continue
        found = (
            ", ".join(f"{key} ({visible(path)})" for key, path in report.found.items()) or "none"
        )
        print(f"  {report.client}: {found}")
        if report.missing:
            print(
                f"    MISSING: {', '.join(report.missing)} (lazaretto install --client {report.client})"
            )
            gaps += 1
        for broken in report.broken:
            print(f"    CANNOT RUN: {visible(broken)}")
            gaps += 1
    gaps += _decisions()
    _untrusted_clones()
    print("\nWhat each client lets Lazaretto cover")
    for client, (covered, uncovered) in COVERAGE.items():
        print(f"  {client}\n    covered: {covered}\n    not covered: {uncovered}")
    print(f"\n{gaps} gap(s) found." if gaps else "\nEverything found is wrapped and hooked.")
    return 1 if gaps else 0


def _policy() -> int:
    """The policy the proxies and hooks read by default, judged as `lazaretto policy check` does;
    1 when it is broken."""
    from lazaretto.app.policy_report import CONSEQUENCE, check_policy

    report = check_policy()
    print("\nPolicy")
    if not report.exists and not report.broken:
        print(
            f"  {visible(report.path)}: none, so every server is untrusted"
            " (lazaretto policy init writes a starter one)"
        )
        return 0
    state = f"BROKEN ({CONSEQUENCE})" if report.broken else "ok"
    print(f"  {visible(report.path)}: {state}")
    for line in report.lines():
        print(f"    {visible(line)}")
    return 1 if report.broken else 0


def _decisions() -> int:
    """What protects decisions, and what could read the passphrase as it is typed; 1 if the
    station this machine relies on does not answer."""
    from lazaretto.app.station.protection import protection_line, snooping_risks

    print("\nDecisions")
    store = open_store(side=Side.PERSON)
    try:
        print(f"  {visible(protection_line(store))}")
        if isinstance(store, StationStore):
            try:
                status = store.status()
            except StoreUnavailable as exc:
                print(f"  NOT ANSWERING: {visible(exc)}")
                return 1
            if status["locked"]:
                print(f"  clearances are LOCKED until {status['locked_until']}")
            starved = _cpu_share_risk(store)
            if starved:
                print(f"  WARNING: {starved}")
    finally:
        store.close()
    for risk in snooping_risks():
        print(f"  WARNING: {risk}")
    return 0


def _cpu_share_risk(store: StationStore) -> str | None:
    """Why the station has no CPU share of its own, if it has none (see `cpu_share`)."""
    from lazaretto.app.station.cpu_share import share_risk

    try:
        pid = store.station_peer().pid
    except (OSError, StoreUnavailable):
        return None
    return share_risk(pid) if pid else None


def _untrusted_clones() -> None:
    """Clones the agent made that still taint what is read from them (informational, not a gap)."""
    store = open_store(side=Side.PERSON)
    try:
        rows = store.directories.untrusted()
    except StoreUnavailable as exc:
        print(f"\nCloned directories: the store cannot be read ({visible(exc)})")
        return
    finally:
        store.close()
    if rows:
        print("\nCloned directories not yet trusted (lazaretto trust DIR)")
        for row in rows:
            print(f"  {visible(row['path'])}  since {row['created_at']}")
