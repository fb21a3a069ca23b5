"""Two clones change facts concurrently; a real `git merge` through the merge driver."""

import json
from pathlib import Path

import yaml

from conftest import git, init_repo


def setup_clones(tmp_path: Path, kenning) -> tuple[Path, Path, list[str]]:
    origin = init_repo(tmp_path / "origin")
    (origin / "README.md").write_text("demo\n", encoding="utf-8")
    git(origin, "add", ".")
    git(origin, "commit", "-qm", "init")
    assert kenning("-C", str(origin), "init").code == 0
    shared = []
    for text in ("The API uses JWT auth", "Payments go through Stripe", "Logs ship to Loki"):
        out = kenning("-C", str(origin), "add", text, "--origin", "agent", "--json").out
        shared.append(json.loads(out)["id"])
    git(origin, "add", ".kenning")
    git(origin, "commit", "-qm", "shared facts")
    clones = []
    for name in ("alice", "bob"):
        clone = tmp_path / name
        git(tmp_path, "clone", "-q", str(origin), str(clone))
        git(clone, "config", "user.email", f"{name}@example.com")
        git(clone, "config", "user.name", name)
        assert kenning("-C", str(clone), "init").code == 0  # registers the merge driver
        clones.append(clone)
    return clones[0], clones[1], shared


def fact(clone: Path, fact_id: str) -> dict:
    path = clone / ".kenning" / "facts" / f"{fact_id}.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _hours_ahead(hours: int) -> str:
    from datetime import UTC, datetime, timedelta

    return (datetime.now(UTC) + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_two_clones_merge_both_ways_without_conflict(tmp_path, kenning, monkeypatch):
    alice, bob, (forgotten, tagged, _) = setup_clones(tmp_path, kenning)
    new_ids = {"alice": [], "bob": []}
    for clone, name in ((alice, "alice"), (bob, "bob")):
        for n in range(20):
            out = kenning("-C", str(clone), "add", f"{name} learned fact number {n} today",
                          "--json").out
            new_ids[name].append(json.loads(out)["id"])
    # Later edits, within the clock skew a fact's date may run ahead by (see confidence.py).
    monkeypatch.setenv("KENNING_NOW", _hours_ahead(1))
    assert kenning("-C", str(alice), "forget", forgotten).code == 0
    alice_tags = ("--tag", "payments", "--tag", "alice")
    assert kenning("-C", str(alice), "edit", tagged, *alice_tags).code == 0
    monkeypatch.setenv("KENNING_NOW", _hours_ahead(2))
    assert kenning("-C", str(bob), "confirm", forgotten).code == 0
    assert kenning("-C", str(bob), "edit", tagged, "--tag", "payments", "--tag", "bob").code == 0
    for clone in (alice, bob):
        git(clone, "add", ".kenning")
        git(clone, "commit", "-qm", "work")
    git(alice, "fetch", "-q", str(bob), "main:bob")
    git(bob, "fetch", "-q", str(alice), "main:alice")
    git(alice, "merge", "-q", "--no-edit", "bob")
    git(bob, "merge", "-q", "--no-edit", "alice")
    monkeypatch.delenv("KENNING_NOW")
    for clone in (alice, bob):
        assert git(clone, "status", "--porcelain") == ""
        files = {p.stem for p in (clone / ".kenning" / "facts").glob("*.yaml")}
        assert set(new_ids["alice"] + new_ids["bob"]) <= files
        assert len(files) == 43
        assert fact(clone, forgotten)["status"] == "forgotten"
        assert fact(clone, forgotten)["confidence"] == 1.0  # bob's later confirmation
        assert set(fact(clone, tagged)["tags"]) == {"payments", "alice", "bob"}
        listed = kenning("-C", str(clone), "list", "--json").out
        assert len(json.loads(listed)) == 42  # everything but the forgotten one
    assert fact(alice, tagged) == fact(bob, tagged)


def test_a_real_text_conflict_is_left_to_the_person(tmp_path, kenning, monkeypatch):
    alice, bob, (shared, _, _) = setup_clones(tmp_path, kenning)
    monkeypatch.setenv("KENNING_NOW", "2030-01-01T00:00:00Z")
    kenning("-C", str(alice), "edit", shared, "--text", "The API uses session cookies")
    kenning("-C", str(bob), "edit", shared, "--text", "The API uses OAuth tokens")
    for clone in (alice, bob):
        git(clone, "add", ".kenning")
        git(clone, "commit", "-qm", "edit")
    git(alice, "fetch", "-q", str(bob), "main:bob")
    import subprocess

    result = subprocess.run(["git", "merge", "--no-edit", "bob"], cwd=alice,
                            capture_output=True, text=True)
    assert result.returncode != 0
    text = (alice / ".kenning" / "facts" / f"{shared}.yaml").read_text(encoding="utf-8")
    assert "session cookies" in text and "OAuth tokens" in text and "<<<<<<<" in text
    rebuilt = kenning("-C", str(alice), "rebuild")
    assert shared in rebuilt.err and "conflict markers" in rebuilt.err
