"""Records a station's client added: what they say is that client's claim, and a person is told so.

A station serves records (a refused call, its hosts, reason and taint) from any process of the
user's account, proxies and hooks as well as anything the agent runs; it cannot see the call a
refusal describes. It stamps such a record with the client the kernel reported, and every view
that shows one says whose word it is. Without a station, every process writes the store itself
and nothing is stamped: there is no boundary to draw.
"""

from .audit import AUDIT_PEER
from .canonical import canonical_json


def claimant() -> str | None:
    """The station's client behind the current request (uid and pid), as stored; None in-process."""
    peer = AUDIT_PEER.get()
    return canonical_json(peer) if peer is not None else None


def claim_note(row: dict) -> str | None:
    """A sentence for a person reading a record a station's client added; None for other records."""
    peer = row.get("recorded_by")
    if not isinstance(peer, dict):
        return None
    return (
        f"recorded by a client of the station (uid {peer.get('uid')}, pid {peer.get('pid')}):"
        " its server, tool, reason, hosts and taint are that client's claim; the station did"
        " not see the call"
    )
