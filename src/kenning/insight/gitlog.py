"""`kenning git-sync`: commits and per-file line counts from `git log`, into the index.

Incremental: the index remembers the HEAD it last read; the next sync reads only the
commits after it. When that commit is no longer an ancestor of HEAD (a rebase, a branch
switch), the history is read again from scratch. Like the rest of the index this is derived
data: `kenning rebuild` drops it and the next sync restores it.

Renames are detected (`-M`) and recorded with their old path so churn follows a file
across a move. Merge commits carry no file rows (git's default for `--numstat`), so a
change is counted once, in the commit that made it.
"""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kenning.core.errors import KenningError
from kenning.index.db import ensure_writable, get_meta, set_meta, transaction

RECORD = "\x1e"
UNIT = "\x1f"
LOG_FORMAT = f"{RECORD}%H{UNIT}%at{UNIT}%an{UNIT}%s"


@dataclass(frozen=True)
class FileChange:
    path: str
    added: int  # 0 for binary files
    deleted: int
    old_path: str | None = None  # set when git saw a rename


@dataclass(frozen=True)
class Commit:
    sha: str
    ts: int  # author time, unix seconds
    author: str
    subject: str
    files: tuple[FileChange, ...] = ()


@dataclass
class GitSyncReport:
    commits: int = 0  # commits read in this sync
    file_changes: int = 0
    full: bool = False  # True when history was (re)read from the start
    head: str | None = None
    total_commits: int = 0
    notes: list[str] = field(default_factory=list)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except OSError as exc:
        raise KenningError(f"cannot run git ({exc}); install git to use git-sync") from exc


def head_commit(root: Path) -> str | None:
    """HEAD's sha, or None outside git or in a repository without commits."""
    result = _git(root, "rev-parse", "--verify", "-q", "HEAD")
    if result.returncode != 0:
        return None
    return result.stdout.decode("ascii", "replace").strip() or None


def is_ancestor(root: Path, older: str, newer: str) -> bool:
    return _git(root, "merge-base", "--is-ancestor", older, newer).returncode == 0


def parse_log(data: bytes) -> Iterator[Commit]:
    """Parse `git log -z --numstat -M --format=LOG_FORMAT` output.

    Each record is a header line, then NUL-separated numstat entries: `added\\tdeleted\\tpath`,
    or for a rename `added\\tdeleted\\t` followed by the old and the new path as two fields.
    """
    # A name or message that is not UTF-8 keeps its bytes as `\xff` text: SQLite stores
    # UTF-8 only, and one odd commit must not stop the history.
    text = data.decode("utf-8", "backslashreplace")
    for record in text.split(RECORD):
        if not record.strip("\0\n"):
            continue
        header, _, rest = record.partition("\0")
        parts = header.split(UNIT)
        if len(parts) < 4:
            continue
        sha, ts, author, subject = parts[0], parts[1], parts[2], UNIT.join(parts[3:])
        fields = rest.split("\0")
        files: list[FileChange] = []
        n = 0
        while n < len(fields):
            item = fields[n].lstrip("\n")
            n += 1
            if not item:
                continue
            counts = item.split("\t", 2)
            if len(counts) != 3:
                continue
            added, deleted, path = counts
            old_path = None
            if not path:  # a rename: old and new path follow as their own fields
                if n + 1 >= len(fields):
                    break
                old_path, path = fields[n], fields[n + 1]
                n += 2
            files.append(FileChange(path, _count(added), _count(deleted), old_path))
        yield Commit(sha, int(ts or 0), author, subject, tuple(files))


def _count(value: str) -> int:
    return int(value) if value.isdigit() else 0  # "-" marks a binary file


def read_commits(root: Path, since: str | None = None) -> list[Commit]:
    """Commits reachable from HEAD (after `since` if given), oldest first."""
    spec = f"{since}..HEAD" if since else "HEAD"
    result = _git(root, "log", "-z", "--numstat", "-M", "--reverse", f"--format={LOG_FORMAT}",
                  spec, "--")
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip()
        raise KenningError(f"git log failed in {root}: {message}")
    return list(parse_log(result.stdout))


def sync_git(conn: sqlite3.Connection, root: Path) -> GitSyncReport:
    """Bring the index's commit tables up to date with HEAD (new commits only)."""
    ensure_writable(conn)
    report = GitSyncReport()
    head = head_commit(root)
    report.head = head
    if head is None:
        if (root / ".git").exists():
            report.notes.append("the repository has no commits yet")
        else:
            report.notes.append(f"{root} is not a git repository; churn needs git history")
        _clear(conn)
        return report
    last = get_meta(conn, "git_head")
    if last == head:
        report.total_commits = _total(conn)
        return report
    since = last if last and is_ancestor(root, last, head) else None
    commits = read_commits(root, since)
    with transaction(conn):
        if since is None:
            report.full = True
            _clear(conn)
        for commit in commits:
            conn.execute(
                "INSERT OR IGNORE INTO commits(sha, ts, author, subject) VALUES (?, ?, ?, ?)",
                (commit.sha, commit.ts, commit.author, commit.subject[:300]),
            )
            conn.execute("DELETE FROM commit_files WHERE sha = ?", (commit.sha,))
            conn.executemany(
                "INSERT INTO commit_files(sha, path, old_path, added, deleted) "
                "VALUES (?, ?, ?, ?, ?)",
                [(commit.sha, f.path, f.old_path, f.added, f.deleted) for f in commit.files],
            )
            report.file_changes += len(commit.files)
        report.commits = len(commits)
        set_meta(conn, "git_head", head)
    report.total_commits = _total(conn)
    return report


def _clear(conn: sqlite3.Connection) -> None:
    if not conn.in_transaction:
        with transaction(conn):
            _clear(conn)
        return
    conn.execute("DELETE FROM commits")
    conn.execute("DELETE FROM commit_files")
    conn.execute("DELETE FROM meta WHERE key = 'git_head'")


def _total(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT count(*) FROM commits").fetchone()[0]
