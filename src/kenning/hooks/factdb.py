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
from ..textutil import GATE_STOPWORDS, fact_query_terms

# bm25 column weights: text, rationale, tags, identifier terms + anchors (as index.reader)
BM25_WEIGHTS = "1.0, 0.5, 0.8, 0.6"
# Relevance = -bm25 / ln(N + 1): BM25 grows with the log of the corpus size through IDF, so
# dividing by it keeps one threshold valid from 200 facts to 10,000. A fact must also hold at
# least MIN_TERMS distinct prompt stems that are not request words (textutil.GATE_STOPWORDS):
# counting word forms let "returns ... return" or "every ... first" pass (issue 17).
# Calibrated on tests/fixtures/hooks/relevance.json and the tessera development set
# (bench/relevance.py): at 0.5 / 1.0 / 1.5 / 2.0, 46 % / 30 % / 10 % / 4 % of the tessera
# unrelated prompts got a fact, while relevance.json kept 16 / 16 / 16 / 12 of its 20; 1.5 is
# the last step before recall falls. Checked on bench/data/lifecycle_test/prompts.yaml
# (tests/test_hooks_relevance.py).
RELEVANCE_THRESHOLD = 1.5
MIN_TERMS = 2
# Below this many facts IDF cannot reach the threshold (every term is "common" in a store of
# five facts): the threshold shrinks with ln(N + 1) there and the two-stem rule carries it.
SMALL_STORE = 50
MAX_QUERY_TERMS = 16
# Further facts must score at least this share of the best one: a second fact is injected
# only when it matched about as well (at 0.5, 2.7 facts were injected per tessera question,
# 0.21 of them right).
RELATIVE_CUT = 0.85
CANDIDATES = 30


class FactRow:
    __slots__ = ("id", "kind", "text", "confidence", "current", "about", "score", "tags",
                 "matched", "stems")

    def __init__(self, row: tuple, now: datetime, score: float = 0.0):
        (self.id, self.kind, self.text, stored, confirmed, last_used, self.about,
         self.tags) = row
        self.confidence = int(stored or 0)
        self.current = lifecycle.current_confidence(
            self.confidence, _time(confirmed) or now, _time(last_used), now)
        self.score = score
        self.matched = 0  # distinct prompt terms the fact contains
        self.stems: tuple[str, ...] = ()


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
    terms = fact_query_terms(prompt)[:MAX_QUERY_TERMS]
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
        scale = math.log(total + 1) * min(1.0, math.log(total + 1) / math.log(SMALL_STORE + 1))
        by_rowid = {row[-1]: FactRow(row[:-2], now, -float(row[-2]) / scale) for row in rows}
        # Which prompt terms each candidate holds, through FTS5's own tokenizer and stemmer,
        # asked of a throw-away table holding only the candidates (a common term's doclist
        # in the real index can span every fact).
        _count_matched_terms(conn, by_rowid, quoted)
    except sqlite3.Error:
        return []
    return list(by_rowid.values())


def _count_matched_terms(conn: sqlite3.Connection, by_rowid: dict[int, FactRow],
                         quoted: list[str]) -> None:
    """Each candidate's count of distinct prompt *stems* it holds, gate stop words left out:
    "returns" and "return" are one term, "every" or "first" none (issue 17)."""
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
        matched: dict[int, set[str]] = {}
        for term, stem in _stems(scratch, quoted).items():
            if term in GATE_STOPWORDS or stem in GATE_STOPWORDS:
                continue
            for (rowid,) in scratch.execute("SELECT rowid FROM c WHERE c MATCH ?", (term,)):
                matched.setdefault(rowid, set()).add(stem)
        for rowid, stems in matched.items():
            by_rowid[rowid].matched = len(stems)
            by_rowid[rowid].stems = tuple(sorted(stems))
    finally:
        scratch.close()


def _stems(scratch: sqlite3.Connection, quoted: list[str]) -> dict[str, str]:
    """Quoted term -> its porter stem, through FTS5's own tokenizer (fts5vocab)."""
    scratch.execute("CREATE VIRTUAL TABLE s USING fts5(t, tokenize='porter')")
    scratch.executemany("INSERT INTO s(rowid, t) VALUES (?, ?)",
                        [(i, q.strip('"').replace('""', '"')) for i, q in enumerate(quoted)])
    scratch.execute("CREATE VIRTUAL TABLE sv USING fts5vocab(s, 'instance')")
    stems: dict[str, str] = {}
    for term, doc in scratch.execute("SELECT term, doc FROM sv ORDER BY doc, offset"):
        stems.setdefault(quoted[doc], term)
    return stems


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


def now_utc() -> datetime:
    """`KENNING_NOW` pins the clock (as in the CLI), for tests and demos."""
    pinned = os.environ.get("KENNING_NOW")
    if pinned:
        parsed = _time(pinned)
        if parsed:
            return parsed
    return datetime.now(UTC)
