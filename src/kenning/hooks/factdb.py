"""Read-only fact queries for hooks: plain sqlite3 on the index, never sqlite_utils.

The index is derived and may be missing (never synced) or stale; hooks then inject less,
never fail. Nothing here creates the index file.
"""

from __future__ import annotations

import math
import os
import sqlite3
from datetime import UTC, datetime

from .. import lifecycle
from ..textutil import fts_or_query

# bm25 column weights: text, rationale, tags, identifier terms + anchors (as index.reader)
BM25_WEIGHTS = "1.0, 0.5, 0.8, 0.6"
# Relevance = -bm25 / ln(N + 1): BM25 grows with the log of the corpus size through IDF, so
# dividing by it keeps one threshold valid from 200 facts to 10,000. Calibrated on
# tests/fixtures/hooks/relevance.json (see tests/test_hooks_relevance.py and the report).
RELEVANCE_THRESHOLD = 0.55
# Further facts must score at least this share of the best one.
RELATIVE_CUT = 0.5
CANDIDATES = 30


class FactRow:
    __slots__ = ("id", "kind", "text", "confidence", "current", "about", "score", "tags")

    def __init__(self, row: tuple, now: datetime, score: float = 0.0):
        (self.id, self.kind, self.text, stored, confirmed, last_used, self.about,
         self.tags) = row
        self.confidence = int(stored or 0)
        self.current = lifecycle.current_confidence(
            self.confidence, _time(confirmed) or now, _time(last_used), now)
        self.score = score


_COLUMNS = ("f.id, f.kind, f.text, f.confidence, f.confirmed, u.last_used, f.about, f.tags")


def _time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def connect(index_path: str) -> sqlite3.Connection | None:
    if not os.path.exists(index_path):
        return None
    conn = sqlite3.connect(index_path, timeout=0.5, isolation_level=None)
    conn.execute("PRAGMA query_only=1")
    return conn


def fact_count(conn: sqlite3.Connection) -> int:
    try:
        return int(conn.execute("SELECT count(*) FROM facts").fetchone()[0])
    except sqlite3.Error:
        return 0


def prompt_matches(conn: sqlite3.Connection, prompt: str, now: datetime,
                   limit: int = CANDIDATES) -> list[FactRow]:
    """Active facts matching the prompt's terms, best first, with normalised relevance."""
    match = fts_or_query(prompt)
    if not match:
        return []
    total = fact_count(conn)
    if not total:
        return []
    try:
        rows = conn.execute(
            f"SELECT {_COLUMNS}, bm25(facts_fts, {BM25_WEIGHTS}) AS rank FROM facts_fts "
            "JOIN facts f ON f.rowid = facts_fts.rowid LEFT JOIN usage u ON u.fact_id = f.id "
            "WHERE facts_fts MATCH ? AND f.status = 'active' ORDER BY rank LIMIT ?",
            (match, limit),
        ).fetchall()
    except sqlite3.Error:
        return []
    scale = math.log(total + 1)
    return [FactRow(row[:-1], now, -float(row[-1]) / scale) for row in rows]


def relevant(rows: list[FactRow], threshold: float = RELEVANCE_THRESHOLD,
             floor: int = lifecycle.INJECT_FLOOR) -> list[FactRow]:
    """Rows above the confidence floor and the relevance threshold (and near the best)."""
    kept = [r for r in rows if r.current >= floor and r.score >= threshold]
    if not kept:
        return []
    best = max(r.score for r in kept)
    return [r for r in kept if r.score >= best * RELATIVE_CUT]


def active_facts(conn: sqlite3.Connection, now: datetime) -> list[FactRow]:
    try:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM facts f LEFT JOIN usage u ON u.fact_id = f.id "
            "WHERE f.status = 'active'").fetchall()
    except sqlite3.Error:
        return []
    return [FactRow(row, now) for row in rows]


def now_utc() -> datetime:
    """`KENNING_NOW` pins the clock (as in the CLI), for tests and demos."""
    pinned = os.environ.get("KENNING_NOW")
    if pinned:
        parsed = _time(pinned)
        if parsed:
            return parsed
    return datetime.now(UTC)
