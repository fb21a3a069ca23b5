"""Confidence (docs/design.md, "Confidence and decay"): one pure function, exact at week
boundaries."""

from datetime import UTC, datetime, timedelta

from hypothesis import assume, given
from hypothesis import strategies as st

from kenning.lifecycle import confidence as lc

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
times = st.integers(min_value=0, max_value=60 * 60 * 24 * 7 * 60).map(
    lambda s: T0 + timedelta(seconds=s)
)
confidences = st.integers(min_value=0, max_value=100)


def test_extracted_fact_after_eight_weeks_is_exactly_030_and_still_active():
    current = lc.current_confidence(70, T0, None, T0 + timedelta(weeks=8))
    assert current == 30
    assert lc.effective_status("active", current) == "active"


def test_extracted_fact_is_archived_in_the_ninth_week():
    current = lc.current_confidence(70, T0, None, T0 + timedelta(weeks=9))
    assert current == 25
    assert lc.effective_status("active", current) == "archived"


def test_person_fact_after_fourteen_weeks_is_030_and_still_active():
    assert lc.current_confidence(100, T0, None, T0 + timedelta(weeks=14)) == 30
    assert lc.current_confidence(100, T0, None, T0 + timedelta(weeks=15)) == 25


def test_a_week_minus_one_second_does_not_decay():
    assert lc.current_confidence(70, T0, None, T0 + timedelta(weeks=1, seconds=-1)) == 70
    assert lc.current_confidence(70, T0, None, T0 + timedelta(weeks=1)) == 65


def test_use_restarts_the_decay_clock():
    used = T0 + timedelta(weeks=5)
    assert lc.current_confidence(70, T0, used, T0 + timedelta(weeks=6)) == 65


def test_initial_confidence_by_origin():
    assert lc.initial_confidence("user") == 100
    assert lc.initial_confidence("transcript") == 70
    assert lc.initial_confidence("agent") == 70


@given(confidences, times, st.one_of(st.none(), times), times, times)
def test_confidence_never_rises_with_time_alone(conf, confirmed, used, t1, t2):
    """Among dates that count as evidence; one more than a day ahead of the clock does not
    (it decays instead, see test_future_dates.py) until the clock catches up with it."""
    early, late = sorted((t1, t2))
    assume(confirmed <= early + lc.CLOCK_SKEW and (used is None or used <= early + lc.CLOCK_SKEW))
    assert lc.current_confidence(conf, confirmed, used, late) <= lc.current_confidence(
        conf, confirmed, used, early
    )


@given(confidences, times, st.one_of(st.none(), times), times)
def test_confidence_stays_between_zero_and_stored(conf, confirmed, used, now):
    assert 0 <= lc.current_confidence(conf, confirmed, used, now) <= conf


@given(confidences, times, st.one_of(st.none(), times), times)
def test_reconfirmation_gives_at_least_090_and_never_less_than_now(conf, confirmed, used, now):
    value = lc.reconfirmed(conf, confirmed, used, now)
    assert value >= 90
    assert value >= lc.current_confidence(conf, confirmed, used, now)


@given(st.integers(min_value=0, max_value=30))
def test_decay_is_exactly_five_hundredths_per_whole_week(weeks):
    now = T0 + timedelta(weeks=weeks, hours=3)
    assert lc.current_confidence(100, T0, None, now) == max(0, 100 - 5 * weeks)


def _datetime_rule(confidence, confirmed, last_used, now):
    """current_confidence as it was written on datetimes, before lifecycle.decay."""
    dates = [d for d in (confirmed, last_used) if d is not None]
    past = [d for d in dates if d <= now + timedelta(days=1)]
    idle = now - max(past) if past else max(dates) - now
    weeks = idle // timedelta(weeks=1) if idle > timedelta(0) else 0
    return max(0, confidence - 5 * weeks)


# Any microsecond over ±3 years around T0, so week and clock-skew boundaries are hit exactly.
precise = st.integers(min_value=-(10**6) * 86_400 * 1100,
                      max_value=10**6 * 86_400 * 1100).map(
    lambda us: T0 + timedelta(microseconds=us))
edges = st.sampled_from([0, 1, -1]).flatmap(
    lambda d: st.integers(min_value=-60, max_value=60).map(
        lambda w: T0 + timedelta(weeks=w, microseconds=d)))
moments = st.one_of(precise, edges)


@given(confidences, moments, st.one_of(st.none(), moments), moments)
def test_the_microsecond_rule_decays_exactly_as_the_datetime_rule(conf, confirmed, used, now):
    from kenning.core.clock import epoch_us
    from kenning.lifecycle.decay import current_confidence_us

    expected = _datetime_rule(conf, confirmed, used, now)
    assert lc.current_confidence(conf, confirmed, used, now) == expected
    assert current_confidence_us(conf, epoch_us(confirmed),
                                 None if used is None else epoch_us(used),
                                 epoch_us(now)) == expected


def test_the_anchors_map_rewrites_only_the_buckets_that_changed(tmp_path):
    """A sync after an add without anchors rewrites none of the 64 buckets (issue 17: `kenning
    add` within 2x of a search on a 10,000-fact store); a changed entry rewrites its own."""
    import os

    from kenning.lifecycle import anchors

    entry = {"id": "F1", "kind": "codebase", "text": "t", "confidence": 100,
             "confirmed": "2026-01-01", "last_used": None, "symbol": None, "state": "fresh"}
    mapping = {f"src/m{i}.py": [dict(entry, id=f"F{i}")] for i in range(20)}
    anchors.write(str(tmp_path), mapping)
    folder = tmp_path / anchors.DIR_NAME
    before = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    for path in folder.iterdir():  # an old enough mtime that a rewrite is seen
        os.utime(path, ns=(1, 1))
    mapping["src/m3.py"][0]["text"] = "changed"
    anchors.write(str(tmp_path), mapping)
    after = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    changed = anchors.bucket_of("src/m3.py") + ".json"
    assert after.keys() == before.keys()
    assert [name for name, ns in after.items() if ns != 1] == [changed]
    assert anchors.lookup(str(tmp_path), "src/m3.py")[0]["text"] == "changed"
