"""kenning: persistent, project-scoped memory for coding agents."""

import os as _os

# Search does one matrix-vector product per query. Multi-threaded BLAS makes that 40x slower
# on a busy two-core machine (thread hand-off dominates such a small product), so pin BLAS
# to one thread unless the user chose otherwise. Must run before numpy is imported.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
