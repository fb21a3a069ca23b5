"""Weeks of decay on a frozen clock, through the CLI: archival view, review, restore,
re-confirmation, a person's correction. The fact files only change on a person's action or
new evidence, and deleting the index changes none of it."""

import json
from datetime import UTC, datetime, timedelta

import pytest

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


@pytest.fixture
def at(monkeypatch):
    def set_week(weeks: float) -> None:
        moment = T0 + timedelta(weeks=weeks)
        monkeypatch.setenv("KENNING_NOW", moment.strftime("%Y-%m-%dT%H:%M:%SZ"))

    return set_week


def add(kenning, *args) -> str:
    result = kenning("add", "--json", *args)
    assert result.code == 0, result.err
    return json.loads(result.out)["id"]


def listing(kenning) -> dict[str, tuple[str, float]]:
    rows = json.loads(kenning("list", "--all", "--json").out)
    return {r["id"]: (r["status"], r["confidence"]) for r in rows}


def fact_files(repo) -> dict[str, str]:
    from kenning.core.paths import current_project

    directory = current_project().personal_facts_dir
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(directory.glob("*.yaml"))}


def test_weeks_of_decay_review_restore_and_correction(kenning, repo, at):
    at(0)
    idle = add(kenning, "--origin", "agent", "Deploys go out from the deploy-bot account.")
    used = add(kenning, "--origin", "agent", "Feature flags live in flags.yaml at the root.")
    person = add(kenning, "The staging database is reset every night.")
    written = fact_files(repo)

    at(5)  # a search returns `used`: its decay restarts from here
    assert used in kenning("search", "feature flags yaml").out

    at(8)  # 0.70 - 8 x 0.05 is exactly 0.30: still active, archived next week
    assert listing(kenning)[idle] == ("active", 0.30)
    report = json.loads(kenning("decay", "--json").out)
    assert [r["id"] for r in report["next_week"]] == [idle]
    assert report["archived"] == []

    at(9)
    assert listing(kenning)[idle] == ("archived", 0.25)
    assert listing(kenning)[used] == ("active", 0.50)
    assert listing(kenning)[person] == ("active", 0.55)
    assert [r["id"] for r in json.loads(kenning("decay", "--json").out)["archived"]] == [idle]
    assert "Deploys" not in kenning("search", "deploy bot account").out
    assert fact_files(repo) == written  # decay and search wrote no fact file

    queue = json.loads(kenning("review", "--json").out)
    assert [(i["kind"], i["ids"]) for i in queue if i["kind"] == "archived"] == [
        ("archived", [idle])]
    assert kenning("review", "restore", idle).code == 0
    assert listing(kenning)[idle] == ("active", 0.90)

    at(10)  # new evidence re-confirms the person's fact: max(current 0.50, 0.90)
    again = add(kenning, "--origin", "agent", "The staging database is reset every night.")
    assert again == person
    assert listing(kenning)[person] == ("active", 0.90)

    at(11)  # a person's correction: 1.00
    kenning("review", "edit", used, "--text", "Feature flags live in config/flags.yaml.")
    assert listing(kenning)[used] == ("active", 1.00)

    at(30)
    assert listing(kenning)[idle][0] == "archived"  # 0.90 at week 9 is 0.00 by week 30
    kenning("review", "archive", idle)
    before = listing(kenning)
    assert before[idle] == ("archived", 0.0)

    # deleting the index changes none of it: files and the event log are the truth
    from kenning.core.paths import current_project

    current_project().index_path.unlink()
    assert listing(kenning) == before


def test_decay_dry_run_reads_the_index_as_it_is(kenning, repo, at):
    at(0)
    fid = add(kenning, "--origin", "agent", "Deploys go out from the deploy-bot account.")
    kenning("list")  # brings the index up to date
    at(9)
    result = kenning("decay", "--dry-run")
    assert result.code == 0
    assert "archived by decay: 1" in result.out and fid in result.out
    assert "kenning review" in result.out
    # archived facts are found on request (and that counts as use, per docs/design.md)
    assert "Deploys" in kenning("search", "--include-archived", "deploy bot account").out


def test_decay_lists_nothing_on_a_fresh_project(kenning, repo, at):
    at(0)
    add(kenning, "The staging database is reset every night.")
    out = kenning("decay").out
    assert "archived by decay: 0" in out
    assert "archived next week unless used or confirmed: 0" in out
