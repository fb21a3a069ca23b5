"""The one clock. Stdlib only; `time` alone on the log-line path (PostToolUse stamps events).

`now()` is the time decisions are made at (decay, windows, fact dates): `KENNING_NOW` (an ISO
time) pins it, for reproducible demos and tests. `now_iso()` is the same clock as text, with
microseconds, for log lines.
"""

from __future__ import annotations

import os
import time

# `datetime` is imported inside the functions that return one (not on the log-line path),
# so the annotations name it as text.
PIN = "KENNING_NOW"


def now() -> datetime:  # noqa: F821
    """The current UTC time to the second, or the pinned one."""
    from datetime import UTC, datetime

    pinned = os.environ.get(PIN)
    if pinned:
        return pinned_time(pinned)
    return datetime.now(UTC).replace(microsecond=0)


def now_us() -> int:
    """`now()` as integer microseconds since the epoch, without importing `datetime` unless
    the clock is pinned (the prompt hook decides on it)."""
    pinned = os.environ.get(PIN)
    if pinned:
        return epoch_us(pinned_time(pinned))
    return int(time.time()) * 1_000_000


def epoch_us(moment: datetime) -> int:  # noqa: F821
    """An aware time as integer microseconds since the epoch (exact, unlike `timestamp()`)."""
    from datetime import UTC, datetime

    return micros(moment - datetime(1970, 1, 1, tzinfo=UTC))


def micros(delta: timedelta) -> int:  # noqa: F821
    """A `timedelta` as whole microseconds, exactly."""
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def now_iso() -> str:
    """`2026-01-31T12:00:00.123456Z`: the log lines' timestamp."""
    if os.environ.get(PIN):
        return now().strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    stamp = time.time()
    return (time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(stamp))
            + f".{int(stamp % 1 * 1e6):06d}Z")


def pinned_time(value: str) -> datetime:  # noqa: F821
    """`KENNING_NOW`'s value as an aware UTC time; a value that is not one is an error."""
    from datetime import UTC, datetime

    from kenning.core.errors import KenningError

    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        parsed = parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
        return parsed.astimezone(UTC)
    except (ValueError, OverflowError) as exc:
        raise KenningError(f"{PIN}: not an ISO time: {value!r} (e.g. 2026-01-31T12:00:00Z)") \
            from exc
