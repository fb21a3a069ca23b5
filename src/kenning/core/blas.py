"""One BLAS thread for the processes that do vector math.

Search does one matrix-vector product per query. Multi-threaded BLAS makes that 40x slower
on a busy two-core machine (thread hand-off dominates such a small product), so kenning pins
BLAS to one thread unless the user chose otherwise. It only works before numpy is first
imported: `kenning.index` (which owns the embedder and the vectors) calls it on import, and
the semantic hook leg calls it before its own numpy import.
"""

from __future__ import annotations

import os

VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def pin_one_thread() -> None:
    for name in VARIABLES:
        os.environ.setdefault(name, "1")
