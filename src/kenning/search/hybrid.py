"""Search over one project's memory: facts, code and docs in one RRF ranking
(docs/design.md, "Search").

`Search` owns what searches keep warm between calls (the chunk side's workers and
matrix, the co-access clusters, the anchored-facts map); it reads facts through the facts
service and the index through its owner.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from typing import TYPE_CHECKING

from kenning.core.paths import Project
from kenning.core.records import Hit
from kenning.core.textutil import fact_query_terms, fts_or_query, query_terms
from kenning.search.chunks import CHUNK_LEGS, ChunkSide
from kenning.search.code import ChunkFilter, ChunkRow
from kenning.search.coderank import (
    CHUNK_TYPES,
    FUNCTION_KINDS,
    QueryIntent,
    factors,
    intent,
    signature_params,
)
from kenning.search.coderank import boosts as code_boosts
from kenning.search.fusion import LEG_DEPTH, boosts_for, fuse, fuse_facts
from kenning.search.topk import nearest
from kenning.store import eventlog

if TYPE_CHECKING:
    from kenning.index.connection import Index
    from kenning.index.embed import LazyEmbedder
    from kenning.index.facts import FactIndex, FactView

# Facts reach the cross-type ranking as one fused leg (keyword and vectors weighted per query,
# floor applied: search.fuse_facts); it counts as two legs, as the two chunk legs do, so a
# fact and a chunk meet on rank within their own kind, not on a confidence bonus.
FACT_LEG = "fact"
LEG_WEIGHTS = {FACT_LEG: 2.0}
# A query of at most this many terms that matched nothing whole is tried as prefixes.
PREFIX_TERMS = 2
# The chunk legs' own RRF k (see search.rrf_term): a clear #1 on one leg beats any chunk
# both legs rank 12th or lower (with k = 60 a semantic #1 ended at #12 behind such chunks).
# Measured on the five development corpora: k 10 against 60 gains on all of them; an
# uneven pair (keyword 10, vectors 5) traded the Rust corpus for the JavaScript one.
CHUNK_LEG_K = {"code keyword": 10, "code semantic": 10}
# How much more a code chunk's vector leg counts than its keyword leg (the two still sum to
# two legs, so chunks and facts keep meeting on rank). The code-tuned model made the vector leg
# the stronger leg on 17 of 18 development corpora, and equal-weight RRF then fell below it
# (bytes .593 against .606); 2.5 to 1 keeps the hybrid above both legs on all 18. JavaScript
# and TypeScript, with the fewest training pairs (6.7k of 75k) and rxjs's vector leg below its
# keyword leg, keep near-equal legs (1.1). Chosen on the development corpora (SPLITS.md, issue
# 18's code-tuned model); docs and other chunks keep equal legs.
CODE_VECTOR_RATIO = 2.5
LANG_VECTOR_RATIO = {"javascript": 1.1, "typescript": 1.1}


def chunk_leg_weights(lang: str | None, kind_is_code: bool) -> dict[str, float]:
    """The chunk legs' RRF weights for a chunk of `lang`: keyword and vectors summing to 2."""
    ratio = LANG_VECTOR_RATIO.get(lang or "", CODE_VECTOR_RATIO) if kind_is_code else 1.0
    return {"code keyword": 2 / (1 + ratio), "code semantic": 2 * ratio / (1 + ratio)}
# The same steeper legs make a rank near the top worth about this many times more, so a
# chunk's additive boosts (recent activity, cluster peer) are scaled alike to move it as
# many ranks as they did.
CHUNK_BOOST_SCALE = 5.0


class Search:
    """Hybrid search over one project's facts, code and docs."""

    def __init__(self, project: Project, index: Index, facts: FactIndex,
                 embedder: LazyEmbedder, code_embedder: LazyEmbedder | None = None,
                 cluster_peers: Callable[[], dict[str, frozenset[str]]] = dict):
        """`code_embedder` embeds queries against chunks (default: `embedder`, the facts').
        `cluster_peers()` reads the co-access clusters (file -> its peers) from the event
        log: a lifecycle rule, passed in by the composition root."""
        self.project = project
        self._load_peers = cluster_peers
        self.index = index
        self.facts = facts
        self.embedder = embedder
        self.chunks = ChunkSide(project, index, code_embedder or embedder, facts.clock)
        self._clusters: tuple[float, dict[str, frozenset[str]]] | None = None
        self._anchor_map: tuple[dict, dict[str, list[tuple[str | None, str]]]] | None = None

    def close(self) -> None:
        self.chunks.close()

    def search_facts(
        self,
        query: str,
        *,
        limit: int = 10,
        kinds: Iterable[str] | None = None,
        statuses: Iterable[str] = ("active",),
        include_archived: bool = False,
        record: str | None = "search",
        session: str | None = None,
    ) -> list[Hit]:
        """Hybrid fact search: FTS5 BM25 and cosine legs fused by RRF, confidence-boosted."""
        return self.search(query, types=("fact",), limit=limit, kinds=kinds, statuses=statuses,
                           include_archived=include_archived, record=record, session=session)

    def search(
        self,
        query: str,
        *,
        types: Iterable[str] = ("fact", "code", "doc", "config"),
        limit: int = 10,
        kinds: Iterable[str] | None = None,
        statuses: Iterable[str] = ("active",),
        include_archived: bool = False,
        lang: str | None = None,
        path_glob: str | None = None,
        record: str | None = "search",
        session: str | None = None,
    ) -> list[Hit]:
        """One ranking over facts, code and docs: every leg fused by RRF, then small boosts.

        Fact legs and chunk legs are separate rankings of separate corpora; RRF puts them on
        one scale. Boosts (confidence, recent file activity) stay on the RRF scale.
        """
        types = set(types)
        self.facts.rows()  # syncs facts and folds new events (usage, file activity) first
        flt = ChunkFilter(frozenset(types & set(CHUNK_TYPES)), lang, path_glob)
        # The chunk legs run on a worker thread (its own read connection) while this one
        # answers the fact legs: sqlite3 and numpy both release the GIL.
        pending = self.chunks.start(query, flt) if flt.types else None
        legs: dict[str, list[str]] = {}
        notes: dict[str, dict[str, str]] = {}
        views: dict[str, FactView] = {}
        chunks: dict[int, ChunkRow] = {}
        matched_any = False
        allowed = self._fact_filter(kinds, statuses, include_archived, views)
        if "fact" in types:
            matched_any = self._fact_legs(query, allowed, legs, notes, views)
        if pending is not None:
            self.chunks.legs(pending, legs, notes, chunks)
            matched_any = matched_any or any(legs.get(leg) for leg in CHUNK_LEGS)
        if not matched_any and len(query_terms(query)) <= PREFIX_TERMS:
            # A typed fragment ("retr") matches no whole term: try prefixes.
            legs = {}
            if "fact" in types:
                legs[FACT_LEG] = [f"f:{i}" for i in self._prefix_leg(query, allowed)]
            if types & set(CHUNK_TYPES):
                legs["code prefix"] = self.chunks.prefix(query, flt, chunks)
        boosts, scale, key_weights = self._chunk_boosts(legs, chunks, intent(query))
        fusion = {"leg_k": CHUNK_LEG_K, "scale": scale, "weights": LEG_WEIGHTS,
                  "key_weights": key_weights}
        ranked = fuse(legs, boosts, notes=notes, **fusion)
        ranked = self._with_cluster_peers(ranked, legs, boosts, notes, views, chunks,
                                          fusion)[:limit]
        hits = [self._fact_hit(views[r.key[2:]], r.score, r.why) if r.key.startswith("f:")
                else self._chunk_hit(chunks[int(r.key[2:])], r.score, r.why) for r in ranked]
        if record:
            try:
                self._record(query, hits, record, session)
            except OSError:
                pass  # a full disk or an unwritable log: the answer still stands
        return hits

    def _chunk_boosts(self, legs: dict[str, list[str]], chunks: dict[int, ChunkRow],
                      want: QueryIntent
                      ) -> tuple[dict[str, list[tuple[str, float]]], dict[str, float],
                                 dict[str, dict[str, float]]]:
        """Each ranked chunk's additive boosts, its ranking factor and its legs' weights."""
        boosts: dict[str, list[tuple[str, float]]] = {}
        scale: dict[str, float] = {}
        key_weights: dict[str, dict[str, float]] = {}
        version = self.facts.usage_version
        keys = set().union(*legs.values()) if legs else set()
        signatures: dict[int, frozenset[str]] = {}
        if want.params:  # a parameter list in the query: read the ranked functions' signatures
            functions = [int(k[2:]) for k in keys
                         if not k.startswith("f:") and chunks[int(k[2:])].kind in FUNCTION_KINDS]
            signatures = {cid: signature_params(text)
                          for cid, text in self.chunks.searcher().texts(functions).items()}
        for key in keys:
            if not key.startswith("f:"):
                chunk = chunks[int(key[2:])]
                boosts[key] = [("recent activity",
                                self.chunks.activity_boost(chunk, version) * CHUNK_BOOST_SCALE),
                               *code_boosts(chunk.path, chunk.symbol, want)]
                scale[key] = factors(chunk.type, chunk.path, chunk.symbol, want, chunk.kind,
                                     chunk.lang, signatures.get(chunk.id, frozenset()))
                key_weights[key] = chunk_leg_weights(chunk.lang, chunk.type == "code")
        return boosts, scale, key_weights

    def _record(self, query: str, hits: list[Hit], record: str, session: str | None) -> None:
        used = [h.id for h in hits if h.type == "fact" and h.id]
        if used:
            self.facts.record_use(used, via=record, session=session)
        if not hits:
            from kenning.core.redact import redact  # a query may hold the token someone looked for

            eventlog.write_event(self.project.events_path, "gap", query=redact(query[:500]),
                                 via=record)

    def _with_cluster_peers(self, ranked, legs, boosts, notes, views, chunks, fusion):
        """Files read or edited together in >= 3 sessions: a top hit's peers move up a
        little (+0.1 on the confidence scale, docs/design.md)."""
        peers = self._cluster_peers()
        if not peers or not ranked:
            return ranked

        def path_of(key: str) -> str | None:
            if key.startswith("f:"):
                about = views[key[2:]].row.about
                return about[0].file if about else None
            return chunks[int(key[2:])].path

        extra = boosts_for([path_of(r.key) for r in ranked[:LEG_DEPTH]], peers)
        if not extra:
            return ranked
        for r in ranked:
            path = path_of(r.key)
            if path in extra:
                lift = extra[path] * (1 if r.key.startswith("f:") else CHUNK_BOOST_SCALE)
                boosts.setdefault(r.key, []).append(("cluster peer", lift))
        return fuse(legs, boosts, notes=notes, **fusion)

    def _cluster_peers(self) -> dict[str, frozenset[str]]:
        """Co-access clusters from the event log, recomputed when reads/edits were added."""
        total = self.index.activity_total()
        if self._clusters is None or self._clusters[0] != total:
            self._clusters = (total, self._load_peers() if total else {})
        return self._clusters[1]

    def _fact_filter(
        self, kinds: Iterable[str] | None, statuses: Iterable[str], include_archived: bool,
        views: dict[str, FactView],
    ) -> Callable[[str], bool]:
        """A predicate over fact ids that also caches each accepted fact's current view."""
        rows = self.facts.rows(sync=False)
        now = self.facts.clock()
        wanted_kinds = set(kinds) if kinds else None
        wanted_status = set(statuses)
        if include_archived:
            wanted_status.add("archived")

        def allowed(fact_id: str) -> bool:
            if fact_id in views:
                return True
            row = rows.get(fact_id)
            if row is None or (wanted_kinds and row.kind not in wanted_kinds):
                return False
            view = self.facts.view(row, now)
            if view.status not in wanted_status:
                return False
            views[fact_id] = view
            return True

        return allowed

    def _fact_legs(
        self, query: str, allowed: Callable[[str], bool], legs: dict[str, list[str]],
        notes: dict[str, dict[str, str]], views: dict[str, FactView],
    ) -> bool:
        """The facts above the relevance floor as one fused leg; True if any fact matched
        the query's terms or vectors at all (above or below the floor)."""
        keyword, semantic = self.fact_leg_scores(query, allowed)
        fused = fuse_facts(keyword, semantic, len(self.facts.rows(sync=False)),
                           confidence={fid: views[fid].current for fid, _ in keyword + semantic})
        legs[FACT_LEG] = [f"f:{r.key}" for r in fused[:LEG_DEPTH]]
        for r in fused[:LEG_DEPTH]:
            notes.setdefault(f"f:{r.key}", {})[FACT_LEG] = r.why
        return bool(keyword or semantic)

    def fact_leg_scores(
        self, query: str, allowed: Callable[[str], bool] | None = None
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """The two fact legs before fusion: (id, BM25 score) and (id, cosine), best first.

        Public for bench/retrieval.py, which reports each leg beside the fusion."""
        if allowed is None:
            self.facts.rows()  # called on its own: sync first, as search does
            allowed = self._fact_filter(None, ("active",), False, {})
        keyword: list[tuple[str, float]] = []
        match = fts_or_query(query, fact_query_terms(query))
        if match:
            # Stop at LEG_DEPTH accepted: each check computes a fact's current view.
            accepted = ((i, s) for i, s in self.index.fact_scores(match, LEG_DEPTH * 4)
                        if allowed(i))
            keyword = list(islice(accepted, LEG_DEPTH))
        return keyword, self._semantic_leg(query, allowed)

    def _chunk_hit(self, chunk: ChunkRow, score: float, why: str) -> Hit:
        return self.chunks.hit(chunk, score, why, self._anchored_facts(chunk.path, chunk.symbol))

    def _anchored_facts(self, path: str, symbol: str | None) -> list[str]:
        """Active facts about this file, or about this symbol (or its class) in it."""
        rows = self.facts.rows(sync=False)
        if self._anchor_map is None or self._anchor_map[0] is not rows:
            by_path: dict[str, list[tuple[str | None, str]]] = {}
            for row in rows.values():
                if row.status == "active":
                    for anchor in row.about:
                        by_path.setdefault(anchor.file, []).append((anchor.symbol, row.id))
            self._anchor_map = (rows, by_path)
        out: list[str] = []
        for anchor_symbol, fact_id in self._anchor_map[1].get(path, ()):
            if not anchor_symbol or not symbol or anchor_symbol == symbol \
                    or symbol.startswith(anchor_symbol + "."):
                if fact_id not in out:
                    out.append(fact_id)
        return out

    def _semantic_leg(
        self, query: str, allowed: Callable[[str], bool]
    ) -> list[tuple[str, float]]:
        if not query_terms(query) or self.index.meta("embedder") != self.embedder.key:
            return []
        ids, matrix = self.facts.vectors()
        if not ids:
            return []
        import numpy as np

        qvec = np.asarray(self.embedder().encode([query])[0], dtype=np.float32)
        ranked = nearest(ids, matrix, qvec, LEG_DEPTH * 4)
        return list(islice(((i, s) for i, s in ranked if allowed(i)), LEG_DEPTH))

    def _prefix_leg(self, query: str, allowed: Callable[[str], bool]) -> list[str]:
        match = fts_or_query(query, prefix=True)
        if not match:
            return []
        ranked = self.index.fact_scores(match, LEG_DEPTH * 4)
        return [i for i, _ in ranked if allowed(i)][:LEG_DEPTH]

    def _fact_hit(self, view: FactView, score: float, why: str) -> Hit:
        row = view.row
        anchor = row.about[0] if row.about else None
        return Hit(
            type="fact", path=anchor.file if anchor else None, start_line=None, end_line=None,
            score=round(score, 6), snippet=row.text, why=why, symbol=anchor.symbol if anchor
            else None, id=row.id, kind=row.kind, confidence=view.current / 100,
        )
