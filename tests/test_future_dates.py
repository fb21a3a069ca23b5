"""A fact dated in the future decays like any other instead of keeping full confidence."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from kenning.lifecycle.confidence import ARCHIVE_BELOW, current_confidence

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


def test_a_confirmation_years_ahead_is_not_evidence() -> None:
    ahead = NOW.replace(year=2099)
    assert current_confidence(100, ahead, None, NOW) < ARCHIVE_BELOW


def test_a_clock_a_few_hours_ahead_is_tolerated() -> None:
    assert current_confidence(100, NOW + timedelta(hours=20), None, NOW) == 100


def test_use_today_counts_even_when_the_confirmation_is_in_the_future() -> None:
    ahead = NOW.replace(year=2099)
    assert current_confidence(100, ahead, NOW - timedelta(days=1), NOW) == 100


def test_a_fact_file_dated_in_2099_is_listed_as_archived(kenning, monkeypatch) -> None:
    monkeypatch.setenv("KENNING_NOW", "2026-03-01T12:00:00Z")
    added = json.loads(kenning("add", "Deploys go through the staging cluster", "--json").out)
    path = next(p for p in _fact_files() if added["id"] in p.name)
    text = path.read_text(encoding="utf-8")
    text = text.replace("confirmed: '2026-03-01T12:00:00Z'", "confirmed: '2099-01-01T00:00:00Z'")
    text = text.replace("confirmed: 2026-03-01T12:00:00Z", "confirmed: 2099-01-01T00:00:00Z")
    assert "2099" in text, text
    path.write_text(text, encoding="utf-8")
    listed = json.loads(kenning("list", "--all", "--json").out)
    assert [f["status"] for f in listed if f["id"] == added["id"]] == ["archived"]


def _fact_files():
    import os
    from pathlib import Path

    home = Path(os.environ["KENNING_HOME"])
    return list(home.rglob("facts/*.yaml")) + list(Path.cwd().rglob(".kenning/facts/*.yaml"))
