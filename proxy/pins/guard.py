"""Pinning a server's surface: what changed since a person last trusted it stays hidden and refused."""

from typing import TYPE_CHECKING, Any

from lazaretto.store import StoreUnavailable, canonical_json, sha256_hex
from lazaretto.store.pins import FIRST_USE
from lazaretto.store.states import DriftChange, DriftStatus, PinKind

from ..mcp.jsonrpc import PIN_DRIFT, REFUSED, ErrorReason, error_response

if TYPE_CHECKING:
    from lazaretto.store.opening import StoreAPI

    from .lockfile import Lock

# Per list method: the entry kind, the list's key in the result, and the fields that make up
# an entry's surface (what the model reads and what decides how it is called).
LISTS = {
    "tools/list": (
        PinKind.TOOL,
        "tools",
        ("name", "title", "description", "inputSchema", "outputSchema", "annotations"),
    ),
    "prompts/list": (PinKind.PROMPT, "prompts", ("name", "title", "description", "arguments")),
    "resources/templates/list": (
        PinKind.RESOURCE_TEMPLATE,
        "resourceTemplates",
        ("name", "title", "uriTemplate", "description", "mimeType"),
    ),
}
INSTRUCTIONS = (PinKind.INSTRUCTIONS, "instructions")
# Pinned once per kind on first use, so a kind that was listed empty is not "first use" again
# when an entry later appears in it; the store pins a kind's entries at once only beside it.
LISTED = FIRST_USE
# Entries whose undecided drift a guard remembers (it forgets them all past this many).
_UNDECIDED_CACHE = 1024


def entry(kind: PinKind, name: str, surface: Any) -> dict:
    """One pinnable entry: its canonical JSON and that text's sha256."""
    canonical = canonical_json(surface)
    return {"kind": kind, "name": name, "canonical": canonical, "sha256": sha256_hex(canonical)}


def listed_marker(kind: PinKind) -> dict:
    """The entry that pins a kind as seen, so that what appears in it later is not a first use."""
    return entry(kind, LISTED, "listed")


def list_entries(method: str, result: dict) -> list[dict]:
    """The entries of a list result (items without a string name are skipped)."""
    kind, key, fields = LISTS[method]
    items = result.get(key)
    if not isinstance(items, list):
        return []
    return [
        entry(kind, item["name"], {f: item[f] for f in fields if f in item})
        for item in items
        if isinstance(item, dict) and isinstance(item.get("name"), str)
    ]


def _has_kind(baseline: dict, kind: PinKind) -> bool:
    return any(known_kind == kind for known_kind, _ in baseline)


class PinGuard:
    """One server's pins in the proxy: screens list results and refuses drifted entries."""

    def __init__(
        self, store: "StoreAPI", server: str, command: list[str], lock: "Lock | None" = None
    ) -> None:
        self.store = store
        self.server = server
        self.command = canonical_json(command)
        self.lock = lock
        self.hidden: dict[tuple[str, str], dict] = {}
        # Entries the newest list showed as pinned: an older drift of theirs refuses nothing.
        self.matched: set[tuple[str, str]] = set()
        # (kind, name) -> (the store's data_version, its undecided drift then): a call to an entry
        # no list showed yet asks the store once while nothing was committed there.
        self._undecided: dict[tuple[str, str], tuple[int, dict | None]] = {}

    # -- screening ----------------------------------------------------------------------

    def screen_list(self, method: str, result: dict, complete: bool) -> dict | None:
        """Drop drifted and new entries from a list result; None when nothing is dropped."""
        entries = list_entries(method, result)
        kind, key, _ = LISTS[method]
        hidden = self._screen(kind, entries, complete)
        if not hidden:
            return None
        kept = [
            item
            for item in result[key]
            if not (isinstance(item, dict) and item.get("name") in hidden)
        ]
        return {**result, key: kept}

    def screen_instructions(self, result: dict) -> dict | None:
        """Withhold changed `instructions` until a person accepts them."""
        text = result.get("instructions")
        kind, name = INSTRUCTIONS
        # No instructions are pinned too (as the kind's marker): ones that appear later are new.
        entries = [entry(kind, name, text)] if isinstance(text, str) else []
        if not self._screen(kind, entries, complete=False):
            return None
        drift = self.hidden[INSTRUCTIONS]
        return {
            **result,
            "instructions": f"[lazaretto: this server's instructions changed since they were pinned "
            f"(pin drift {drift['id']}); withheld until a person reviews them.]",
        }

    def _screen(self, kind: PinKind, entries: list[dict], complete: bool) -> set[str]:
        how, baseline = self._baseline()
        # Instructions come with every start: once anything of the server is pinned, theirs
        # appearing later is drift, not a first use.
        first_use = not baseline if kind == INSTRUCTIONS[0] else not _has_kind(baseline, kind)
        if first_use and not self.lock:
            marker = listed_marker(kind)
            self.store.pins.pin(
                self.server, self.command, [marker, *entries], reason=f"first use ({kind})"
            )
            self.matched.update((kind, new["name"]) for new in entries)
            return set()
        same, drifted = [], []
        for new in entries:
            old = baseline.get((kind, new["name"]))
            if old is not None and old["sha256"] == new["sha256"]:
                same.append(new)
            else:
                drifted.append((new, old))
        if how != "exact" and same and not self.lock:
            # A renamed entry or changed command: what did not change carries over, audited.
            self.store.pins.pin(self.server, self.command, same, reason=f"carried over ({how})")
        hidden = set()
        for new, old in drifted:
            drift = self.store.pins.drift(
                self.server,
                self.command,
                new,
                DriftChange.CHANGED if old else DriftChange.NEW,
                old,
            )
            self.hidden[(kind, new["name"])] = drift
            hidden.add(new["name"])
        for new in same:
            self.hidden.pop((kind, new["name"]), None)
            self.matched.add((kind, new["name"]))
        for new, _old in drifted:
            self.matched.discard((kind, new["name"]))
        if complete:
            present = {e["name"] for e in entries}
            for (old_kind, name), old in baseline.items():
                if old_kind == kind and name != LISTED and name not in present:
                    self.store.pins.drift(
                        self.server,
                        self.command,
                        {"kind": kind, "name": name},
                        DriftChange.REMOVED,
                        old,
                    )
        return hidden

    def _undecided_drift(self, kind: PinKind, name: str) -> dict | None:
        """The entry's newest drift no person accepted (see `Pins.undecided`), remembered while
        the store's version holds still."""
        version = self.store.data_version()
        seen = self._undecided.get((kind, name))
        if seen is not None and seen[0] == version:
            return seen[1]
        if len(self._undecided) >= _UNDECIDED_CACHE:
            self._undecided.clear()
        drift = self.store.pins.undecided(self.server, self.command, kind, name)
        self._undecided[(kind, name)] = (version, drift)
        return drift

    def _baseline(self) -> tuple[str, dict]:
        if self.lock:
            return "lock", self.lock.entries
        return self.store.pins.baseline(self.server, self.command)

    # -- refusing ------------------------------------------------------------------------

    def refusal(self, kind: PinKind, name: str, request_id: Any) -> dict | None:
        """A -32003 error for a call to a hidden entry, or None once a person accepted it.

        Hidden means hidden by this proxy's newest list, or, for an entry it has not seen listed
        as pinned, by a drift any proxy recorded (a call may come before this proxy's own list).
        """
        drift = self.hidden.get((kind, name))
        if drift is None and (kind, name) not in self.matched and not self.lock:
            try:
                drift = self._undecided_drift(kind, name)
            except StoreUnavailable as exc:
                return error_response(
                    request_id,
                    REFUSED,
                    f"lazaretto refused {self.server}/{name}: whether this {kind} changed since it"
                    f" was pinned cannot be checked, the store cannot be read ({exc}); list the"
                    " server's tools again once the store is back",
                    {
                        "reason": ErrorReason.STORE_UNAVAILABLE,
                        "token": None,
                        "server": self.server,
                        "tool": name,
                    },
                )
        if drift is None:
            return None
        try:
            current = self.store.pins.get(drift["id"]) or drift
        except StoreUnavailable:
            current = drift  # as recorded: it stays refused until the store says otherwise
        if current["status"] == DriftStatus.ACCEPTED and not self.lock:
            self.hidden.pop((kind, name), None)
            return None
        how = (
            f"the lock file {self.lock.path} pins another version; update the lock to accept it"
            if self.lock
            else f"a person must review it (lazaretto pin accept {drift['id']}, or in lazaretto review)"
        )
        state = (
            "was rejected" if current["status"] == DriftStatus.REJECTED else "is waiting for review"
        )
        return error_response(
            request_id,
            PIN_DRIFT,
            f"lazaretto refused {self.server}/{name}: this {kind} is {current['change']} since it was pinned "
            f"(pin drift {drift['id']}, which {state}); {how}.",
            {
                "reason": ErrorReason.PIN_DRIFT,
                "drift": drift["id"],
                "server": self.server,
                "tool": name,
            },
        )
