"""The index owner: the one sqlite3 connection to a project's index, and the queries on it.

Every other service and job asks this object (never a connection it found on another
object). Modules that own tables of their own (the symbol checks of `lifecycle.stale`, the
anchors map, git history, the graph) are handed `conn` explicitly by their caller.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from kenning.index.reader import FactRow


class Index:
    """One project's index file. Cheap to construct; opens the file on first use."""

    def __init__(self, path: Path):
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._opened: tuple[int, int] | None = None  # the file the connection holds
        self._writable = True

    # ---- the connection --------------------------------------------------------------------
    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            from kenning.index.db import open_index

            # Taken before opening: if the file is swapped meanwhile, the next sync reopens
            # (once too often at worst, never too rarely).
            before = file_id(self.path)
            self._conn, self._writable = open_index(self.path)
            self._opened = before or file_id(self.path)
        return self._conn

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    @property
    def opened_writable(self) -> bool:
        """Whether the schema allowed writing when the file was opened."""
        return self._writable

    def replaced(self) -> bool:
        """A `rebuild` in another process swapped the file under an open connection."""
        return self._conn is not None and file_id(self.path) != self._opened

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def throw_away(self) -> None:
        """Close and delete the file (and its caches): the next use starts a new one."""
        from kenning.index.db import throw_away

        self.close()
        throw_away(self.path)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        from kenning.index.db import transaction

        with transaction(self.conn) as conn:
            yield conn

    # ---- meta and writability ----------------------------------------------------------------
    def meta(self, key: str) -> str | None:
        from kenning.index.db import get_meta

        return get_meta(self.conn, key)

    def set_meta(self, key: str, value: object) -> None:
        from kenning.index.db import set_meta

        set_meta(self.conn, key, value)

    def is_writable(self) -> bool:
        from kenning.index.db import is_writable

        return is_writable(self.conn)

    def ensure_writable(self) -> None:
        from kenning.index.db import ensure_writable

        ensure_writable(self.conn)

    # ---- queries ---------------------------------------------------------------------------
    def fact_rows(self) -> dict[str, FactRow]:
        from kenning.index.reader import load_fact_rows

        return load_fact_rows(self.conn)

    def fact_vectors(self) -> tuple[list[str], np.ndarray]:
        """Fact ids (sorted) and their float32 vectors."""
        from kenning.index.reader import load_fact_vectors

        return load_fact_vectors(self.conn)

    def fact_scores(self, match: str, limit: int) -> list[tuple[str, float]]:
        from kenning.index.reader import fts_fact_scores

        return fts_fact_scores(self.conn, match, limit)

    def problems(self) -> list[str]:
        """Fact files the last sync could not index, as `path: message`."""
        return [f"{r[0]}: {r[1]}" for r in self.conn.execute("SELECT path, message FROM problems")]

    def code_counts(self) -> dict[str, int | None]:
        conn = self.conn
        count: dict[str, int | None] = {
            t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("files", "chunks", "symbols")}
        indexed_at = self.meta("code_indexed_at")
        count["indexed_at"] = int(indexed_at) if indexed_at else None
        return count

    def indexed_paths(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT path FROM files")}

    def file_activity(self, now: datetime) -> dict[str, int]:
        from kenning.index.reader import recent_file_activity

        return recent_file_activity(self.conn, now)

    def activity_total(self) -> float:
        """All reads and edits folded so far: changes whenever new ones are."""
        return self.conn.execute("SELECT total(count) FROM file_activity").fetchone()[0]


def file_id(path: os.PathLike[str]) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino
