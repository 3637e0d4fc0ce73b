"""Every time the review app shows, in one style: relative (`11m ago`), or absolute on demand."""

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from lazaretto.app.human import short_ago, short_span
from lazaretto.store.clock import parse_stamp

_STAMP_IN_TEXT = re.compile(r"(\bat )?(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")
"""A store time stamp inside recorded prose (a refusal's reason), with the `at` before it."""


@dataclass(frozen=True)
class Moments:
    """Says store time stamps as seen at `now`: their age, or (`absolute`) the UTC time itself."""

    now: datetime
    absolute: bool = False

    def at(self, stamp: str | None) -> str:
        """`11m ago`, or `2026-11-30 09:09:12 UTC`; a missing stamp is said so."""
        if not stamp:
            return "unknown time"
        moment = parse_stamp(stamp)
        return self._absolute(moment) if self.absolute else short_ago(self.now - moment)

    def in_text(self, text: str) -> str:
        """Recorded prose with each time stamp in it said in this style (`… 11m ago`, `… at 2026-…`)."""

        def said(match: re.Match) -> str:
            moment = self.at(match.group(2))
            return f"at {moment}" if self.absolute else moment

        return _STAMP_IN_TEXT.sub(said, text)

    def until(self, stamp: str) -> str:
        """`in 9m` (or its UTC time) while the moment is ahead, `expired` once it has passed."""
        moment = parse_stamp(stamp)
        if moment <= self.now:
            return "expired"
        if self.absolute:
            return f"at {self._absolute(moment)}"
        # The age's own units, read forwards: `in 9m` sits beside `11m ago` in the same style.
        span = short_span(moment - self.now)
        return f"in {span}" if span else "in a moment"

    @staticmethod
    def _absolute(moment: datetime) -> str:
        return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
