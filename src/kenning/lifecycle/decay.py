"""Decay on integer microseconds since the epoch: `confidence.current_confidence`'s rule with
no `datetime` import (a tenth of the prompt hook's start-up), so hooks can decide on times
they read as text. Pure, stdlib-free; `confidence` delegates to it, so there is one rule.
"""

from __future__ import annotations

WEEKLY_DECAY = 5
ARCHIVE_BELOW = 30
INJECT_FLOOR = 50
SECOND = 1_000_000  # microseconds
WEEK = 7 * 86_400 * SECOND
CLOCK_SKEW = 86_400 * SECOND  # a teammate's clock may run this far ahead


def current_confidence_us(confidence: int, confirmed: int, last_used: int | None,
                          now: int) -> int:
    """The stored value minus 0.05 per whole week since max(confirmed, last_used), all times
    in microseconds on one clock.

    A date more than a day ahead of `now` is not evidence (a wrong clock or a hand-edited
    file): when nothing else is, the fact counts as idle for as long as that date is ahead,
    so a fact dated years in the future decays instead of keeping full confidence forever.
    """
    dates = [d for d in (confirmed, last_used) if d is not None]
    past = [d for d in dates if d <= now + CLOCK_SKEW]
    idle = now - max(past) if past else max(dates) - now
    weeks = idle // WEEK if idle > 0 else 0
    return max(0, confidence - WEEKLY_DECAY * weeks)
