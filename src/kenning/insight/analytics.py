"""Churn, hotspots and the churn × attention crossover (`kenning analyze`).

Two signals per file over one window (default: the last 90 days):

- **churn**: commits that changed the file (from `kenning git-sync`; renames followed);
- **reads**: `read` events the plugin logged for it (agent attention; edits counted apart).

Crossover classes, with thresholds relative to the project rather than fixed numbers:

- *high churn* means `commits >= max(P75 of the non-zero commit counts, 2)`;
- *many reads* means `reads >= max(P75 of the non-zero read counts, 3)`.

Percentiles are nearest-rank (the smallest value with at least 75 % of the non-zero values
at or below it), so thresholds are always values a real file has. Files with no churn (or no
reads) in the window are left out of the percentile, otherwise a big, quiet repository would
make one change look "high". The floors keep a small project from calling a single change
high churn or two reads "many".

| class      | churn        | reads               | reading                                   |
|------------|--------------|---------------------|-------------------------------------------|
| BLIND      | high         | none                | changes a lot, nobody (no agent) reads it |
| TURBULENT  | high         | some, not many      | changes faster than it is understood      |
| HOT        | high         | many                | where the work is                         |
| STABLE     | low or none  | many                | read a lot, rarely changed: a foundation  |
| ZOMBIE     | none         | some, not many      | still read, never changed: dead weight?   |
| COLD       | low or none  | few or none         | quiet (ZOMBIE takes the no-churn readers) |

Every file lands in exactly one class (tested); the table above is the precedence.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.store.events import file_touches, iter_events

if TYPE_CHECKING:
    from kenning.index.facts import FactIndex

CLASSES = ("BLIND", "TURBULENT", "HOT", "STABLE", "ZOMBIE", "COLD")
CHURN_PERCENTILE = 75
READS_PERCENTILE = 75
MIN_HIGH_CHURN = 2  # commits
MIN_MANY_READS = 3  # read events
DEFAULT_DAYS = 90
READ_TYPES = ("read",)
EDIT_TYPES = ("edit",)


# ---- records ------------------------------------------------------------------------------
@dataclass(frozen=True)
class FileChurn:
    path: str
    commits: int
    added: int
    deleted: int
    authors: int
    last_change: int  # unix seconds

    @property
    def lines_changed(self) -> int:
        return self.added + self.deleted


@dataclass(frozen=True)
class FileReads:
    path: str
    reads: int
    edits: int
    sessions: int  # distinct sessions that read or edited it
    last_seen: str | None


@dataclass(frozen=True)
class Window:
    since: datetime | None  # None: all history
    until: datetime

    @property
    def since_ts(self) -> int | None:
        return int(self.since.timestamp()) if self.since else None

    def describe(self) -> str:
        if self.since is None:
            return "all history"
        return f"last {(self.until - self.since).days} days"


@dataclass(frozen=True)
class Thresholds:
    high_churn: int
    many_reads: int
    churn_percentile: int = CHURN_PERCENTILE
    reads_percentile: int = READS_PERCENTILE


@dataclass(frozen=True)
class CrossoverRow:
    path: str
    cls: str
    commits: int
    reads: int
    edits: int
    lines_changed: int


@dataclass(frozen=True)
class Hotspot:
    path: str
    commits: int
    lines_changed: int
    loc: int  # current lines of the file
    score: int  # commits × loc: change frequency weighted by size
    reads: int


@dataclass
class Signals:
    """Everything the analyses need, gathered once."""

    window: Window
    files: list[str]  # the project's current files (the population)
    churn: dict[str, FileChurn]
    reads: dict[str, FileReads]
    root: Path | None = None
    notes: list[str] = field(default_factory=list)


# ---- pure parts ---------------------------------------------------------------------------
def percentile(values: Iterable[int], pct: float) -> int:
    """Nearest-rank percentile of the values (0 for none)."""
    ordered = sorted(values)
    if not ordered:
        return 0
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def thresholds(
    commits: Iterable[int],
    reads: Iterable[int],
    churn_pct: int = CHURN_PERCENTILE,
    reads_pct: int = READS_PERCENTILE,
) -> Thresholds:
    """Project-relative cut-offs from the non-zero commit and read counts."""
    high = max(percentile([c for c in commits if c > 0], churn_pct), MIN_HIGH_CHURN)
    many = max(percentile([r for r in reads if r > 0], reads_pct), MIN_MANY_READS)
    return Thresholds(high, many, churn_pct, reads_pct)


def classify(commits: int, reads: int, t: Thresholds) -> str:
    """The crossover class of one file (see the module docstring's table)."""
    if commits >= t.high_churn:
        if reads == 0:
            return "BLIND"
        return "HOT" if reads >= t.many_reads else "TURBULENT"
    if reads >= t.many_reads:
        return "STABLE"
    if commits == 0 and reads > 0:
        return "ZOMBIE"
    return "COLD"


def crossover(
    signals: Signals, t: Thresholds | None = None
) -> tuple[Thresholds, list[CrossoverRow]]:
    """Every project file with its class, most pressing classes first."""
    files = signals.files
    commits = {p: signals.churn[p].commits if p in signals.churn else 0 for p in files}
    reads = {p: signals.reads[p].reads if p in signals.reads else 0 for p in files}
    t = t or thresholds(commits.values(), reads.values())
    rows = []
    for path in files:
        churn = signals.churn.get(path)
        seen = signals.reads.get(path)
        rows.append(CrossoverRow(
            path, classify(commits[path], reads[path], t), commits[path], reads[path],
            seen.edits if seen else 0, churn.lines_changed if churn else 0,
        ))
    order = {c: n for n, c in enumerate(CLASSES)}
    rows.sort(key=lambda r: (order[r.cls], -r.commits, -r.reads, r.path))
    return t, rows


def class_counts(rows: Iterable[CrossoverRow]) -> dict[str, int]:
    counts = dict.fromkeys(CLASSES, 0)
    for row in rows:
        counts[row.cls] += 1
    return counts


def hotspots(signals: Signals, limit: int | None = 20) -> list[Hotspot]:
    """Files that change often and are big: commits × current line count, highest first."""
    out = []
    present = set(signals.files)
    for path, churn in signals.churn.items():
        if path not in present or churn.commits == 0:
            continue
        loc = _line_count(signals.root / path) if signals.root else 0
        seen = signals.reads.get(path)
        out.append(Hotspot(path, churn.commits, churn.lines_changed, loc,
                           churn.commits * max(loc, 1), seen.reads if seen else 0))
    out.sort(key=lambda h: (-h.score, -h.commits, h.path))
    return out[:limit] if limit else out


def churn_ranking(signals: Signals, limit: int | None = 20) -> list[FileChurn]:
    present = set(signals.files)
    rows = [c for p, c in signals.churn.items() if p in present and c.commits]
    rows.sort(key=lambda c: (-c.commits, -c.lines_changed, c.path))
    return rows[:limit] if limit else rows


# ---- gathering ----------------------------------------------------------------------------
def window(now: datetime, days: int | None = DEFAULT_DAYS) -> Window:
    return Window(now - timedelta(days=days) if days else None, now)


def load_churn(conn: sqlite3.Connection, since_ts: int | None = None) -> dict[str, FileChurn]:
    """Per-file churn from the synced commits, following renames to today's path."""
    rows = conn.execute(
        "SELECT c.ts, c.author, c.sha, f.path, f.old_path, f.added, f.deleted "
        "FROM commit_files f JOIN commits c ON c.sha = f.sha ORDER BY c.rowid DESC"
    ).fetchall()
    alias: dict[str, str] = {}  # a path as it was at that time -> its path today
    acc: dict[str, list] = {}
    for ts, author, sha, path, old_path, added, deleted in rows:
        final = alias.get(path, path)
        if old_path and old_path != path:
            # Older commits name this file `old_path`; an older `path` was another file.
            alias.pop(path, None)
            alias[old_path] = final
        if since_ts is not None and ts < since_ts:
            continue
        entry = acc.setdefault(final, [set(), 0, 0, set(), 0])
        entry[0].add(sha)
        entry[1] += added or 0
        entry[2] += deleted or 0
        entry[3].add(author)
        entry[4] = max(entry[4], ts)
    return {p: FileChurn(p, len(e[0]), e[1], e[2], len(e[3]), e[4]) for p, e in acc.items()}


def load_reads(events_path: Path, since: datetime | None = None) -> dict[str, FileReads]:
    """Per-file read and edit counts from the event log (within the window)."""
    cutoff = since.strftime("%Y-%m-%dT%H:%M:%S") if since else None
    acc: dict[str, list] = {}
    for touch in file_touches(iter_events(events_path), since=cutoff):
        entry = acc.setdefault(touch.path, [0, 0, set(), None])
        entry[0 if touch.kind in READ_TYPES else 1] += 1
        if touch.session:
            entry[2].add(touch.session)
        entry[3] = max(entry[3] or "", touch.ts) or None
    return {p: FileReads(p, e[0], e[1], len(e[2]), e[3]) for p, e in acc.items()}


def project_files(root: Path, ignore: Iterable[str] = ()) -> list[str]:
    """The project's current files (git's view, else a walk), minus ignored ones."""
    from kenning.index.scan import git_files, matches_any, walk_files

    names = git_files(root)
    if names is None:
        names = walk_files(root)
    ignore = tuple(ignore)
    return [n for n in names if not matches_any(n, ignore) and (root / n).is_file()]


def gather(
    conn: sqlite3.Connection,
    root: Path,
    events_path: Path,
    now: datetime,
    *,
    days: int | None = DEFAULT_DAYS,
    ignore: Iterable[str] = (),
    files: list[str] | None = None,
) -> Signals:
    """Read churn (already synced into `conn`), reads and the file list for one window."""
    win = window(now, days)
    signals = Signals(
        window=win,
        files=files if files is not None else project_files(root, ignore),
        churn=load_churn(conn, win.since_ts),
        reads=load_reads(events_path, win.since),
        root=root,
    )
    if not conn.execute("SELECT 1 FROM commits LIMIT 1").fetchone():
        signals.notes.append("no git history synced: run `kenning git-sync` in a git repository")
    return signals


def _line_count(path: Path) -> int:
    try:
        with path.open("rb") as handle:
            data = handle.read(4 * 1024 * 1024)
    except OSError:
        return 0
    if b"\0" in data[:8192]:
        return 0
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def analyze(memory: FactIndex, *, days: int | None = DEFAULT_DAYS, ignore: Iterable[str] = (),
            sync: bool = True) -> Signals:
    """Sync git history into `memory`'s index (new commits only), then gather the signals.

    An index a newer kenning wrote is read as it is: analysis reads, so it is not refused.
    """
    from kenning.insight.gitlog import sync_git

    notes: list[str] = []
    if sync and not memory.index.is_writable():
        notes = ["the index was written by a newer kenning: git history read as it is, not "
                 "synced (upgrade kenning to sync it)"]
    elif sync:
        notes = sync_git(memory.index.conn, memory.project.root).notes
    signals = gather(memory.index.conn, memory.project.root, memory.project.events_path,
                     memory.clock(), days=days, ignore=ignore)
    signals.notes = notes or signals.notes
    return signals
