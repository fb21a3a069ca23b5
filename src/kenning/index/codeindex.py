"""The code-index service: which source and markdown files to (re)index, and when.

Parsing, chunking and embedding are in `index/code.py`, imported lazily like everything
heavy here (hooks build this service on a strict import budget).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.core.paths import Project

if TYPE_CHECKING:
    from kenning.index.code import IndexReport
    from kenning.index.connection import Index
    from kenning.index.embed import LazyEmbedder


class CodeIndex:
    """One project's code index: files, chunks, symbols and their vectors."""

    def __init__(self, project: Project, index: Index, embedder: LazyEmbedder,
                 on_change: Callable[[], None] = lambda: None):
        """`on_change` runs after a run that changed the index (the anchors map's refresh)."""
        self.project = project
        self.index = index
        self.embedder = embedder
        self._on_change = on_change

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

        from kenning.index.code import (
            chunks_stale,
            index_files,
            mark_chunked,
            mark_scrubbed,
            needs_rescrub,
            unscrubbed_paths,
        )
        from kenning.index.scan import candidate_files
        from kenning.store.registry import register

        self.index.ensure_writable()
        conn = self.index.conn
        register(self.project)
        files = list(candidate_files(self.project.root, ignore, max_bytes))
        # Rows from before today's secret scrubbing are found by a full run only: a `--files`
        # run (queued edits, often) must not scan every stored chunk.
        rescrub = only is None and needs_rescrub(conn)
        dirty = unscrubbed_paths(conn) if rescrub else set()
        # An index cut by an older chunker is re-chunked once, by a full run.
        rechunk_all = only is None and chunks_stale(conn)
        changed, removed = self._plan(files, only, full or rechunk_all, dirty)
        deadline = time.monotonic() + time_limit if time_limit else None
        tick = progress(len(changed), len(files)) if progress else None
        rechunk = {f.path for f in changed} if rechunk_all else dirty
        report = index_files(conn, self.project.root, changed, removed, self.embedder.key,
                             self.embedder, deadline=deadline, progress=tick, rechunk=rechunk)
        if rescrub and not report.stopped_early:
            mark_scrubbed(conn)
        if only is None and not report.stopped_early:
            mark_chunked(conn)
        if report.indexed or report.removed or report.reembedded:
            self.index.set_meta("code_generation",
                                int(self.index.meta("code_generation") or 0) + 1)
            self._on_change()  # anchor states
        return report

    def _plan(self, files: list, only: Iterable[str] | None, full: bool, dirty: set[str]
              ) -> tuple[list, list[str]]:
        """(files to index, paths to drop): all changed ones, or those of `only`."""
        from kenning.index.code import plan

        if only is None:
            return plan(self.index.conn, files, full=full, also=dirty)
        wanted = {self.relative(p) for p in only}
        present = {f.path for f in files}
        changed = [f for f in files if f.path in wanted]
        known = self.index.indexed_paths()
        return changed, [p for p in wanted if p in known and p not in present]

    def counts(self) -> dict[str, int | None]:
        return self.index.code_counts()

    def relative(self, path: str) -> str | None:
        """A path given by a user or a hook, as the index stores it (None if outside)."""
        candidate = Path(path)
        if not candidate.is_absolute():
            candidate = self.project.root / candidate
        try:
            return Path(os.path.realpath(candidate)).relative_to(self.project.root).as_posix()
        except ValueError:
            return None
