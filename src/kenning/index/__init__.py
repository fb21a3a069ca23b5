"""The derived index: disposable, rebuilt from fact YAML, source files and local logs.

Owns `index.db` (schema, named migrations, the `meta` table with embedder and ranking
versions), the vector cache beside it, chunking of source files, the embedders, and the
sync that keeps the index in step with the canonical files. The only `sqlite_utils` user;
readers use plain `sqlite3`. May import core, the lifecycle rules and store.
"""

from kenning.core.blas import pin_one_thread

# The vector math (embedding, search) runs in processes that import this package before
# numpy; pinning BLAS here keeps one small product per query from waiting on thread hand-off.
pin_one_thread()
