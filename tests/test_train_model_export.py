"""The export arithmetic of scripts/train_model.py (numpy only; training needs the heavy venv):
at the trained vectors' full width the export only centres them, which ranks texts exactly
as a PCA onto every axis would."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import train_model  # noqa: E402  (needs sys.path above)


def _pooled(vectors: np.ndarray, sentences: list[list[int]]) -> np.ndarray:
    rows = np.stack([vectors[ids].mean(axis=0) for ids in sentences])
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_centring_at_full_width_keeps_the_cosines_of_a_full_pca():
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(50, 12)) + 3.0  # a shared offset, as trained vectors have
    sentences = [list(rng.integers(0, 50, size=rng.integers(1, 8))) for _ in range(40)]
    sample = np.stack([vectors[ids].mean(axis=0) for ids in sentences])

    centred = _pooled(train_model.centre(vectors, sample), sentences)
    rotated = _pooled(train_model.pca_project(vectors, sample, 12), sentences)
    raw = _pooled(vectors, sentences)

    assert np.allclose(centred @ centred.T, rotated @ rotated.T, atol=1e-9)
    assert not np.allclose(centred @ centred.T, raw @ raw.T, atol=1e-3)  # centring matters
    fewer = _pooled(train_model.pca_project(vectors, sample, 4), sentences)
    assert fewer.shape == (40, 4)


def test_int8_rows_keep_each_row_within_half_a_step_of_its_scale():
    rng = np.random.default_rng(3)
    vectors = rng.normal(size=(20, 16)).astype(np.float32)
    vectors[5] = 0.0  # an all-zero row gets scale 1, not a division by zero
    rows, scale = train_model.int8_rows(vectors)
    assert rows.dtype == np.int8 and scale.dtype == np.float32
    assert np.abs(rows).max() == 127
    assert np.all(np.abs(rows * scale[:, None] - vectors) <= scale[:, None] / 2 + 1e-6)
    assert scale[5] == 1.0 and not rows[5].any()
