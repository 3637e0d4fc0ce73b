"""Timestamps as sortable UTC ISO-8601 text, with a clock that tests can fix."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The current UTC time."""
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """`2026-11-30T02:05:00.123Z`: lexical order is time order."""
    return (
        moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    )


def parse_stamp(text: str) -> datetime:
    """The inverse of `stamp`."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def later(moment: datetime, minutes: float) -> datetime:
    """`moment` plus some minutes."""
    return moment + timedelta(minutes=minutes)
