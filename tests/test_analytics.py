"""Churn, hotspots and crossover classes on generated repositories with known history."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from kenning.core.paths import current_project
from kenning.index.db import open_index
from kenning.insight.analytics import (
    CLASSES,
    MIN_HIGH_CHURN,
    MIN_MANY_READS,
    Thresholds,
    classify,
    load_churn,
    load_reads,
    percentile,
    thresholds,
)
from kenning.insight.gitlog import sync_git
from kenning.store import eventlog

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def at(days_ago: float) -> str:
    return (NOW - timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


def commit(root: Path, changes: dict[str, str], days_ago: float, message: str = "c") -> None:
    for name, text in changes.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    when = at(days_ago)
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", message], cwd=root, check=True, env=env)


def touch(root: Path, name: str, times: int, start_days_ago: float) -> None:
    """`times` commits changing `name`, one a day from `start_days_ago` towards today."""
    for n in range(times):
        path = root / name
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        commit(root, {name: old + f"line {n}\n"}, start_days_ago - n, f"{name} {n}")


def reads(events: Path, name: str, count: int, days_ago: float = 3, kind: str = "read") -> None:
    for n in range(count):
        eventlog.append(events, {"ts": at(days_ago), "type": kind, "paths": [name],
                                 "session": f"s{n % 4}", "tool": "Read"})


# ---- pure parts ---------------------------------------------------------------------------
def test_percentile_is_nearest_rank():
    assert percentile([], 75) == 0
    assert percentile([5], 75) == 5
    assert percentile([1, 1, 1, 1, 2, 5, 6, 6], 75) == 5
    assert percentile([4, 1, 3, 2], 50) == 2
    assert percentile([4, 1, 3, 2], 100) == 4


def test_thresholds_ignore_zeros_and_keep_their_floors():
    t = thresholds([0, 0, 0, 1, 1, 1], [0, 1, 1])
    assert (t.high_churn, t.many_reads) == (MIN_HIGH_CHURN, MIN_MANY_READS)
    t = thresholds([0] * 100 + [3, 8, 9, 10], [0] * 50 + [2, 20, 30, 40])
    assert (t.high_churn, t.many_reads) == (9, 30)


@given(st.integers(0, 50), st.integers(0, 50), st.integers(1, 20), st.integers(1, 20))
def test_every_file_gets_exactly_the_class_the_table_defines(commits, reads_, high, many):
    t = Thresholds(high, many)
    cls = classify(commits, reads_, t)
    assert cls in CLASSES
    hi, lots = commits >= high, reads_ >= many
    expected = {
        "BLIND": hi and reads_ == 0,
        "TURBULENT": hi and 0 < reads_ < many,
        "HOT": hi and lots,
        "STABLE": not hi and lots,
        "ZOMBIE": not hi and not lots and commits == 0 and reads_ > 0,
        "COLD": not hi and not lots and not (commits == 0 and reads_ > 0),
    }
    assert [k for k, v in expected.items() if v] == [cls]


def test_crossover_is_monotonic_in_churn():
    t = Thresholds(5, 4)
    for r in range(0, 10):
        classes = [classify(c, r, t) for c in range(0, 12)]
        high = {"BLIND", "TURBULENT", "HOT"}
        first_high = next(i for i, c in enumerate(classes) if c in high)
        assert all(c in high for c in classes[first_high:])


# ---- acceptance: a generated repository and event log -------------------------------------
EXPECTED = {
    "src/blind.py": "BLIND",          # 6 commits, no read in the window
    "src/turbulent.py": "TURBULENT",  # 5 commits, 1 read
    "src/hot.py": "HOT",              # 6 commits, 9 reads
    "src/stable.py": "STABLE",        # 1 commit, 9 reads
    "docs/old_core.md": "STABLE",     # no churn in the window, 10 reads
    "src/zombie.py": "ZOMBIE",        # no churn in the window, 2 reads
    "src/cold.py": "COLD",            # 1 commit in the window (3 before it), 1 read
    "src/quiet.py": "COLD",           # nothing at all in the window
    "src/filler_a.py": "COLD",        # 1 commit
    "src/filler_b.py": "COLD",        # 1 commit
    "src/filler_c.py": "COLD",        # 2 commits, below the P75 threshold of 5
    "README.md": "COLD",
}


def build_project(root: Path) -> None:
    from conftest import init_repo

    init_repo(root)
    # before the 90-day window
    commit(root, {"README.md": "# demo\n", "src/zombie.py": "z = 1\n", "src/quiet.py": "q\n",
                  "docs/old_core.md": "# core\n"}, 200, "start")
    touch(root, "src/cold.py", 3, 150)
    # inside the window
    touch(root, "src/blind.py", 6, 60)
    touch(root, "src/turbulent.py", 5, 50)
    touch(root, "src/hot.py", 6, 40)
    touch(root, "src/stable.py", 1, 30)
    touch(root, "src/cold.py", 1, 20)
    touch(root, "src/filler_a.py", 1, 15)
    touch(root, "src/filler_b.py", 1, 14)
    touch(root, "src/filler_c.py", 2, 13)


def write_events(events: Path) -> None:
    reads(events, "src/blind.py", 4, days_ago=120)  # too old to count
    reads(events, "src/turbulent.py", 1)
    reads(events, "src/hot.py", 9)
    reads(events, "src/hot.py", 2, kind="edit")
    reads(events, "src/stable.py", 9)
    reads(events, "docs/old_core.md", 10)
    reads(events, "src/zombie.py", 2)
    reads(events, "src/cold.py", 1)
    reads(events, "src/gone.py", 5)  # not a project file any more: ignored
    eventlog.append(events, {"ts": at(1), "type": "search", "pattern": "x", "paths": ["src"]})


def test_every_file_of_a_generated_repo_gets_its_known_class(kenning, isolated, monkeypatch):
    build_project(isolated)
    write_events(current_project().events_path)
    monkeypatch.setenv("KENNING_NOW", at(0))
    result = kenning("analyze", "crossover", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["thresholds"]["high_churn"] == 5 and data["thresholds"]["many_reads"] == 9
    got = {row["path"]: row["cls"] for row in data["files"]}
    assert got == EXPECTED
    counts = data["counts"]
    assert counts == {"BLIND": 1, "TURBULENT": 1, "HOT": 1, "STABLE": 2, "ZOMBIE": 1,
                      "COLD": 6}
    hot = next(r for r in data["files"] if r["path"] == "src/hot.py")
    assert (hot["commits"], hot["reads"], hot["edits"]) == (6, 9, 2)
    only = json.loads(kenning("analyze", "crossover", "--class", "zombie", "--json").out)
    assert [r["path"] for r in only["files"]] == ["src/zombie.py"]


def test_all_history_window_changes_the_picture(kenning, isolated, monkeypatch):
    build_project(isolated)
    monkeypatch.setenv("KENNING_NOW", at(0))
    data = json.loads(kenning("analyze", "churn", "--days", "0", "--json", "-n", "0").out)
    by_path = {r["path"]: r["commits"] for r in data}
    assert by_path["src/cold.py"] == 4 and by_path["src/zombie.py"] == 1
    data = json.loads(kenning("analyze", "churn", "--json", "-n", "0").out)
    assert {r["path"]: r["commits"] for r in data}.get("src/zombie.py") is None


def test_hotspots_weight_commits_by_size(kenning, isolated, monkeypatch):
    build_project(isolated)
    (isolated / "src" / "turbulent.py").write_text("x\n" * 100, encoding="utf-8")
    monkeypatch.setenv("KENNING_NOW", at(0))
    rows = json.loads(kenning("analyze", "hotspots", "--json").out)
    assert rows[0]["path"] == "src/turbulent.py"
    assert rows[0]["score"] == 5 * 100 and rows[0]["loc"] == 100
    text = kenning("analyze", "hotspots").out
    assert "score = commits × lines" in text


def test_churn_follows_a_rename_but_not_a_new_file_with_the_old_name(isolated, tmp_path):
    from conftest import init_repo

    init_repo(isolated)
    commit(isolated, {"a.py": "1\n"}, 10)
    commit(isolated, {"a.py": "1\n2\n"}, 9)
    subprocess.run(["git", "mv", "a.py", "b.py"], cwd=isolated, check=True)
    commit(isolated, {}, 8, "rename")
    commit(isolated, {"b.py": "1\n2\n3\n"}, 7)
    commit(isolated, {"a.py": "new\n"}, 6, "a new a.py")
    conn, _ = open_index(tmp_path / "i.db")
    sync_git(conn, isolated)
    churn = load_churn(conn)
    assert churn["b.py"].commits == 4 and churn["b.py"].added == 3
    assert churn["a.py"].commits == 1


def test_reads_count_within_the_window_only(tmp_path):
    events = tmp_path / "events.jsonl"
    reads(events, "a.py", 3, days_ago=10)
    reads(events, "a.py", 2, days_ago=100)
    reads(events, "a.py", 1, days_ago=5, kind="edit")
    eventlog.append(events, {"ts": at(1), "type": "read", "paths": ["b\\c.py"], "session": "x"})
    seen = load_reads(events, NOW - timedelta(days=90))
    assert (seen["a.py"].reads, seen["a.py"].edits, seen["a.py"].sessions) == (3, 1, 3)
    assert seen["b/c.py"].reads == 1
    assert load_reads(events)["a.py"].reads == 5


def test_analyze_outside_git_still_classifies_by_reads(kenning, isolated, monkeypatch):
    (isolated / "notes.md").write_text("hi\n", encoding="utf-8")
    reads(current_project().events_path, "notes.md", 2)
    monkeypatch.setenv("KENNING_NOW", at(0))
    result = kenning("analyze", "crossover", "--json")
    assert result.code == 0
    assert "not a git repository" in result.err
    assert json.loads(result.out)["files"] == [
        {"path": "notes.md", "cls": "ZOMBIE", "commits": 0, "reads": 2, "edits": 0,
         "lines_changed": 0}]
