"""Keeping one project's code index current: which source and markdown files to (re)index.

A mixin of `Memory` (which owns the index connection, the embedder and the project): kept
apart so each file has one job. Parsing, chunking and embedding are in `index/code.py`,
imported lazily like everything heavy here (hooks call `Memory` on a strict import budget).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kenning.index.code import IndexReport


class CodeIndexing:
    """The code-index part of `Memory`."""

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

        from kenning.index.code import (
            chunks_stale,
            index_files,
            mark_chunked,
            mark_scrubbed,
            needs_rescrub,
            plan,
            unscrubbed_paths,
        )
        from kenning.index.db import ensure_writable
        from kenning.index.scan import candidate_files
        from kenning.store.registry import register

        conn = self.conn
        ensure_writable(conn)
        register(self.project)
        files = list(candidate_files(self.project.root, ignore, max_bytes))
        # Rows from before today's secret scrubbing are found by a full run only: a `--files`
        # run (queued edits, often) must not scan every stored chunk.
        rescrub = only is None and needs_rescrub(conn)
        dirty = unscrubbed_paths(conn) if rescrub else set()
        # An index cut by an older chunker is re-chunked once, by a full run.
        rechunk_all = only is None and chunks_stale(conn)
        if only is None:
            changed, removed = plan(conn, files, full=full or rechunk_all, also=dirty)
        else:
            wanted = {self._relative(p) for p in only}
            present = {f.path for f in files}
            changed = [f for f in files if f.path in wanted]
            known = {r[0] for r in conn.execute("SELECT path FROM files")}
            removed = [p for p in wanted if p in known and p not in present]
        deadline = time.monotonic() + time_limit if time_limit else None
        tick = progress(len(changed), len(files)) if progress else None
        rechunk = {f.path for f in changed} if rechunk_all else dirty
        report = index_files(conn, self.project.root, changed, removed, self.embedder_name,
                             self.embedder, deadline=deadline, progress=tick, rechunk=rechunk)
        if rescrub and not report.stopped_early:
            mark_scrubbed(conn)
        if only is None and not report.stopped_early:
            mark_chunked(conn)
        if report.indexed or report.removed or report.reembedded:
            from kenning.index.db import get_meta, set_meta
            from kenning.lifecycle.anchors import refresh

            set_meta(conn, "code_generation", int(get_meta(conn, "code_generation") or 0) + 1)
            refresh(conn, str(self.project.local_dir), str(self.project.root))  # anchor states
        return report

    def code_counts(self) -> dict[str, int | None]:
        from kenning.index.db import get_meta

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
