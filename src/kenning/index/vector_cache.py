"""A file copy of the chunk vectors, so a fresh process skips 100k SQLite blob reads.

Derived from `chunk_vectors` like everything else here: named by the code generation, written
atomically by the first reader after an index change, deleted with the index.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

from kenning.core.atomic import atomic_file
from kenning.index.reader import stack_vectors

PREFIX = "chunk-vectors-"


def _cache_path(cache_dir: Path, generation: str) -> Path:
    return cache_dir / f"{PREFIX}{generation}.npz"


def load_chunk_vectors(
    conn: sqlite3.Connection, cache_dir: Path | None, generation: str | None
) -> tuple[list[int], np.ndarray]:
    """Chunk ids (sorted) and a float32 matrix; from the cache file when it is current."""
    if cache_dir is not None and generation is not None:
        path = _cache_path(cache_dir, generation)
        try:
            with np.load(path) as data:
                return data["ids"].tolist(), data["vectors"].astype(np.float32)
        except (OSError, KeyError, ValueError):
            pass
    ids, half = stack_vectors(
        conn.execute("SELECT chunk_id, vec FROM chunk_vectors ORDER BY chunk_id"), np.float16)
    if ids and cache_dir is not None and generation is not None:
        _write(cache_dir, generation, np.asarray(ids, dtype=np.int64), half)
    return ids, half.astype(np.float32)


def _write(cache_dir: Path, generation: str, ids: np.ndarray, half: np.ndarray) -> None:
    """Atomic replace; stale generations removed. A failure only costs the next cold start."""
    try:
        with atomic_file(_cache_path(cache_dir, generation), durable=False) as handle:
            np.savez(handle, ids=ids, vectors=half)
        for old in cache_dir.glob(f"{PREFIX}*.npz"):
            if old.name != _cache_path(cache_dir, generation).name:
                old.unlink(missing_ok=True)
    except OSError:
        pass


def discard(cache_dir: Path) -> None:
    for old in cache_dir.glob(f"{PREFIX}*.npz"):
        old.unlink(missing_ok=True)
