"""The derived index: disposable, rebuilt from fact YAML, source files and local logs.

Owns `index.db` (schema, named migrations, the `meta` table with embedder and ranking
versions), the vector cache beside it, chunking of source files, the embedders, and the
sync that keeps the index in step with the canonical files. The only `sqlite_utils` user;
readers use plain `sqlite3`. May import core, the lifecycle rules and store.
"""

import os

# Search does one matrix-vector product per query; multi-threaded BLAS makes that 40x slower
# on a busy two-core machine (thread hand-off dominates such a small product). The processes
# that do vector math (CLI, MCP server, catch-up, the semantic hook leg) import this package
# before numpy, so BLAS is pinned to one thread here, unless the user chose otherwise.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

# The bundled model, and its weights pinned (a test hashes model.safetensors against them). An
# index records them with the embedder's name (`embedder_key`), so a release shipping other
# weights re-embeds every store once rather than comparing new query vectors with old ones.
# Here, not in `embed`, because the prompt hooks check the record without loading an embedder.
BUNDLED_NAME = "minilm-l6-pca256-int8"
BUNDLED_WEIGHTS = "239b495a34e7"


# The code-tuned copy of the bundled model (scripts/train_code_model.py), pinned the same way:
# with the bundled model configured, chunks (code and docs) and the query vector searching them
# come from it; facts keep the bundled model (bench/data/SPLITS.md, issue 18).
CODE_NAME = "minilm-l6-code-pca256-int8"
CODE_WEIGHTS = "b4d97bf73585"
BUNDLED_CODE = "bundled-code"


def embedder_key(name: str) -> str:
    """What an index records as the source of its vectors: the configured name, and for the
    bundled models the version of their weights."""
    if name == "bundled":
        return f"bundled:{BUNDLED_NAME}:{BUNDLED_WEIGHTS}"
    if name == BUNDLED_CODE:
        return f"bundled:{CODE_NAME}:{CODE_WEIGHTS}"
    return name


def code_embedder_name(name: str) -> str:
    """The embedder for chunks given the configured one: the bundled model's code-tuned copy
    for the bundled model, else the configured model itself (a user's model, the fake)."""
    return BUNDLED_CODE if name == "bundled" else name
