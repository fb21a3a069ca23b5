"""Read-only fact queries for hooks: plain sqlite3 on the index, never sqlite_utils.

The index is derived and may be missing (never synced) or stale; hooks then inject less,
never fail. Nothing here creates the index file.
"""

from __future__ import annotations

import math
import os

try:  # the C module alone: the `sqlite3` package adds `datetime` and `collections.abc` to
    # a fresh hook's imports for adapters the hooks never use (same connect, execute, Error)
    import _sqlite3 as sqlite3
except ImportError:  # an interpreter without it
    import sqlite3

from kenning.core import clock
from kenning.core import fastjson as json
from kenning.core.textutil import (
    GATE_STOPWORDS,
    fts_or_query,
    identifier_terms,
    prompt_words,
    version_terms,
    words,
)
from kenning.index import embedder_key
from kenning.index.fts import FACT_BM25
from kenning.lifecycle import decay as lifecycle

TYPE_CHECKING = False  # `typing` imports re
if TYPE_CHECKING:
    from datetime import datetime

# Relevance = -bm25 / ln(N + 1): BM25 grows with the log of the corpus size through IDF, so
# dividing by it keeps one threshold valid from 200 facts to 10,000. A fact must also hold at
# least MIN_TERMS distinct prompt words that are not request words (textutil.GATE_STOPWORDS;
# a word counts once however many forms, stems or identifier parts of it match: counting
# word forms let "returns ... return" or "every ... first" pass), and its relevance
# times its coverage (the IDF share of the prompt's words it holds) must reach MIN_FOCUS: a
# long request about something else shares two domain words with many facts, and a fact
# that answers a prompt holds its heavy words.
# Calibrated on tests/fixtures/hooks/relevance.json and the tessera development set
# (bench/relevance.py; 78 unrelated prompts, 28 of them about the same project): relevance
# 1.0 / 1.5 / 2.0 alone let 30 % / 10 % / 4 % of the first 50 unrelated prompts through
# (relevance.json kept 16 / 16 / 12 of its 20); with the same-project requests 1.5 let 23 %
# through. Then, words matched whole: MIN_FOCUS 0.4 / 0.6 / 0.8 / 0.9 / 1.0 gave 17 / 12 / 5 /
# 3 / 3 % of the unrelated prompts a fact, relevance.json 14 / 13 / 13 / 9 / 7 of 20 its fact,
# tessera injections 0.51 / 0.69 / 0.81 / 0.79 / 0.71 right; 0.8 is the last step before
# recall falls. Checked on bench/data/lifecycle_test/prompts.yaml (tests/test_hooks_relevance.py).
RELEVANCE_THRESHOLD = 1.5
MIN_TERMS = 2
MIN_FOCUS = 0.8
# Below this many facts IDF cannot reach the threshold (every term is "common" in a store of
# five facts): the relevance scale shrinks with ln(N + 1) there.
SMALL_STORE = 50
MAX_QUERY_TERMS = 16
# Further facts must score at least this share of the best one: a second fact is injected
# only when it matched about as well (at 0.5, 2.7 facts were injected per tessera question,
# 0.21 of them right).
RELATIVE_CUT = 0.85
CANDIDATES = 30


class Candidate:
    """A fact a hook may inject, scored for one prompt or session: its columns as the index
    stores them (`about` and `tags` as stored text; the library's `index.reader.FactRow` is
    the parsed, typed row) and the scores the gate computes."""

    __slots__ = ("id", "kind", "text", "confidence", "current", "about", "score", "tags",
                 "matched", "stems", "coverage", "cosine")

    def __init__(self, row: tuple, now: int, score: float = 0.0):
        """`now`: microseconds since the epoch (clock.now_us)."""
        (self.id, self.kind, self.text, stored, confirmed, last_used, self.about,
         self.tags) = row
        self.confidence = int(stored or 0)
        confirmed_us = parse_time(confirmed)
        self.current = lifecycle.current_confidence_us(
            self.confidence, now if confirmed_us is None else confirmed_us,
            parse_time(last_used), now)
        self.score = score
        self.matched = 0  # distinct prompt words the fact holds (an identifier counts two)
        self.stems: tuple[str, ...] = ()  # the prompt words it holds (stems)
        self.coverage = 0.0  # the IDF share of the prompt's words it holds
        self.cosine: float | None = None  # to the prompt, bundled model (`add_cosines`)


# The columns a `Candidate` is built from, in its order.
COLUMNS = ("f.id, f.kind, f.text, f.confidence, f.confirmed, u.last_used, f.about, f.tags")


def parse_time(value: str | None) -> int | None:
    """A stored ISO time as microseconds since the epoch (naive times are UTC); None when
    absent or not a time. The index's own form, `2026-01-31T12:00:00Z`, is read without
    `datetime`; any other goes through `datetime.fromisoformat`."""
    if not value:
        return None
    fields = _utc_fields(value)
    if fields is not None:
        year, month, day, hour, minute, second = fields
        days = _ordinal(year, month, day) - _EPOCH_ORDINAL
        return ((days * 24 + hour) * 60 + minute) * 60_000_000 + second * 1_000_000
    from datetime import UTC, datetime

    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return clock.epoch_us(parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC))


_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_EPOCH_ORDINAL = 719163  # date(1970, 1, 1).toordinal()


def _utc_fields(value: str) -> tuple[int, ...] | None:
    """(year, month, day, hour, minute, second) of a valid `YYYY-MM-DDTHH:MM:SSZ`, else None."""
    if len(value) != 20 or value[4] + value[7] + value[10] + value[13] + value[16] + value[19] \
            != "--T::Z":
        return None
    parts = (value[0:4], value[5:7], value[8:10], value[11:13], value[14:16], value[17:19])
    if not all(p.isascii() and p.isdigit() for p in parts):
        return None
    year, month, day, hour, minute, second = (int(p) for p in parts)
    if not (year >= 1 and 1 <= month <= 12 and hour < 24 and minute < 60 and second < 60):
        return None
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if not 1 <= day <= _MONTH_DAYS[month - 1] + (month == 2 and leap):
        return None
    return year, month, day, hour, minute, second


def _ordinal(year: int, month: int, day: int) -> int:
    """date(year, month, day).toordinal(), without `datetime`."""
    before = year - 1
    days = before * 365 + before // 4 - before // 100 + before // 400
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return days + sum(_MONTH_DAYS[:month - 1]) + (month > 2 and leap) + day


def connect(index_path: str) -> sqlite3.Connection | None:
    if not os.path.exists(index_path):
        return None
    conn = sqlite3.connect(index_path, timeout=0.5, isolation_level=None)
    conn.execute("PRAGMA query_only=1")
    # A fresh hook reads a few hundred pages of a 10k-fact index once: through a mapping
    # rather than a read() each, a millisecond less (the mapping is lazy; 256 MiB caps it).
    conn.execute("PRAGMA mmap_size=268435456")
    return conn


def fact_count(conn: sqlite3.Connection) -> int:
    try:
        return int(conn.execute("SELECT count(*) FROM facts").fetchone()[0])
    except sqlite3.Error:
        return 0


def prompt_matches(conn: sqlite3.Connection, prompt: str, now: int,
                   limit: int = CANDIDATES) -> list[Candidate]:
    """Active facts matching the prompt's terms, best first, with normalised relevance, the
    prompt words each holds (`matched`) and the share of the prompt's weight they carry
    (`coverage`). `now`: microseconds since the epoch (clock.now_us)."""
    groups = prompt_words(prompt)
    terms = list(dict.fromkeys(t for group in groups for t in group))[:MAX_QUERY_TERMS]
    if not terms:
        return []
    total = fact_count(conn)
    if not total:
        return []
    quoted = [fts_or_query("", [t]) for t in terms]
    try:
        rows = conn.execute(
            f"SELECT {COLUMNS}, {FACT_BM25} AS rank, f.rowid "
            "FROM facts_fts JOIN facts f ON f.rowid = facts_fts.rowid "
            "LEFT JOIN usage u ON u.fact_id = f.id "
            "WHERE facts_fts MATCH ? AND f.status = 'active' ORDER BY rank LIMIT ?",
            (fts_or_query(prompt, terms), limit),
        ).fetchall()
        if not rows:
            return []
        scale = math.log(total + 1) * min(1.0, math.log(total + 1) / math.log(SMALL_STORE + 1))
        by_rowid = {row[-1]: Candidate(row[:-2], now, -float(row[-2]) / scale) for row in rows}
        # Which prompt words each candidate holds, through FTS5's own tokenizer and stemmer,
        # asked of a throw-away table holding only the candidates (a common term's doclist
        # in the real index can span every fact).
        weights = {t: _idf(conn, q, total) for t, q in zip(terms, quoted, strict=True)}
        _match_words(conn, by_rowid, groups, weights)
    except sqlite3.Error:
        return []
    return list(by_rowid.values())


def _idf(conn: sqlite3.Connection, quoted: str, total: int) -> float:
    """BM25's IDF of one term over the fact index (rare terms weigh more)."""
    df = conn.execute("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?",
                      (quoted,)).fetchone()[0]
    return math.log((total - df + 0.5) / (df + 0.5) + 1)


def _match_words(conn: sqlite3.Connection, by_rowid: dict[int, Candidate],
                 groups: list[tuple[str, ...]], weights: dict[str, float]) -> None:
    """Each candidate's count of distinct prompt words it holds, and the IDF share of the
    prompt's words it holds.

    A word counts once however many of its forms match (an identifier: whole, or all of its
    parts; an identifier of two or more parts that the fact spells whole counts as two words,
    `max_redirects` is as specific as two shared words: right injections on the development
    sets 295 -> 300 of 490 answerable prompts, no unrelated prompt more); two prompt words of
    one stem count once; request words (textutil.GATE_STOPWORDS) never count (counting
    word forms let "returns ... return" or "every ... first" pass). A prompt word
    matches a fact's word when they agree on all but a short ending (`same_word`), not when
    the stemmer merely folds them together ("generic" / "generated", "US" / "using").
    """
    marks = ",".join("?" for _ in by_rowid)
    texts = conn.execute(
        f"SELECT rowid, text, rationale, tags, terms FROM facts WHERE rowid IN ({marks})",
        tuple(by_rowid)).fetchall()
    scratch = sqlite3.connect(":memory:")
    try:
        stems = _stems(scratch, list(weights))
    finally:
        scratch.close()
    vocab = {rowid: _vocabulary(" ".join(parts)) for rowid, *parts in texts}
    # word key -> (weight, rows holding it, rows spelling it whole as an identifier)
    words: dict[str, tuple[float, set[int], set[int]]] = {}
    for group in groups:
        group = tuple(t for t in group if t in weights)
        if not group:
            continue
        key = stems.get(group[0], group[0])
        if group[0] in GATE_STOPWORDS or key in GATE_STOPWORDS:
            continue
        weight = max(weights[t] for t in group)
        # An identifier is held whole, or as all of its parts: `compute_line_total` is not
        # matched by a fact that only says "computes".
        rows = {rowid for rowid, held in vocab.items() if _holds(held, group[0])
                or (len(group) > 1 and all(_holds(held, term) for term in group[1:]))}
        named = {rowid for rowid in rows if len(group) > 1 and _holds(vocab[rowid], group[0])}
        old_weight, old_rows, old_named = words.get(key, (0.0, set(), set()))
        words[key] = (max(weight, old_weight), old_rows | rows, old_named | named)
    whole = sum(w for w, _, _ in words.values()) or 1.0
    for key, (weight, rows, named) in words.items():
        for rowid in rows:
            row = by_rowid[rowid]
            row.matched += 1 + (rowid in named)
            row.coverage += weight / whole
            row.stems = (*row.stems, key)


def _vocabulary(text: str) -> dict[str, list[str]]:
    """A fact's words as the prompt side sees them (lower-cased, identifier parts too), by
    their first four letters: `same_word` needs those to agree."""
    held = {w.lower() for w in words(text)}
    held.update(identifier_terms(text))
    held.update(version_terms(text))
    by_prefix: dict[str, list[str]] = {}
    for word in held:
        by_prefix.setdefault(word[:4], []).append(word)
    return by_prefix


def _holds(held: dict[str, list[str]], term: str) -> bool:
    near = held.get(term[:4], ())
    return term in near or (len(term) >= 4 and any(same_word(term, w) for w in near))


def same_word(a: str, b: str) -> bool:
    """Two forms of one word: equal, or sharing all but a short ending (at least four
    letters and 80 % of the shorter): "return" / "returns", "policy" / "policies", not
    "generic" / "generated"."""
    if a == b:
        return True
    shorter = min(len(a), len(b))
    if shorter < 4 or a[:4] != b[:4]:
        return False
    common = 4
    while common < shorter and a[common] == b[common]:
        common += 1
    return common >= 0.8 * shorter and max(len(a), len(b)) - common <= 4


def _stems(scratch: sqlite3.Connection, terms: list[str]) -> dict[str, str]:
    """Term -> its porter stem, through FTS5's own tokenizer (fts5vocab)."""
    scratch.execute("CREATE VIRTUAL TABLE s USING fts5(t, tokenize='porter')")
    scratch.executemany("INSERT INTO s(rowid, t) VALUES (?, ?)", list(enumerate(terms)))
    scratch.execute("CREATE VIRTUAL TABLE sv USING fts5vocab(s, 'instance')")
    stems: dict[str, str] = {}
    for term, doc in scratch.execute("SELECT term, doc FROM sv ORDER BY doc, offset"):
        stems.setdefault(terms[doc], term)
    return stems


def relevant(rows: list[Candidate], threshold: float = RELEVANCE_THRESHOLD,
             floor: int = lifecycle.INJECT_FLOOR, min_terms: int = MIN_TERMS,
             min_focus: float = MIN_FOCUS) -> list[Candidate]:
    """Rows above the confidence floor and the relevance threshold, holding enough of the
    prompt (and near the best), best first."""
    kept = [r for r in rows
            if r.current >= floor and r.score >= threshold and r.matched >= min_terms
            and r.score * r.coverage >= min_focus]
    if not kept:
        return []
    best = max(r.score for r in kept)
    return sorted((r for r in kept if r.score >= best * RELATIVE_CUT), key=lambda r: -r.score)


# With the bundled model's vectors (issue 17): a logistic score of the top keyword candidates,
# fitted on every development set of bench/relevance.py (relevance.json, tessera, the
# lifecycle_test prompts and the five cited projects httpx, requests, uvicorn, pip-tools and
# loguru: 610 answerable and 518 unrelated prompts; bench/data/SPLITS.md). Features of a
# candidate among the GATE_TOP best by relevance: its relevance, its coverage, its margin (the
# best's lead over the second for the best, its gap to the best for the others), its cosine to
# the prompt, its gap to the best cosine there, whether the prompt is a request (it begins
# with a verb of REQUEST_VERBS: "Add a test for ...", "Rename ...") and whether it is the
# candidate fact search would rank first (the best relevance + FUSED_COSINE_WEIGHT x cosine).
# The keyword rules alone kept too many requests that share two domain words with a fact and
# missed questions in other words; the cosine and its gap tell them apart. The request flag
# (issue 17's sixth round): a request to do work about the project's own commands shares their
# words and their vectors with the facts about them (pip-tools: 13 of 60 unrelated prompts got
# a fact); asking for work is rarely asking what a fact says, so a request needs a much
# stronger match. With each of the seven projects held out in turn and the threshold set so
# every training set stays <= 4 %, the held-out sets' unrelated prompts given a fact fell from
# 5-21.7 % to 0-5 % (pip-tools 21.7 -> 5 %, loguru 8.3 -> 0 %), precision >= 0.80, right
# injections 0.60-0.78 on the cited projects (before 0.63-0.78; the "search's first" flag added
# 0-4 % to each held-out set's). A fact still needs MIN_TERMS shared words.
GATE_TOP = 8
# relevance, coverage, margin, cosine, cosine gap, request, search's first
GATE_WEIGHTS = (0.378, 1.995, 1.496, 1.305, 8.488, -4.385, 0.481)
GATE_BIAS = -2.514
GATE_LOGIT = 0.8  # probability 0.69 of being the fact asked about
# search.fusion.COSINE_WEIGHT (not imported: the hook stays off `dataclasses`)
FUSED_COSINE_WEIGHT = 0.5
# Verbs that open a request to do work (a general list of coding requests, not drawn from the
# prompt sets' words).
REQUEST_VERBS = frozenset(
    """add annotate benchmark bump change check clean convert create delete describe document
    drop explain extract fix format generate implement improve lint list make migrate move
    optimise optimize port profile refactor remove rename replace review rewrite run set show
    speed split summarise summarize test tidy translate type update write""".split())


def is_request(prompt: str) -> bool:
    """Whether the prompt asks for work: its first word (after "please") is a request verb."""
    first = [w.strip(",.:;!").lower() for w in prompt.split()[:2]]
    if first and first[0] == "please":
        first = first[1:]
    return bool(first) and first[0] in REQUEST_VERBS


def gate_logit(row: Candidate, best: float, second: float, best_cosine: float,
               first: bool, request: bool = False, search_first: bool = False) -> float:
    """The gate's log-odds that `row` answers the prompt (its cosine must be set)."""
    cosine = row.cosine or 0.0
    margin = best - second if first else row.score - best
    features = (row.score, row.coverage, margin, cosine, cosine - best_cosine, float(request),
                float(search_first))
    return GATE_BIAS + sum(w * x for w, x in zip(GATE_WEIGHTS, features, strict=True))


def relevant_by_vectors(rows: list[Candidate], floor: int = lifecycle.INJECT_FLOOR,
                        min_terms: int = MIN_TERMS, *, request: bool = False
                        ) -> list[Candidate]:
    """The gate with cosines (`add_cosines` set them on `rows`): the candidates whose log-odds
    reach GATE_LOGIT, most likely first. `request`: the prompt asks for work (`is_request`)."""
    top = sorted(rows, key=lambda r: -r.score)[:GATE_TOP]
    if not top:
        return []
    best = top[0].score
    second = top[1].score if len(top) > 1 else 0.0
    best_cosine = max(r.cosine or 0.0 for r in top)
    fused = [r.score + FUSED_COSINE_WEIGHT * (r.cosine or 0.0) for r in top]
    scored = [(gate_logit(r, best, second, best_cosine, n == 0, request,
                          fused[n] == max(fused)), r) for n, r in enumerate(top)]
    return [r for logit, r in sorted(scored, key=lambda p: -p[0])
            if logit >= GATE_LOGIT and r.matched >= min_terms and r.current >= floor]


def add_cosines(conn: sqlite3.Connection, prompt: str, rows: list[Candidate]) -> bool:
    """Set each row's cosine to the prompt when the index holds the bundled model's vectors;
    False (cosines left unset) when it does not."""
    if not rows:
        return False
    try:
        meta = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
    except sqlite3.Error:
        return False
    if not meta or meta[0] != embedder_key("bundled"):
        return False
    from kenning.hooks.promptvec import PromptEncoder, cosines

    encoder = PromptEncoder()
    try:
        vector = encoder.encode(prompt)
    finally:
        encoder.close()
    top = sorted(rows, key=lambda r: -r.score)[:GATE_TOP]
    found = {} if vector is None else cosines(conn, vector, [r.id for r in top])
    if len(found) < len(top):
        return False  # vectors missing (a stale index): the keyword rules decide
    for row in top:
        row.cosine = found[row.id]
    return True


def active_facts(conn: sqlite3.Connection, now: int) -> list[Candidate]:
    try:
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM facts f LEFT JOIN usage u ON u.fact_id = f.id "
            "WHERE f.status = 'active'").fetchall()
    except sqlite3.Error:
        return []
    return [Candidate(row, now) for row in rows]


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
                       ) -> tuple[list[Candidate], int, int]:
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
            f"SELECT {COLUMNS} {_ACTIVE} AND (f.about IS NULL OR f.about IN ('', '[]')) "
            f"ORDER BY {_CURRENT_SQL} DESC, f.id LIMIT :limit",
            {"now": stamp, "limit": limit}).fetchall()
        for path in hot_paths:
            found += conn.execute(
                f"SELECT {COLUMNS} {_ACTIVE} AND (instr(f.about, :a) > 0 OR "
                "instr(f.about, :u) > 0) LIMIT :limit",
                {"a": json.dumps(path), "u": json.dumps(path, ensure_ascii=False),
                 "limit": limit}).fetchall()
        if branch_terms:
            quoted = fts_or_query("", branch_terms)
            found += conn.execute(
                f"SELECT {COLUMNS} FROM facts_fts JOIN facts f ON f.rowid = facts_fts.rowid "
                "LEFT JOIN usage u ON u.fact_id = f.id "
                "WHERE facts_fts MATCH :q AND f.status = 'active' LIMIT :limit",
                {"q": quoted, "limit": limit}).fetchall()
    except sqlite3.Error:
        return [], 0, 0
    unique = {row[0]: row for row in found}
    now_us = clock.epoch_us(now)
    return [Candidate(row, now_us) for row in unique.values()], int(total), int(decayed)
