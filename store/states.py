"""The states and kinds the store records, one enum each; their values are the strings in SQLite.

They are `StrEnum`s, so a member compares equal to its stored string and formats as it: stores
written before these types existed read unchanged, and SQL parameters need no conversion.
"""

from enum import StrEnum


class FieldStatus(StrEnum):
    """A withheld field (`quarantine.status`)."""

    WITHHELD = "withheld"
    RELEASED = "released"
    """A person let the agent read it on its next read of the same content (`ReleasedAs` says what)."""


class ReleasedAs(StrEnum):
    """What a person released of a withheld field (`quarantine.released_as`)."""

    VISIBLE = "visible"
    """The text a reader of the rendered content sees: hidden content removed, its payload not given."""
    ORIGINAL = "original"
    """The field as the server sent it, hidden payload included."""


class CallStatus(StrEnum):
    """A refused call and its approval token (`blocked_calls.status`)."""

    PENDING = "pending"
    APPROVED = "approved"
    USED = "used"
    """The approved call went through, once."""
    EXPIRED = "expired"
    """Never stored: a pending or approved call past its `expires_at`, computed on read."""
    LAPSED = "lapsed"
    """Never stored: a pending or approved call whose session's client exited, computed on read."""


class DriftStatus(StrEnum):
    """A drift of a pinned server surface (`pin_drift.status`)."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class DriftChange(StrEnum):
    """How a pinned entry drifted (`pin_drift.change`)."""

    NEW = "new"
    CHANGED = "changed"
    REMOVED = "removed"


class PinKind(StrEnum):
    """What a pin is of (`pins.kind`, `pin_drift.kind`)."""

    TOOL = "tool"
    PROMPT = "prompt"
    RESOURCE_TEMPLATE = "resource_template"
    INSTRUCTIONS = "instructions"


class DirectoryStatus(StrEnum):
    """A directory the agent cloned (`directories.status`)."""

    UNTRUSTED = "untrusted"
    TRUSTED = "trusted"


class Actor(StrEnum):
    """Who took a decision in the audit log (`audit.actor`)."""

    PROXY = "proxy"
    HOOK = "hook"
    HUMAN = "human"
    IDLE_EXPIRY = "idle-expiry"
    """The opt-in idle expiry that clears old taint."""
    STATION = "station"
    """The station itself, refusing a request it was sent."""


class Action(StrEnum):
    """What the audit log records (`audit.action`)."""

    TAINT = "taint"
    UNTAINT = "untaint"
    WITHHOLD = "withhold"
    RELEASE = "release"
    REFUSE = "refuse"
    APPROVE = "approve"
    USE_APPROVAL = "use-approval"
    DISMISS = "dismiss"
    UNDISMISS = "undismiss"
    """A person took back a dismissal: the item waits for a decision again."""
    PIN = "pin"
    PIN_DRIFT = "pin-drift"
    ACCEPT_DRIFT = "accept-drift"
    REJECT_DRIFT = "reject-drift"
    MARK_UNTRUSTED = "mark-untrusted"
    TRUST = "trust"
    REFUSE_REQUEST = "refuse-request"
    """The station refused a request (no proof, a wrong passphrase, an operation outside the API)."""
    UNLOCK = "unlock"
    """A person unlocked withheld content for one review session, with the passphrase."""
    CHANGE_PASSPHRASE = "change-passphrase"


CLEARING_ACTIONS = (Action.APPROVE, Action.UNTAINT, Action.RELEASE, Action.ACCEPT_DRIFT)
"""Human decisions that let something through: friction grows with how many were taken lately."""


class SessionState(StrEnum):
    """A session as listed: ended once its client exited, else tainted while it has open taint
    events, else clean."""

    TAINTED = "tainted"
    CLEAN = "clean"
    ENDED = "ended"
    """Its agent client exited: nothing of it waits for a person (its calls lapsed)."""
