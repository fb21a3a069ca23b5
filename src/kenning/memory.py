"""The library API every entry point calls: one project's facts, index and search.

CLI commands, MCP tools and hooks parse input, call one method here and render the result.
Search is the `HybridSearch` mixin (hybrid.py), the code index `CodeIndexing` (codeindex.py).
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from kenning.core import clock
from kenning.core.paths import Project
from kenning.core.records import Anchor, Fact, Source
from kenning.index.codeindex import CodeIndexing
from kenning.lifecycle import confidence as lifecycle
from kenning.search.code import ChunkSearcher
from kenning.search.hybrid import HybridSearch
from kenning.store import eventlog
from kenning.store.facts import FactStore

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    from kenning.index.embed import Embedder
    from kenning.index.reader import FactRow
    from kenning.index.sync import SyncReport


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


class Memory(HybridSearch, CodeIndexing):
    """One project's memory. Cheap to construct; opens the index on first use."""

    def __init__(
        self,
        project: Project,
        embedder_name: str = "bundled",
        clock: Callable[[], datetime] = clock.now,
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
            from kenning.index.db import open_index

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
            from kenning.index.embed import load_embedder

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
        from kenning.index.sync import SyncReport, fact_dir_signature, replay_usage, sync_facts

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
            from kenning.lifecycle.anchors import refresh  # the map PreToolUse reads (DESIGN §7)

            refresh(conn, str(self.project.local_dir), str(self.project.root))
        return report

    def rebuild(self) -> SyncReport:
        """Throw the index away and build it again from the files and the local logs."""
        from kenning.index.db import throw_away

        self.close()
        throw_away(self.project.index_path)
        self._rows = self._vectors = None
        self._signature = self._generation = None
        self._events_seen = None
        return self.sync(force=True)

    def _load(self, sync: bool = True) -> dict[str, FactRow]:
        """Fact rows, synced first (one search syncs once: its inner calls pass False)."""
        from kenning.index.db import get_meta
        from kenning.index.reader import load_fact_rows

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
        from kenning.index.reader import load_fact_rows

        self._rows = load_fact_rows(self.conn)

    def _fact_vectors(self) -> tuple[list[str], np.ndarray]:
        from kenning.index.reader import load_fact_vectors

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
        from kenning.core.errors import NotFoundError

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
        from kenning.lifecycle.dedup import find_duplicate
        from kenning.store.facts import clean_text, validate_kind

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
        from kenning.lifecycle.contradictions import (
            contradicting,  # reported, never resolved automatically
        )

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
        from kenning.lifecycle.resolve import has_symbols, resolve_all

        if not has_symbols(self.conn):
            return about, []
        return resolve_all(self.conn, about)

    def _refresh_anchors(self, fact: Fact, drop_orphaned: bool = False) -> tuple[Fact, list[str]]:
        """On re-confirmation: anchors follow their code and record its current hash."""
        if not fact.about:
            return fact, []
        from kenning.lifecycle.stale import refreshed_anchors

        about = refreshed_anchors(self.conn, fact.about, drop_orphaned, self.project.root)
        if about == fact.about:
            return fact, []
        from kenning.lifecycle.stale import label

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
        from kenning.index.db import ensure_writable
        from kenning.store.purge import purge_fact

        text = self.store.locate(fact_id).fact.text
        ensure_writable(self.conn)  # refused before any copy is touched, not half-way
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
        from kenning.store.factfile import format_time

        path = self.project.events_path
        before = _size(path)
        now = self.clock().replace(microsecond=0)
        eventlog.write_event(path, "use", ts=format_time(now), session=session,
                             facts=fact_ids, via=via)
        if self._events_seen == before and self._rows is not None:
            self._events_seen = _size(path)
            for fact_id in fact_ids:
                row = self._rows.get(fact_id)
                if row is not None:
                    self._rows[fact_id] = dataclasses.replace(row, last_used=now, uses=row.uses + 1)

    # ---- status --------------------------------------------------------------------------
    def uncommitted_facts(self) -> int | None:
        """Fact files git would show as new or changed; None outside git or before init."""
        from kenning.core.gitutil import uncommitted_count

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
