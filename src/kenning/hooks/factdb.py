"""Read-only fact queries for hooks: plain sqlite3 on the index, never sqlite_utils.

The index is derived and may be missing (never synced) or stale; hooks then inject less,
never fail. Nothing here creates the index file.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from datetime import UTC, datetime

from .. import lifecycle
from ..textutil import query_terms

# bm25 column weights: text, rationale, tags, identifier terms + anchors (as index.reader)
BM25_WEIGHTS = "1.0, 0.5, 0.8, 0.6"
# Relevance = -bm25 / ln(N + 1): BM25 grows with the log of the corpus size through IDF, so
# dividing by it keeps one threshold valid from 200 facts to 10,000. A fact must also share
# at least MIN_TERMS distinct prompt terms: on the labelled set every irrelevant prompt's best
# match shared exactly one (a lone rare word such as "translate" or "typo"), while 17 of the
# 20 relevant prompts shared two or more with their fact. Calibrated on
# tests/fixtures/hooks/relevance.json (tests/test_hooks_relevance.py).
RELEVANCE_THRESHOLD = 0.5
MIN_TERMS = 2
MAX_QUERY_TERMS = 16
# Further facts must score at least this share of the best one.
RELATIVE_CUT = 0.5
CANDIDATES = 30


class FactRow:
    __slots__ = ("id", "kind", "text", "confidence", "current", "about", "score", "tags",
                 "matched")

    def __init__(self, row: tuple, now: datetime, score: float = 0.0):
        (self.id, self.kind, self.text, stored, confirmed, last_used, self.about,
         self.tags) = row
        self.confidence = int(stored or 0)
        self.current = lifecycle.current_confidence(
            self.confidence, _time(confirmed) or now, _time(last_used), now)
        self.score = score
        self.matched = 0  # distinct prompt terms the fact contains


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
    terms = query_terms(prompt)[:MAX_QUERY_TERMS]
    if not terms:
        return []
    total = fact_count(conn)
    if not total:
        return []
    quoted = ['"' + t.replace('"', '""') + '"' for t in terms]
    try:
        rows = conn.execute(
            f"SELECT {_COLUMNS}, bm25(facts_fts, {BM25_WEIGHTS}) AS rank, f.rowid "
            "FROM facts_fts JOIN facts f ON f.rowid = facts_fts.rowid "
            "LEFT JOIN usage u ON u.fact_id = f.id "
            "WHERE facts_fts MATCH ? AND f.status = 'active' ORDER BY rank LIMIT ?",
            (" OR ".join(quoted), limit),
        ).fetchall()
        if not rows:
            return []
        by_rowid = {row[-1]: FactRow(row[:-2], now, -float(row[-2]) / math.log(total + 1))
                    for row in rows}
        # Which prompt terms each candidate holds, through FTS5's own tokenizer and stemmer,
        # asked of a throw-away table holding only the candidates (a common term's doclist
        # in the real index can span every fact).
        _count_matched_terms(conn, by_rowid, quoted)
    except sqlite3.Error:
        return []
    return list(by_rowid.values())


def _count_matched_terms(conn: sqlite3.Connection, by_rowid: dict[int, FactRow],
                         quoted: list[str]) -> None:
    marks = ",".join("?" for _ in by_rowid)
    texts = conn.execute(
        f"SELECT rowid, text, rationale, tags, terms FROM facts WHERE rowid IN ({marks})",
        tuple(by_rowid)).fetchall()
    scratch = sqlite3.connect(":memory:")
    try:
        scratch.execute("CREATE VIRTUAL TABLE c USING fts5(text, rationale, tags, terms, "
                        "tokenize='porter')")
        scratch.executemany("INSERT INTO c(rowid, text, rationale, tags, terms) "
                            "VALUES (?, ?, ?, ?, ?)", texts)
        for term in quoted:
            for (rowid,) in scratch.execute("SELECT rowid FROM c WHERE c MATCH ?", (term,)):
                by_rowid[rowid].matched += 1
    finally:
        scratch.close()


def relevant(rows: list[FactRow], threshold: float = RELEVANCE_THRESHOLD,
             floor: int = lifecycle.INJECT_FLOOR, min_terms: int = MIN_TERMS) -> list[FactRow]:
    """Rows above the confidence floor and the relevance threshold (and near the best)."""
    kept = [r for r in rows
            if r.current >= floor and r.score >= threshold and r.matched >= min_terms]
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


# Current confidence in SQL (lifecycle.current_confidence: the stored value minus 5 per whole
# week since max(confirmed, last used)), to count and preselect without a Python object per
# fact; the candidates' exact value is computed again in Python.
_CURRENT_SQL = (
    "max(0, f.confidence - 5 * CAST(max(0, julianday(:now) - julianday("
    "max(f.confirmed, coalesce(u.last_used, f.confirmed)))) / 7 AS INTEGER))")
_ACTIVE = "FROM facts f LEFT JOIN usage u ON u.fact_id = f.id WHERE f.status = 'active'"
SESSION_CANDIDATES = 200


def session_candidates(conn: sqlite3.Connection, now: datetime, hot_paths: list[str],
                       branch_terms: list[str], limit: int = SESSION_CANDIDATES
                       ) -> tuple[list[FactRow], int, int]:
    """(candidate rows, active facts, decayed active facts) for SessionStart.

    Candidates: the unanchored facts of highest current confidence, the facts anchored to a
    hot file and the facts naming a branch term: every fact SessionStart can rank high,
    without reading all of a 10,000-fact index."""
    stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        total, decayed = conn.execute(
            f"SELECT count(*), coalesce(sum({_CURRENT_SQL} < {lifecycle.ARCHIVE_BELOW}), 0) "
            f"{_ACTIVE}", {"now": stamp}).fetchone()
        found = conn.execute(
            f"SELECT {_COLUMNS} {_ACTIVE} AND (f.about IS NULL OR f.about IN ('', '[]')) "
            f"ORDER BY {_CURRENT_SQL} DESC, f.id LIMIT :limit",
            {"now": stamp, "limit": limit}).fetchall()
        for path in hot_paths:
            found += conn.execute(
                f"SELECT {_COLUMNS} {_ACTIVE} AND (instr(f.about, :a) > 0 OR "
                "instr(f.about, :u) > 0) LIMIT :limit",
                {"a": json.dumps(path), "u": json.dumps(path, ensure_ascii=False),
                 "limit": limit}).fetchall()
        if branch_terms:
            quoted = " OR ".join('"' + t.replace('"', '""') + '"' for t in branch_terms)
            found += conn.execute(
                f"SELECT {_COLUMNS} FROM facts_fts JOIN facts f ON f.rowid = facts_fts.rowid "
                "LEFT JOIN usage u ON u.fact_id = f.id "
                "WHERE facts_fts MATCH :q AND f.status = 'active' LIMIT :limit",
                {"q": quoted, "limit": limit}).fetchall()
    except sqlite3.Error:
        return [], 0, 0
    unique = {row[0]: row for row in found}
    return [FactRow(row, now) for row in unique.values()], int(total), int(decayed)


def now_utc() -> datetime:
    """`KENNING_NOW` pins the clock (as in the CLI), for tests and demos."""
    pinned = os.environ.get("KENNING_NOW")
    if pinned:
        parsed = _time(pinned)
        if parsed:
            return parsed
    return datetime.now(UTC)
