"""The prompt hook reads the index's times without `datetime`: the same instants as
`datetime.fromisoformat`, whatever the text."""

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from kenning.core.clock import epoch_us
from kenning.hooks.factdb import parse_time


def _reference(value: str) -> int | None:
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return epoch_us(parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC))


@given(st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)))
def test_index_times_read_as_datetime_reads_them(moment: datetime) -> None:
    for text in (moment.strftime("%Y-%m-%dT%H:%M:%SZ").rjust(20, "0"), moment.isoformat(),
                 moment.replace(microsecond=0).isoformat() + "+02:00"):
        assert parse_time(text) == _reference(text), text


digits = st.text("0123456789", min_size=2, max_size=2)


@given(st.text("0123456789", min_size=4, max_size=4), digits, digits, digits, digits, digits)
def test_impossible_dates_and_times_are_no_time(year, month, day, hour, minute, second):
    text = f"{year}-{month}-{day}T{hour}:{minute}:{second}Z"  # 2023-02-29, 13th months ...
    assert parse_time(text) == _reference(text), text


def test_missing_and_malformed_times_are_none() -> None:
    assert parse_time(None) is None
    assert parse_time("") is None
    assert parse_time("yesterday") is None
    assert parse_time("2026-01-31T12:00:00Z") == epoch_us(datetime(2026, 1, 31, 12, tzinfo=UTC))
    assert parse_time("2026-01-31T12:00:00Z") - parse_time("2026-01-30T12:00:00Z") \
        == epoch_us(datetime(1970, 1, 2, tzinfo=UTC)) == timedelta(days=1) // timedelta(
            microseconds=1)
