"""Confidence (docs/design.md, "Confidence") as pure functions in integer hundredths.

Hundredths make week boundaries exact: 70 - 8 * 5 is 30 (still active), where floats
would give 0.29999999999999993 and archive the fact a week early.
"""

from __future__ import annotations

from datetime import datetime, timedelta

# The thresholds live with the rule's microsecond form; they are read from here too.
from kenning.core.clock import micros
from kenning.lifecycle import decay
from kenning.lifecycle.decay import ARCHIVE_BELOW as ARCHIVE_BELOW
from kenning.lifecycle.decay import INJECT_FLOOR as INJECT_FLOOR
from kenning.lifecycle.decay import WEEKLY_DECAY as WEEKLY_DECAY
from kenning.lifecycle.decay import current_confidence_us

EXTRACTED = 70  # from a transcript, or added by the agent through MCP
PERSON = 100  # added or corrected by a person
RECONFIRMED_FLOOR = 90  # re-confirmation by new evidence
WEEK = timedelta(weeks=1)
CLOCK_SKEW = timedelta(microseconds=decay.CLOCK_SKEW)  # a teammate's clock may run this far ahead


def initial_confidence(origin: str) -> int:
    """People are trusted fully; everything inferred starts at 0.70."""
    return PERSON if origin == "user" else EXTRACTED


def current_confidence(
    confidence: int, confirmed: datetime, last_used: datetime | None, now: datetime
) -> int:
    """The stored value minus 0.05 per whole week since max(confirmed, last_used)
    (decay.current_confidence_us, on times relative to `now`)."""

    return current_confidence_us(confidence, micros(confirmed - now),
                                 None if last_used is None else micros(last_used - now), 0)


def reconfirmed(
    confidence: int, confirmed: datetime, last_used: datetime | None, now: datetime
) -> int:
    """New evidence: never below 0.90, never below what the fact has now."""
    return max(current_confidence(confidence, confirmed, last_used, now), RECONFIRMED_FLOOR)


def is_archived(current: int) -> bool:
    return current < ARCHIVE_BELOW


def effective_status(status: str, current: int) -> str:
    """Stored status, with decay's archival applied to active facts (never written)."""
    if status == "active" and is_archived(current):
        return "archived"
    return status


def weeks_until_archived(
    confidence: int, confirmed: datetime, last_used: datetime | None, now: datetime
) -> int:
    """Whole weeks from `now` until the fact first counts as archived (0 if it already does)."""
    current = current_confidence(confidence, confirmed, last_used, now)
    if is_archived(current):
        return 0
    return (current - ARCHIVE_BELOW) // WEEKLY_DECAY + 1


def to_hundredths(value: float) -> int:
    return int(round(float(value) * 100))


def from_hundredths(value: int) -> float:
    return value / 100
