"""The facts service: the fact store and its fold into the index, read as current views.

Owns what a long-lived process keeps between calls (the fact rows, their vectors, the
freshness keys of the fact folders and the event log) and moves to a new index file when a
`rebuild` elsewhere replaced it.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from kenning.core.paths import Project
from kenning.lifecycle.confidence import current_confidence, effective_status
from kenning.store import eventlog

if TYPE_CHECKING:
    import numpy as np

    from kenning.index.connection import Index
    from kenning.index.embed import LazyEmbedder
    from kenning.index.reader import FactRow
    from kenning.index.sync import SyncReport
    from kenning.store.facts import FactStore


@dataclass(frozen=True)
class FactView:
    """A fact as the user sees it now: stored values plus decay applied."""

    row: FactRow
    current: int  # current confidence, hundredths
    status: str  # effective status (decay's archival applied)


class FactIndex:
    """One project's facts: the files (`store`), synced into the index, read with decay."""

    def __init__(
        self,
        project: Project,
        index: Index,
        embedder: LazyEmbedder,
        clock: Callable[[], datetime],
        on_change: Callable[[], None] = lambda: None,
    ):
        """`on_change` runs after a sync that changed the facts (the anchors map's refresh,
        a lifecycle job the index layer may not import)."""
        self.project = project
        self.index = index
        self.embedder = embedder
        self.clock = clock
        self._store: FactStore | None = None
        self._on_change = on_change
        self._rows: dict[str, FactRow] | None = None
        self._vectors: tuple[list[str], np.ndarray] | None = None
        self._generation: str | None = None
        self._signature: str | None = None
        self._events_seen: int | None = None
        self.usage_version = 0  # bumped whenever new events were folded in

    @property
    def store(self) -> FactStore:
        """The fact files, opened on first need: `kenning index` and a code-only search never
        read them, and the store's import (YAML) was a tenth of a small project's indexing."""
        if self._store is None:
            from kenning.store.facts import FactStore

            self._store = FactStore(self.project)
        return self._store

    def forget_caches(self) -> None:
        self._rows = self._vectors = None
        self._signature = self._generation = None
        self._events_seen = None
        self.usage_version += 1

    # ---- sync ------------------------------------------------------------------------------
    def sync(self, force: bool = False) -> SyncReport:
        """Index fact files changed since the last sync and fold in new usage events."""
        try:
            return self._sync(force)
        except sqlite3.OperationalError:
            # A `rebuild` elsewhere swapped the file in the middle: move to the new one, once.
            if not self.index.replaced():
                raise
            self._reopen_if_replaced()
            return self._sync(force)

    def _reopen_if_replaced(self) -> None:
        """A long-lived process (the MCP server) must move to a file another process's
        `rebuild` put in place, not keep reading and writing the old one."""
        if self.index.replaced():
            self.index.close()
            self.forget_caches()

    def _sync(self, force: bool) -> SyncReport:
        from kenning.index.sync import SyncReport, fact_dir_signature, sync_facts

        self._reopen_if_replaced()
        if not self.index.opened_writable and self.index.is_open:
            return SyncReport()
        conn = self.index.conn
        if not self.index.opened_writable:
            return SyncReport()
        signature = fact_dir_signature(self.project)
        report = SyncReport()
        if force or signature != self._signature:
            report = sync_facts(conn, self.project, self.embedder.key, self.embedder,
                                force_signature=force)
            self._signature = signature
        report.usage_events = self._fold_events()
        if force or report.added or report.updated or report.removed:
            self._on_change()
        return report

    def _fold_events(self) -> int:
        from kenning.index.sync import replay_usage

        events_size = _size(self.project.events_path)
        if events_size == self._events_seen:
            return 0
        with self.index.transaction() as conn:
            folded = replay_usage(conn, self.project.events_path)
        self._events_seen = events_size
        self.usage_version += 1
        if self._rows is not None and folded:
            self._rows = self.index.fact_rows()
        return folded

    def rebuild(self) -> SyncReport:
        """Throw the index away and build it again from the files and the local logs."""
        self.index.throw_away()
        self.forget_caches()
        return self.sync(force=True)

    # ---- reads -----------------------------------------------------------------------------
    def rows(self, sync: bool = True) -> dict[str, FactRow]:
        """Fact rows, synced first (one search syncs once: its inner calls pass False)."""
        if sync or self._rows is None:
            self.sync()
        elif self._rows is not None:
            return self._rows
        generation = self.index.meta("generation")
        if self._rows is None or generation != self._generation:
            self._rows = self.index.fact_rows()
            self._vectors = None
            self._generation = generation
        return self._rows

    def vectors(self) -> tuple[list[str], np.ndarray]:
        if self._vectors is None:
            self._vectors = self.index.fact_vectors()
        return self._vectors

    def view(self, row: FactRow, now: datetime | None = None) -> FactView:
        now = now or self.clock()
        current = current_confidence(row.confidence, row.confirmed, row.last_used, now)
        return FactView(row, current, effective_status(row.status, current))

    def views(self) -> list[FactView]:
        now = self.clock()
        return [self.view(row, now) for row in self.rows().values()]

    def get_view(self, fact_id: str) -> FactView:
        from kenning.core.errors import NotFoundError

        row = self.rows().get(fact_id)
        if row is None:
            self.store.get(fact_id)  # raises a clear error for a bad id or a bad file
            raise NotFoundError(f"fact {fact_id} is not indexed; run `kenning rebuild`")
        return self.view(row)

    def last_used(self, fact_id: str) -> datetime | None:
        row = self.rows().get(fact_id)
        return row.last_used if row else None

    def problems(self) -> list[str]:
        self.sync()
        return self.index.problems()

    def uncommitted(self) -> int | None:
        """Fact files git would show as new or changed; None outside git or before init."""
        from kenning.core.gitutil import uncommitted_count

        if not self.project.initialised:
            return None
        return uncommitted_count(self.project.root, ".kenning/facts")

    # ---- usage -----------------------------------------------------------------------------
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


def _size(path: os.PathLike[str]) -> int:
    try:
        return os.stat(path).st_size
    except FileNotFoundError:
        return 0
