"""git-sync: parsing `git log --numstat`, incremental syncs, rewritten history."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from conftest import init_repo
from kenning.index.db import open_index
from kenning.insight.gitlog import LOG_FORMAT, parse_log, read_commits, sync_git


def commit(root: Path, files: dict[str, str], message: str, when: str | None = None) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    env = dict(os.environ)
    if when:
        env.update(GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", message], cwd=root, check=True, env=env)


def test_parse_log_reads_counts_renames_and_binaries():
    raw = (
        b"\x1eaaa\x1f1700000000\x1fAda\x1fone\0\n3\t1\tsrc/a.py\0-\t-\tlogo.png\0"
        b"\x1ebbb\x1f1700000100\x1fBo\x1fmove it\0\n2\t0\t\0src/a.py\0src/b.py\0"
        b"\x1eccc\x1f1700000200\x1fBo\x1fmerge\0"
    )
    commits = list(parse_log(raw))
    assert [c.sha for c in commits] == ["aaa", "bbb", "ccc"]
    first, move, merge = commits
    assert [(f.path, f.added, f.deleted) for f in first.files] == [("src/a.py", 3, 1),
                                                                     ("logo.png", 0, 0)]
    assert move.files[0].path == "src/b.py" and move.files[0].old_path == "src/a.py"
    assert move.ts == 1700000100 and move.author == "Bo" and move.subject == "move it"
    assert merge.files == ()


def test_read_commits_matches_what_git_did(repo: Path):
    commit(repo, {"src/app.py": "a\nb\n"}, "add app")
    subprocess.run(["git", "mv", "src/app.py", "src/main.py"], cwd=repo, check=True)
    commit(repo, {"src/main.py": "a\nb\nc\n"}, "rename and grow")
    commits = read_commits(repo)
    assert [c.subject for c in commits] == ["init", "add app", "rename and grow"]
    last = commits[-1].files
    assert [(f.path, f.old_path, f.added) for f in last] == [("src/main.py", "src/app.py", 1)]
    assert "%H" in LOG_FORMAT


def test_sync_is_incremental_and_survives_rewritten_history(repo: Path, tmp_path: Path):
    conn, _ = open_index(tmp_path / "index.db")
    first = sync_git(conn, repo)
    assert (first.commits, first.full, first.total_commits) == (1, True, 1)
    assert sync_git(conn, repo).commits == 0
    commit(repo, {"a.txt": "1\n"}, "a")
    commit(repo, {"a.txt": "1\n2\n"}, "a again")
    second = sync_git(conn, repo)
    assert (second.commits, second.full, second.total_commits) == (2, False, 3)
    # amend the last commit: the synced head is no longer an ancestor -> read from scratch
    (repo / "a.txt").write_text("1\n2\n3\n", encoding="utf-8")
    subprocess.run(["git", "commit", "-qa", "--amend", "-m", "a again, amended"], cwd=repo,
                   check=True)
    third = sync_git(conn, repo)
    assert third.full and third.total_commits == 3
    subjects = {r[0] for r in conn.execute("SELECT subject FROM commits")}
    assert "a again" not in subjects and "a again, amended" in subjects
    rows = conn.execute("SELECT count(*) FROM commit_files WHERE path = 'a.txt'").fetchone()
    assert rows[0] == 2


def test_sync_outside_git_says_so_and_keeps_nothing(isolated: Path, tmp_path: Path):
    conn, _ = open_index(tmp_path / "index.db")
    report = sync_git(conn, isolated)
    assert report.head is None and "not a git repository" in report.notes[0]
    empty = init_repo(tmp_path / "fresh")
    assert "no commits" in sync_git(conn, empty).notes[0]


def test_git_sync_command_reports_counts(kenning, repo: Path):
    commit(repo, {"x.py": "print(1)\n"}, "x")
    result = kenning("git-sync")
    assert result.code == 0, result.err
    assert "read 2 commits" in result.out and "from the start" in result.out
    again = json.loads(kenning("git-sync", "--json").out)
    assert again["commits"] == 0 and again["total_commits"] == 2
