"""The one top-k of every vector leg: best scores first, ties broken by position.

Ties by position (ids are stored sorted) make a rebuilt index rank alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# Below this cosine a vector leg does not vouch for a fact or a chunk on its own.
MIN_COSINE = 0.15


def top_k(scores: np.ndarray, k: int, *, ordered: bool = True) -> np.ndarray:
    """Indices of the `k` highest scores along the last axis, best first (ties by index);
    one argpartition, then only the `k` are sorted. `ordered=False` skips the sort and the
    negated copy (a neighbour search over blocks of a large matrix needs neither)."""
    import numpy as np

    n = scores.shape[-1]
    k = min(k, n)
    if k <= 0:
        return np.zeros(scores.shape[:-1] + (0,), dtype=np.intp)
    if not ordered:
        return np.argpartition(scores, n - k, axis=-1)[..., n - k:]
    top = np.argpartition(-scores, k - 1, axis=-1)[..., :k]
    top = np.sort(top, axis=-1)  # by position, so the stable sort below breaks ties by it
    taken = np.take_along_axis(scores, top, axis=-1)
    return np.take_along_axis(top, np.argsort(-taken, axis=-1, kind="stable"), axis=-1)


def nearest(ids: list, matrix: np.ndarray, qvec: np.ndarray, depth: int,
            min_cosine: float = MIN_COSINE) -> list[tuple]:
    """The `depth` best (id, cosine) by one matrix-vector product, at least `min_cosine`.
    Pure numpy: safe to run on a worker thread."""
    if not ids or matrix.shape[1] != qvec.shape[0]:
        return []
    scores = matrix @ qvec
    return [(ids[i], float(scores[i])) for i in top_k(scores, depth) if scores[i] >= min_cosine]


def neighbourhood(matrix: np.ndarray, rows: np.ndarray, k: int, sample: int) -> np.ndarray:
    """For each of `rows` (positions in `matrix`, unit vectors), the mean cosine to its `k`
    nearest other rows: how crowded its corner of the space is. Against every row up to
    `sample` rows, else against every n-th row (a fixed sample, so ranks repeat)."""
    import numpy as np

    step = -(-matrix.shape[0] // sample)  # ceiling: at most `sample` rows compared
    reference = matrix[::step]
    sims = matrix[rows] @ reference.T
    own = rows % step == 0  # a row of the sample is no neighbour of itself
    sims[np.flatnonzero(own), rows[own] // step] = -np.inf
    k = min(k, reference.shape[0] - 1)
    if k <= 0:
        return np.zeros(len(rows), dtype=np.float32)
    return np.take_along_axis(sims, top_k(sims, k, ordered=False), axis=-1).mean(axis=-1)
