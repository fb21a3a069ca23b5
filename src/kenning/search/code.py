"""The code/doc half of search: keyword and vector legs over chunks, and hit rendering."""

from __future__ import annotations

import fnmatch
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kenning.core.textutil import query_terms
from kenning.index.chunktypes import CHUNK_TYPES, chunk_type, identifier_words
from kenning.search.topk import MIN_COSINE, neighbourhood, top_k

if TYPE_CHECKING:
    import numpy as np

    from kenning.index.embed import Embedder

__all__ = ["ChunkFilter", "ChunkRow", "ChunkSearcher", "filtered", "identifier_words"]

# bm25 column weights: symbol, path, text, identifier terms
CHUNK_BM25_WEIGHTS = (4.0, 2.0, 1.0, 1.0)
# The vector leg ranks by cosine less HUB_WEIGHT times the chunk's crowding (its mean cosine
# to its HUB_NEIGHBOURS nearest chunks): a chunk in a crowded corner (a name that is mostly
# the project's main type, `Subject.asObservable`, `DateTime.until`) is near every query that
# names that type and came first for many of them. The HUB_POOL best by cosine are reranked
# (200 ranked the same on the development corpora); crowding is measured against at most
# HUB_SAMPLE chunks (every n-th beyond) and kept while the matrix lasts.
HUB_WEIGHT = 0.3
HUB_NEIGHBOURS = 10
HUB_POOL = 100
HUB_SAMPLE = 2048


@dataclass(frozen=True)
class ChunkRow:
    id: int
    path: str
    start_line: int
    end_line: int
    kind: str
    symbol: str
    lang: str
    doc: bool

    @property
    def type(self) -> str:
        """'code', 'doc' or 'config' (data and configuration files)."""
        return chunk_type(self.lang, self.doc)


@dataclass(frozen=True)
class ChunkFilter:
    types: frozenset[str] = frozenset(CHUNK_TYPES)
    lang: str | None = None
    path_glob: str | None = None

    @property
    def is_open(self) -> bool:
        """Nothing filtered out: a leg's first results are its results."""
        return self.types >= frozenset(CHUNK_TYPES) and not self.lang and not self.path_glob

    def accepts(self, row: ChunkRow) -> bool:
        if row.type not in self.types:
            return False
        if self.lang and row.lang != self.lang:
            return False
        return not self.path_glob or fnmatch.fnmatch(row.path, self.path_glob)


class ChunkSearcher:
    """Holds the chunk vector matrix for repeated searches in one process."""

    def __init__(self, conn: sqlite3.Connection, cache_dir: Path | None = None):
        self.conn = conn
        self.cache_dir = cache_dir
        self._vectors: tuple[list[int], np.ndarray] | None = None
        self._generation: str | None = None
        # the matrix crowding was measured on, and each measured row's crowding
        self._crowding: tuple[np.ndarray, dict[int, float]] | None = None

    def rows(self, ids: list[int]) -> dict[int, ChunkRow]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self.conn.execute(
            f"SELECT id, path, start_line, end_line, kind, symbol, lang, doc FROM chunks "
            f"WHERE id IN ({marks})", ids,
        )
        return {r[0]: ChunkRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]))
                for r in rows}

    def texts(self, ids: list[int]) -> dict[int, str]:
        """Several chunks' texts in one query (their signatures, for a parameter list)."""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(self.conn.execute(f"SELECT id, text FROM chunks WHERE id IN ({marks})", ids))

    def text(self, chunk_id: int) -> str:
        """A chunk's text, fetched only for the hits that are shown."""
        row = self.conn.execute("SELECT text FROM chunks WHERE id = ?", (chunk_id,)).fetchone()
        return row[0] if row else ""

    def keyword(self, match: str, depth: int) -> list[int]:
        weights = ", ".join(str(w) for w in CHUNK_BM25_WEIGHTS)
        from kenning.index.db import match_rows

        rows = match_rows(
            self.conn,
            f"SELECT rowid FROM (SELECT rowid, bm25(chunks_fts, {weights}) AS s "
            f"FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY s LIMIT ?) ORDER BY s, rowid",
            (match, depth),
        )
        return [r[0] for r in rows]

    def matrix(self, generation: str | None) -> tuple[list[int], np.ndarray]:
        """Chunk ids and their float32 vectors, from memory, the file cache or the index."""
        if self._vectors is None or generation != self._generation:
            from kenning.index.vector_cache import load_chunk_vectors

            self._vectors = load_chunk_vectors(self.conn, self.cache_dir, generation)
            self._generation = generation
        return self._vectors

    def nearest(self, ids: list[int], matrix: np.ndarray, qvec: np.ndarray, depth: int
                ) -> list[tuple[int, float]]:
        """The vector leg: the `depth` best (id, cosine) of at least MIN_COSINE, ranked by
        cosine less HUB_WEIGHT times crowding. Pure numpy on `matrix` (this searcher's):
        safe on a worker thread."""
        import numpy as np

        if not ids or matrix.shape[1] != qvec.shape[0]:
            return []
        scores = matrix @ qvec
        ranked = [int(i) for i in top_k(scores, max(depth, HUB_POOL))
                  if scores[i] >= MIN_COSINE]
        pool, rest = ranked[:HUB_POOL], ranked[HUB_POOL:]  # below the pool: by cosine
        if not pool:
            return []
        if self._crowding is None or self._crowding[0] is not matrix:
            self._crowding = (matrix, {})  # measured once per row while the matrix lasts
        crowding = self._crowding[1]
        new = np.array([i for i in pool if i not in crowding], dtype=np.intp)
        if len(new):
            crowding.update(zip(new.tolist(), neighbourhood(
                matrix, new, HUB_NEIGHBOURS, HUB_SAMPLE).tolist(), strict=True))
        adjusted = np.array([scores[i] - HUB_WEIGHT * crowding[i] for i in pool])
        order = [pool[n] for n in np.argsort(-adjusted, kind="stable")] + rest
        return [(ids[i], float(scores[i])) for i in order[:depth]]

    def query_vector(self, query: str, embedder: Embedder) -> np.ndarray | None:
        import numpy as np

        if not query_terms(query):
            return None
        return np.asarray(embedder.encode([identifier_words(query)])[0], dtype=np.float32)

    def semantic(
        self, query: str, embedder: Embedder, depth: int, generation: str | None
    ) -> list[tuple[int, float]]:
        qvec = self.query_vector(query, embedder)
        if qvec is None:
            return []
        ids, matrix = self.matrix(generation)
        return self.nearest(ids, matrix, qvec, depth)


def filtered(
    ranked: list[int], rows: Callable[[list[int]], dict[int, ChunkRow]], flt: ChunkFilter,
    limit: int,
) -> tuple[list[int], dict[int, ChunkRow]]:
    found = rows(ranked)
    kept = [cid for cid in ranked if cid in found and flt.accepts(found[cid])][:limit]
    return kept, found
