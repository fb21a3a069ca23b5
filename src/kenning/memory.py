"""The library API every entry point calls: one project's facts, index and search.

CLI commands, MCP tools and hooks parse input, call one method here and render the result.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from . import eventlog, lifecycle
from .coaccess import boosts_for
from .codesearch import ChunkFilter, ChunkRow, ChunkSearcher
from .factfile import utc_now
from .facts import FactStore
from .paths import Project
from .records import Anchor, Fact, Hit, Source
from .search import LEG_DEPTH, activity_boost, confidence_boost, fuse
from .textutil import fts_or_query, query_terms

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    import numpy as np

    from .embed import Embedder
    from .index.code import IndexReport
    from .index.reader import FactRow
    from .index.sync import SyncReport

# Below this cosine the semantic leg does not vouch for a fact on its own.
MIN_COSINE = 0.15


@dataclass
class AddResult:
    fact: Fact
    created: bool  # False when an existing fact was re-confirmed instead
    superseded: list[str] = field(default_factory=list)
    contradictions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. how an --about anchor was resolved


@dataclass(frozen=True)
class FactView:
    """A fact as the user sees it now: stored values plus decay applied."""

    row: FactRow
    current: int  # current confidence, hundredths
    status: str  # effective status (decay's archival applied)


class Memory:
    """One project's memory. Cheap to construct; opens the index on first use."""

    def __init__(
        self,
        project: Project,
        embedder_name: str = "bundled",
        clock: Callable[[], datetime] = utc_now,
    ):
        self.project = project
        self.embedder_name = embedder_name
        self.clock = clock
        self.store = FactStore(project)
        self._conn: sqlite3.Connection | None = None
        self._opened: tuple[int, int] | None = None  # the index file the connection holds
        self._writable = True
        self._embedder: Embedder | None = None
        self._rows: dict[str, FactRow] | None = None
        self._vectors: tuple[list[str], np.ndarray] | None = None
        self._generation: str | None = None
        self._signature: str | None = None
        self._events_seen: int | None = None
        self._chunk_searcher: ChunkSearcher | None = None
        self._activity: dict[str, int] | None = None
        self._clusters: tuple[float, dict[str, frozenset[str]]] | None = None
        self._worker: ThreadPoolExecutor | None = None
        self._vector_worker: ThreadPoolExecutor | None = None
        self._worker_chunks: ChunkSearcher | None = None  # used on the worker thread only
        self._anchor_map: tuple[dict, dict[str, list[tuple[str | None, str]]]] | None = None

    # ---- plumbing ------------------------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            from .index.db import open_index

            # Taken before opening: if the file is swapped meanwhile, the next sync reopens
            # (once too often at worst, never too rarely).
            before = _file_id(self.project.index_path)
            self._conn, self._writable = open_index(self.project.index_path)
            self._opened = before or _file_id(self.project.index_path)
        return self._conn

    def _reopen_if_replaced(self) -> None:
        """A `rebuild` in another process replaced the index file: a long-lived process (the
        MCP server) must move to the new file, not keep reading and writing the old one."""
        if self._conn is not None and _file_id(self.project.index_path) != self._opened:
            self.close()
            self._rows = self._vectors = None
            self._signature = self._generation = None
            self._events_seen = None
            self._activity = None

    def embedder(self) -> Embedder:
        if self._embedder is None:
            from .embed import load_embedder

            self._embedder = load_embedder(self.embedder_name)
        return self._embedder

    def close(self) -> None:
        if self._worker is not None:
            if self._worker_chunks is not None:  # closed on the thread that opened it
                self._worker.submit(self._worker_chunks.conn.close).result()
                self._worker_chunks = None
            self._worker.shutdown(wait=True)
            self._worker = None
        if self._vector_worker is not None:
            self._vector_worker.shutdown(wait=True)
            self._vector_worker = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def sync(self, force: bool = False) -> SyncReport:
        """Index fact files changed since the last sync and fold in new usage events."""
        try:
            return self._sync(force)
        except sqlite3.OperationalError:
            # A `rebuild` elsewhere swapped the file in the middle: move to the new one, once.
            if self._conn is None or _file_id(self.project.index_path) == self._opened:
                raise
            self._reopen_if_replaced()
            return self._sync(force)

    def _sync(self, force: bool) -> SyncReport:
        from .index.sync import SyncReport, fact_dir_signature, replay_usage, sync_facts

        self._reopen_if_replaced()
        if not self._writable and self._conn is not None:
            return SyncReport()
        conn = self.conn
        if not self._writable:
            return SyncReport()
        signature = fact_dir_signature(self.project)
        report = SyncReport()
        if force or signature != self._signature:
            report = sync_facts(conn, self.project, self.embedder_name, self.embedder,
                                force_signature=force)
            self._signature = signature
        events_size = _size(self.project.events_path)
        if events_size != self._events_seen:
            conn.execute("BEGIN IMMEDIATE")
            try:
                report.usage_events = replay_usage(conn, self.project.events_path)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            self._events_seen = events_size
            self._activity = None
            if self._rows is not None and report.usage_events:
                self._reload_usage()
        if force or report.added or report.updated or report.removed:
            from .anchors import refresh  # the map PreToolUse reads (DESIGN §7)

            refresh(conn, str(self.project.local_dir), str(self.project.root))
        return report

    def rebuild(self) -> SyncReport:
        """Throw the index away and build it again from the files and the local logs."""
        from .index.db import throw_away

        self.close()
        throw_away(self.project.index_path)
        self._rows = self._vectors = None
        self._signature = self._generation = None
        self._events_seen = None
        return self.sync(force=True)

    def _load(self, sync: bool = True) -> dict[str, FactRow]:
        """Fact rows, synced first (one search syncs once: its inner calls pass False)."""
        from .index.db import get_meta
        from .index.reader import load_fact_rows

        if sync or self._rows is None:
            self.sync()
        elif self._rows is not None:
            return self._rows
        generation = get_meta(self.conn, "generation")
        if self._rows is None or generation != self._generation:
            self._rows = load_fact_rows(self.conn)
            self._vectors = None
            self._generation = generation
        return self._rows

    def _reload_usage(self) -> None:
        from .index.reader import load_fact_rows

        self._rows = load_fact_rows(self.conn)

    def _fact_vectors(self) -> tuple[list[str], np.ndarray]:
        from .index.reader import load_fact_vectors

        if self._vectors is None:
            self._vectors = load_fact_vectors(self.conn)
        return self._vectors

    # ---- views ---------------------------------------------------------------------------
    def view(self, row: FactRow, now: datetime | None = None) -> FactView:
        now = now or self.clock()
        current = lifecycle.current_confidence(row.confidence, row.confirmed, row.last_used, now)
        return FactView(row, current, lifecycle.effective_status(row.status, current))

    def facts(self) -> list[FactView]:
        now = self.clock()
        return [self.view(row, now) for row in self._load().values()]

    def get_view(self, fact_id: str) -> FactView:
        from .errors import NotFoundError

        row = self._load().get(fact_id)
        if row is None:
            self.store.get(fact_id)  # raises a clear error for a bad id or a bad file
            raise NotFoundError(f"fact {fact_id} is not indexed; run `kenning rebuild`")
        return self.view(row)

    def last_used(self, fact_id: str) -> datetime | None:
        row = self._load().get(fact_id)
        return row.last_used if row else None

    # ---- writes --------------------------------------------------------------------------
    def add(
        self,
        text: str,
        kind: str,
        *,
        origin: str = "user",
        about: Iterable[Anchor] = (),
        tags: Iterable[str] = (),
        topic: str | None = None,
        rationale: str | None = None,
        source: Source | None = None,
        supersedes: str | None = None,
    ) -> AddResult:
        """Create a fact, or re-confirm the near-duplicate that already says it."""
        from .dedup import find_duplicate
        from .facts import clean_text, validate_kind

        validate_kind(kind)
        cleaned = clean_text(text)
        now = self.clock()
        live = [v.row for v in self.facts() if v.status == "active"]
        active = [r for r in live if r.kind == kind]
        if supersedes:
            self.store.get(supersedes)
        duplicate = None if supersedes else find_duplicate(cleaned, active)
        if duplicate is not None:
            existing = self.store.get(duplicate)
            if source is not None and source.evidence and \
                    (existing.source.session, existing.source.evidence) == \
                    (source.session, source.evidence):
                # The same transcript line read again (a rerun after a crash): not new evidence.
                return AddResult(existing, created=False)
            fact = self.store.reconfirm(duplicate, self.last_used(duplicate), now)
            if origin == "user":
                fact = self.store.edit(duplicate, now=now)
            return AddResult(fact, created=False, notes=self._refresh_anchors(fact)[1])
        anchors, notes = self._resolve_anchors(tuple(about))
        fact = self.store.create(
            cleaned, kind, origin=origin, about=anchors, tags=tuple(tags), topic=topic,
            rationale=rationale, source=source, now=now,
        )
        result = AddResult(fact, created=True, notes=notes)
        old_ids = [supersedes] if supersedes else []
        if fact.topic:
            old_ids += [r.id for r in active if r.topic == fact.topic and r.id != fact.id]
        for old in dict.fromkeys(old_ids):
            self.store.set_status(old, "superseded", superseded_by=fact.id)
            result.superseded.append(old)
        from .contradictions import contradicting  # reported, never resolved automatically

        others = [r for r in live if r.id not in result.superseded]
        result.contradictions = [c.b for c in contradicting(fact.text, others, fact.about)]
        return result

    def supersede(self, old_id: str, text: str, *, origin: str = "user",
                  about: Iterable[Anchor] | None = None, rationale: str | None = None
                  ) -> AddResult:
        """A new fact replacing `old_id`: same kind, tags and topic; its anchors unless given."""
        old = self.store.get(old_id)
        return self.add(text, old.kind, origin=origin,
                        about=old.about if about is None else about, tags=old.tags,
                        topic=old.topic, rationale=rationale or old.rationale,
                        supersedes=old_id)

    def _resolve_anchors(self, about: tuple[Anchor, ...]) -> tuple[tuple[Anchor, ...], list[str]]:
        """`--about` anchors resolved against the code index's symbols (when indexed)."""
        if not about:
            return about, []
        from .resolve import has_symbols, resolve_all

        if not has_symbols(self.conn):
            return about, []
        return resolve_all(self.conn, about)

    def _refresh_anchors(self, fact: Fact, drop_orphaned: bool = False) -> tuple[Fact, list[str]]:
        """On re-confirmation: anchors follow their code and record its current hash."""
        if not fact.about:
            return fact, []
        from .anchors_stale import refreshed_anchors

        about = refreshed_anchors(self.conn, fact.about, drop_orphaned, self.project.root)
        if about == fact.about:
            return fact, []
        from .anchors_stale import label

        moved = [f"anchor {label(a)} refreshed" for a in about if a not in fact.about]
        return self.store.update(fact.id, about=about), moved

    def forget(self, fact_id: str) -> Fact:
        return self.store.forget(fact_id)

    def restore(self, fact_id: str) -> Fact:
        """Undo a forget or an archival: active again, re-confirmed."""
        fact = self.store.reconfirm(fact_id, self.last_used(fact_id), self.clock())
        fact = self._refresh_anchors(fact)[0]
        return self.store.set_status(fact.id, "active")

    def confirm(self, fact_id: str) -> Fact:
        """A person vouches for the fact: confidence 1.00, anchors refreshed."""
        return self._refresh_anchors(self.store.edit(fact_id, now=self.clock()))[0]

    def edit(self, fact_id: str, **changes: object) -> Fact:
        return self.store.edit(fact_id, now=self.clock(), **changes)  # type: ignore[arg-type]

    def purge(self, fact_id: str) -> list[str]:
        """Delete the fact file and scrub every local copy; returns what was cleaned."""
        from .purge import purge_fact

        text = self.store.locate(fact_id).fact.text
        self.close()
        cleaned = purge_fact(self.project, fact_id, text)
        self._rows = self._vectors = None
        self._signature = self._generation = None
        self._events_seen = None
        self.sync(force=True)  # the anchors map again, for facts whose entries quoted it
        return cleaned

    def record_use(self, fact_ids: list[str], via: str, session: str | None = None) -> None:
        """Facts returned for a query count as used (postpones their decay)."""
        if not fact_ids:
            return
        from .factfile import format_time

        path = self.project.events_path
        before = _size(path)
        now = self.clock().replace(microsecond=0)
        eventlog.append(path, {"ts": format_time(now), "type": "use", "facts": fact_ids,
                               "via": via, "session": session})
        if self._events_seen == before and self._rows is not None:
            self._events_seen = _size(path)
            for fact_id in fact_ids:
                row = self._rows.get(fact_id)
                if row is not None:
                    from dataclasses import replace

                    self._rows[fact_id] = replace(row, last_used=now, uses=row.uses + 1)

    # ---- search --------------------------------------------------------------------------
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
        types: Iterable[str] = ("fact", "code", "doc"),
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
        self._load()  # syncs facts and folds new events (usage, file activity) first
        flt = ChunkFilter(frozenset(types & {"code", "doc"}), lang, path_glob)
        # The chunk legs run on a worker thread (its own read connection) while this one
        # answers the fact legs: sqlite3 and numpy both release the GIL.
        pending = self._start_chunk_side(query, flt) if flt.types else None
        legs: dict[str, list[str]] = {}
        notes: dict[str, dict[str, str]] = {}
        boosts: dict[str, list[tuple[str, float]]] = {}
        views: dict[str, FactView] = {}
        chunks: dict[int, ChunkRow] = {}
        if "fact" in types:
            allowed = self._fact_filter(kinds, statuses, include_archived, views)
            self._fact_legs(query, allowed, legs, notes)
        if pending is not None:
            self._chunk_legs(pending, legs, notes, chunks)
        if not any(legs.values()):
            legs = {}
            if "fact" in types:
                legs["fact prefix"] = [f"f:{i}" for i in self._prefix_leg(query, allowed)]
            if types & {"code", "doc"}:
                legs["code prefix"] = self._chunk_prefix(query, flt, chunks)
        for key in set().union(*legs.values()) if legs else ():
            if key.startswith("f:"):
                boosts[key] = [("confidence", confidence_boost(views[key[2:]].current))]
            else:
                boosts[key] = [("recent activity", self._activity_boost(chunks[int(key[2:])]))]
        ranked = fuse(legs, boosts, notes=notes)
        ranked = self._with_cluster_peers(ranked, legs, boosts, notes, views, chunks)[:limit]
        hits = [self._fact_hit(views[r.key[2:]], r.score, r.why) if r.key.startswith("f:")
                else self._chunk_hit(chunks[int(r.key[2:])], r.score, r.why) for r in ranked]
        if record:
            used = [h.id for h in hits if h.type == "fact" and h.id]
            if used:
                self.record_use(used, via=record, session=session)
            if not hits:
                from .redact import redact  # a query may hold the token someone looked for

                eventlog.append(self.project.events_path,
                                {"type": "gap", "query": redact(query[:500]), "via": record})
        return hits

    def _with_cluster_peers(self, ranked, legs, boosts, notes, views, chunks):
        """Files read or edited together in >= 3 sessions: a top hit's peers move up a
        little (+0.1 on the confidence scale, DESIGN §5)."""
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
                boosts.setdefault(r.key, []).append(("cluster peer", extra[path]))
        return fuse(legs, boosts, notes=notes)

    def _cluster_peers(self) -> dict[str, frozenset[str]]:
        """Co-access clusters from the event log, recomputed when reads/edits were added."""
        total = self.conn.execute("SELECT total(count) FROM file_activity").fetchone()[0]
        if self._clusters is None or self._clusters[0] != total:
            from .coaccess import load_clusters, peers_map

            peers = peers_map(load_clusters(self.project.events_path)) if total else {}
            self._clusters = (total, peers)
        return self._clusters[1]

    def _fact_filter(
        self, kinds: Iterable[str] | None, statuses: Iterable[str], include_archived: bool,
        views: dict[str, FactView],
    ) -> Callable[[str], bool]:
        """A predicate over fact ids that also caches each accepted fact's current view."""
        rows = self._load(sync=False)
        now = self.clock()
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
            view = self.view(row, now)
            if view.status not in wanted_status:
                return False
            views[fact_id] = view
            return True

        return allowed

    def _fact_legs(
        self, query: str, allowed: Callable[[str], bool], legs: dict[str, list[str]],
        notes: dict[str, dict[str, str]],
    ) -> None:
        from .index.reader import fts_fact_ids

        match = fts_or_query(query)
        if match:
            legs["fact keyword"] = [f"f:{i}" for i in fts_fact_ids(
                self.conn, match, LEG_DEPTH * 4) if allowed(i)][:LEG_DEPTH]
        semantic = self._semantic_leg(query, allowed)
        if semantic:
            legs["fact semantic"] = [f"f:{fid}" for fid, _ in semantic]
            for fid, cos in semantic:
                notes.setdefault(f"f:{fid}", {})["fact semantic"] = f"cos {cos:.2f}"

    def _chunks(self) -> ChunkSearcher:
        if self._chunk_searcher is None or self._chunk_searcher.conn is not self.conn:
            self._chunk_searcher = ChunkSearcher(self.conn, self.project.data_dir)
        return self._chunk_searcher

    def _start_chunk_side(self, query: str, flt: ChunkFilter) -> Future:
        """Submit the chunk legs: keyword on one worker, the matrix product on another."""
        from .codesearch import nearest
        from .index.db import get_meta

        if self._worker is None:
            from concurrent.futures import ThreadPoolExecutor

            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kenning")
            self._vector_worker = ThreadPoolExecutor(max_workers=1,
                                                     thread_name_prefix="kenning-vectors")
        nearest_chunks = None
        depth = LEG_DEPTH if flt.is_open else LEG_DEPTH * 4  # filters need a deeper pool
        if get_meta(self.conn, "code_embedder") == self.embedder_name:
            searcher = self._chunks()
            qvec = searcher.query_vector(query, self.embedder())
            if qvec is not None:
                ids, matrix = searcher.matrix(get_meta(self.conn, "code_generation"))
                if ids:  # the matrix product on its own thread, beside the keyword leg
                    nearest_chunks = self._vector_worker.submit(nearest, ids, matrix, qvec,
                                                                depth)
        return self._worker.submit(self._chunk_side, fts_or_query(query), flt, depth,
                                   nearest_chunks)

    def _chunk_side(self, match: str | None, flt: ChunkFilter, depth: int,
                    nearest_chunks: Future | None) -> tuple:
        """Worker thread: keyword and vector legs over chunks, filtered (own connection)."""
        from .codesearch import filtered

        searcher = self._worker_searcher()
        keyword: list[int] = []
        found: dict[int, ChunkRow] = {}
        if match:
            keyword, found = filtered(searcher.keyword(match, depth), searcher.rows, flt,
                                      LEG_DEPTH)
        semantic: list[tuple[int, float]] = []
        if nearest_chunks is not None:
            ranked = nearest_chunks.result()
            cosine = dict(ranked)
            kept, more = filtered([i for i, _ in ranked], searcher.rows, flt, LEG_DEPTH)
            found.update(more)
            semantic = [(cid, cosine[cid]) for cid in kept]
        return keyword, semantic, found

    def _worker_searcher(self) -> ChunkSearcher:
        """The worker thread's own read connection (sqlite3 objects stay on their thread)."""
        if self._worker_chunks is None:
            from .index.db import connect

            self._worker_chunks = ChunkSearcher(connect(self.project.index_path))
        return self._worker_chunks

    def _chunk_legs(
        self, pending: Future, legs: dict[str, list[str]], notes: dict[str, dict[str, str]],
        chunks: dict[int, ChunkRow],
    ) -> None:
        keyword, semantic, found = pending.result()
        chunks.update(found)
        legs["code keyword"] = [f"c:{i}" for i in keyword]
        if semantic:
            legs["code semantic"] = [f"c:{i}" for i, _ in semantic]
            for cid, cos in semantic:
                notes.setdefault(f"c:{cid}", {})["code semantic"] = f"cos {cos:.2f}"

    def _chunk_prefix(self, query: str, flt: ChunkFilter, chunks: dict[int, ChunkRow]) -> list:
        from .codesearch import filtered

        terms = [t for t in query_terms(query) if len(t) >= 3]
        if not terms:
            return []
        searcher = self._chunks()
        match = " OR ".join(f'"{t}"*' for t in terms)
        ids, found = filtered(searcher.keyword(match, LEG_DEPTH * 4), searcher.rows, flt,
                              LEG_DEPTH)
        chunks.update(found)
        return [f"c:{i}" for i in ids]

    def _activity_boost(self, chunk: ChunkRow) -> float:
        """Reads and edits of the chunk's file in the last 30 days, capped and small."""
        return activity_boost(self._file_activity().get(chunk.path, 0))

    def _file_activity(self) -> dict[str, int]:
        if self._activity is None:
            from .index.reader import recent_file_activity

            self._activity = recent_file_activity(self.conn, self.clock())
        return self._activity

    def _chunk_hit(self, chunk: ChunkRow, score: float, why: str) -> Hit:
        return Hit(
            type="doc" if chunk.doc else "code", path=chunk.path, start_line=chunk.start_line,
            end_line=chunk.end_line, score=round(score, 6),
            snippet=self._chunks().text(chunk.id)[:400],
            why=why, symbol=chunk.symbol or None,
            anchored_facts=tuple(self._anchored_facts(chunk.path, chunk.symbol)),
        )

    def _anchored_facts(self, path: str, symbol: str | None) -> list[str]:
        """Active facts about this file, or about this symbol (or its class) in it."""
        rows = self._load(sync=False)
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
        from .index.db import get_meta

        if not query_terms(query) or get_meta(self.conn, "embedder") != self.embedder_name:
            return []
        ids, matrix = self._fact_vectors()
        if not ids:
            return []
        import numpy as np

        qvec = np.asarray(self.embedder().encode([query])[0], dtype=np.float32)
        if matrix.shape[1] != qvec.shape[0]:
            return []
        scores = matrix @ qvec
        depth = min(LEG_DEPTH * 4, len(ids))
        top = np.argpartition(-scores, depth - 1)[:depth]
        # Ties broken by position (ids are sorted), so a rebuilt index ranks alike.
        order = top[np.lexsort((top, -scores[top]))]
        out: list[tuple[str, float]] = []
        for index in order:
            score = float(scores[index])
            if score < MIN_COSINE:
                break
            if allowed(ids[index]):
                out.append((ids[index], score))
                if len(out) >= LEG_DEPTH:
                    break
        return out

    def _prefix_leg(self, query: str, allowed: Callable[[str], bool]) -> list[str]:
        from .index.reader import fts_fact_ids

        terms = [t for t in query_terms(query) if len(t) >= 3]
        if not terms:
            return []
        match = " OR ".join(f'"{t}"*' for t in terms)
        return [i for i in fts_fact_ids(self.conn, match, LEG_DEPTH * 4) if allowed(i)][
            :LEG_DEPTH
        ]

    def _fact_hit(self, view: FactView, score: float, why: str) -> Hit:
        row = view.row
        anchor = row.about[0] if row.about else None
        return Hit(
            type="fact", path=anchor.file if anchor else None, start_line=None, end_line=None,
            score=round(score, 6), snippet=row.text, why=why, symbol=anchor.symbol if anchor
            else None, id=row.id, kind=row.kind, confidence=view.current / 100,
        )

    # ---- code index ----------------------------------------------------------------------
    def index_code(
        self,
        *,
        ignore: Iterable[str] = (),
        max_bytes: int = 512 * 1024,
        full: bool = False,
        only: Iterable[str] | None = None,
        time_limit: float | None = None,
        progress: Callable[[int, int], Callable[[int], None] | None] | None = None,
    ) -> IndexReport:
        """Index changed source and markdown files (all with `full`, or just `only`)."""
        import time

        from .index.code import index_files, plan
        from .registry import register
        from .scan import candidate_files

        register(self.project)
        conn = self.conn
        if not self._writable:
            from .errors import KenningError

            raise KenningError(f"the index at {self.project.index_path} was written by a newer "
                               "kenning; upgrade kenning, or `kenning rebuild` to start over")
        files = list(candidate_files(self.project.root, ignore, max_bytes))
        if only is not None:
            wanted = {self._relative(p) for p in only}
            present = {f.path for f in files}
            changed = [f for f in files if f.path in wanted]
            known = {r[0] for r in conn.execute("SELECT path FROM files")}
            removed = [p for p in wanted if p in known and p not in present]
        else:
            changed, removed = plan(conn, files, full=full)
        deadline = time.monotonic() + time_limit if time_limit else None
        tick = progress(len(changed), len(files)) if progress else None
        report = index_files(conn, self.project.root, changed, removed, self.embedder_name,
                             self.embedder, deadline=deadline, progress=tick)
        if report.indexed or report.removed or report.reembedded:
            from .anchors import refresh
            from .index.db import get_meta, set_meta

            set_meta(conn, "code_generation", int(get_meta(conn, "code_generation") or 0) + 1)
            refresh(conn, str(self.project.local_dir), str(self.project.root))  # anchor states
        return report

    def code_counts(self) -> dict[str, int | None]:
        from .index.db import get_meta

        conn = self.conn
        count = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                 for t in ("files", "chunks", "symbols")}
        indexed_at = get_meta(conn, "code_indexed_at")
        count["indexed_at"] = int(indexed_at) if indexed_at else None
        return count

    def _relative(self, path: str) -> str | None:
        """A path given by a user or a hook, as the index stores it (None if outside)."""
        candidate = Path(path)
        if not candidate.is_absolute():
            candidate = self.project.root / candidate
        try:
            return Path(os.path.realpath(candidate)).relative_to(self.project.root).as_posix()
        except ValueError:
            return None

    # ---- status --------------------------------------------------------------------------
    def uncommitted_facts(self) -> int | None:
        """Fact files git would show as new or changed; None outside git or before init."""
        from .gitutil import uncommitted_count

        if not self.project.initialised:
            return None
        return uncommitted_count(self.project.root, ".kenning/facts")

    def problems(self) -> list[str]:
        self.sync()
        return [f"{r[0]}: {r[1]}" for r in self.conn.execute("SELECT path, message FROM problems")]


def _file_id(path: os.PathLike[str]) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def _size(path: os.PathLike[str]) -> int:
    try:
        return os.stat(path).st_size
    except FileNotFoundError:
        return 0
