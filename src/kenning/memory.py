"""The composition root: one project's services, built once and handed to whoever needs them.

CLI commands, MCP tools and hooks build a `Memory`, make one call and render the result.
`Memory` holds no state of its own beyond the services below (each owns its own) and
delegates the calls entry points make; library code below this layer takes the service it
needs as an argument, never this object.

- `index`: the index owner (`kenning.index.connection.Index`): the sqlite3 connection.
- `fact_index`: the facts service (`kenning.index.facts.FactIndex`): the fact store and its sync.
- `writer`: fact writes with the lifecycle rules (`kenning.lifecycle.writes.FactWriter`).
- `code`: the code-index service (`kenning.index.codeindex.CodeIndex`).
- `searcher`: hybrid search (`kenning.search.hybrid.Search`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from kenning.core import clock
from kenning.core.paths import Project
from kenning.index import code_embedder_name
from kenning.index.codeindex import CodeIndex
from kenning.index.connection import Index
from kenning.index.embed import LazyEmbedder
from kenning.index.facts import FactIndex, FactView

if TYPE_CHECKING:
    from kenning.core.records import Fact
    from kenning.index.sync import SyncReport
    from kenning.lifecycle.writes import AddResult, FactWriter
    from kenning.search.hybrid import Search
    from kenning.store.facts import FactStore

__all__ = ["AddResult", "FactView", "Memory"]


def __getattr__(name: str) -> object:
    # The writer and the searcher load on first use (`kenning index` needs neither).
    if name == "AddResult":
        from kenning.lifecycle.writes import AddResult

        return AddResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Memory:
    """One project's memory. Cheap to construct; opens the index on first use."""

    def __init__(
        self,
        project: Project,
        embedder_name: str = "bundled",
        clock: Callable[[], datetime] = clock.now,
    ):
        self.project = project
        self.clock = clock
        self.embedder = LazyEmbedder(embedder_name)
        # Chunks are embedded and searched with the code-tuned copy of the bundled model
        # (the same model as facts for any other configured embedder).
        self.code_embedder = LazyEmbedder(code_embedder_name(embedder_name))
        self.index = Index(project.index_path)
        self.fact_index = FactIndex(project, self.index, self.embedder, clock,
                                    on_change=self.refresh_anchor_map)
        self.code = CodeIndex(project, self.index, self.code_embedder,
                              on_change=self.refresh_anchor_map)
        self._writer: FactWriter | None = None
        self._searcher: Search | None = None

    @property
    def writer(self) -> FactWriter:
        """Fact writes with the lifecycle rules; built (and imported) on first use."""
        if self._writer is None:
            from kenning.lifecycle.writes import FactWriter

            self._writer = FactWriter(self.fact_index, close=self.close)
        return self._writer

    @property
    def searcher(self) -> Search:
        """Hybrid search; built (and imported) on first use."""
        if self._searcher is None:
            from kenning.search.hybrid import Search

            self._searcher = Search(self.project, self.index, self.fact_index, self.embedder,
                                    self.code_embedder, cluster_peers=self._cluster_peers)
        return self._searcher

    @property
    def store(self) -> FactStore:
        return self.fact_index.store

    def refresh_anchor_map(self) -> None:
        """The anchors map PreToolUse reads (docs/design.md), after facts or code changed."""
        from kenning.lifecycle.anchors import refresh

        refresh(self.index.conn, str(self.project.local_dir), str(self.project.root))

    def _cluster_peers(self) -> dict[str, frozenset[str]]:
        from kenning.lifecycle.coaccess import load_clusters, peers_map

        return peers_map(load_clusters(self.project.events_path))

    def close(self) -> None:
        if self._searcher is not None:
            self._searcher.close()
        self.index.close()

    # ---- the index -------------------------------------------------------------------------
    def sync(self, force: bool = False) -> SyncReport:
        return self.fact_index.sync(force)

    def rebuild(self) -> SyncReport:
        self.close()
        return self.fact_index.rebuild()

    def index_code(self, **options: object):  # -> IndexReport
        return self.code.index_code(**options)  # type: ignore[arg-type]

    def code_counts(self) -> dict[str, int | None]:
        return self.code.counts()

    # ---- reads -----------------------------------------------------------------------------
    def facts(self) -> list[FactView]:
        return self.fact_index.views()

    def get_view(self, fact_id: str) -> FactView:
        return self.fact_index.get_view(fact_id)

    def search(self, query: str, **options: object):  # -> list[Hit]
        return self.searcher.search(query, **options)  # type: ignore[arg-type]

    def search_facts(self, query: str, **options: object):  # -> list[Hit]
        return self.searcher.search_facts(query, **options)  # type: ignore[arg-type]

    # ---- writes ----------------------------------------------------------------------------
    def add(self, text: str, kind: str, **options: object) -> AddResult:
        return self.writer.add(text, kind, **options)  # type: ignore[arg-type]

    def supersede(self, old_id: str, text: str, **options: object) -> AddResult:
        return self.writer.supersede(old_id, text, **options)  # type: ignore[arg-type]

    def forget(self, fact_id: str) -> Fact:
        return self.writer.forget(fact_id)

    def restore(self, fact_id: str) -> Fact:
        return self.writer.restore(fact_id)

    def confirm(self, fact_id: str) -> Fact:
        return self.writer.confirm(fact_id)

    def edit(self, fact_id: str, **changes: object) -> Fact:
        return self.writer.edit(fact_id, **changes)

    def purge(self, fact_id: str) -> list[str]:
        return self.writer.purge(fact_id)
