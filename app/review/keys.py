"""The keys of the decisions on one item, shared by the queue and the full view."""

from textual.binding import Binding

DECISIONS = [
    Binding(
        "r",
        "release",
        "Release",
        tooltip="Let the agent read this withheld field: its visible text, or the original "
        "(typed confirmation).",
    ),
    Binding(
        "a",
        "approve",
        "Approve",
        tooltip="Let this blocked call through once (typed confirmation).",
    ),
    Binding(
        "u",
        "untaint",
        "Untaint",
        tooltip="Clear the taint of this item's session (typed confirmation).",
    ),
    Binding(
        "d",
        "dismiss_item",
        "Dismiss",
        tooltip="Mark it reviewed; it stays withheld or refused (z takes it back).",
    ),
    Binding(
        "p",
        "accept_pin",
        "Accept pin",
        tooltip="Pin the drifted entry's new version (typed confirmation).",
    ),
    Binding("x", "reject_pin", "Reject pin", tooltip="Keep the drifted entry hidden and refused."),
]
"""Each decision's key, its action on the queue screen, and what it does."""
