"""The optional hybrid leg of UserPromptSubmit: cosine between the prompt and fact vectors.

Off by default (the stdlib FTS path is the default, DESIGN §7). Switched on by
`[hooks] prompt_search = "hybrid"` in the user's config.toml or KENNING_PROMPT_SEARCH=hybrid,
and used only when the plugin's dependencies are ready; it imports numpy and the embedding
model, so it costs ~0.2 s more per prompt (p50 budget 300 ms, DESIGN §8).
"""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime

from .base import Ctx
from .factdb import _COLUMNS, FactRow

# Calibrated with the bundled (retrained) model on tests/fixtures/hooks/relevance.json:
# thresholds 0.40/0.45/0.50/0.55/0.60 gave 19/19/18/18/17 of 20 relevant prompts their fact
# and 15/17/18/20/20 of 20 irrelevant prompts nothing; 0.55 is the first with no false
# injection (tests/test_hooks_relevance.py::test_hybrid_leg_on_the_labelled_set).
COSINE_THRESHOLD = 0.55
TOP = 8


def _user_config(ctx: Ctx) -> dict:
    """The user's config.toml as a table; {} when absent or unreadable (a hook never fails
    on config: it falls back to the defaults)."""
    try:
        with open(os.path.join(ctx.home, "config.toml"), "rb") as handle:
            raw = handle.read()
    except OSError:
        return {}
    import tomllib  # only when there is a file: its import is a fifth of this hook's time

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return {}


def mode(ctx: Ctx) -> str:
    explicit = os.environ.get("KENNING_PROMPT_SEARCH")
    if explicit:
        return explicit
    return str(_user_config(ctx).get("hooks", {}).get("prompt_search", "fts"))


def embedder_name(ctx: Ctx) -> str:
    return os.environ.get("KENNING_EMBEDDER") or str(_user_config(ctx).get("embedder",
                                                                            "bundled"))


def cosine_rows(ctx: Ctx, conn: sqlite3.Connection, prompt: str, now: datetime
                ) -> list[tuple[FactRow, float]]:
    """Active facts nearest the prompt with their cosine; [] when the leg is unavailable."""
    from .. import runtime

    if runtime.state() not in ("dev", "ready", "unmanaged"):
        return []
    import site

    site.main()  # the launcher runs with -S; numpy lives in site-packages
    import numpy as np

    from ..embed import load_embedder
    from ..index.reader import load_fact_vectors

    name = embedder_name(ctx)
    meta = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
    if not meta or meta[0] != name:
        return []
    ids, matrix = load_fact_vectors(conn)
    if not ids:
        return []
    query = load_embedder(name).encode([prompt])[0]
    if query.shape[0] != matrix.shape[1]:
        return []
    scores = matrix @ query
    best = np.argsort(-scores)[:TOP * 3]
    chosen = {ids[i]: float(scores[i]) for i in best if scores[i] >= COSINE_THRESHOLD}
    if not chosen:
        return []
    marks = ",".join("?" for _ in chosen)
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM facts f LEFT JOIN usage u ON u.fact_id = f.id "
        f"WHERE f.status = 'active' AND f.id IN ({marks})", tuple(chosen)).fetchall()
    out = [(FactRow(row, now), chosen[row[0]]) for row in rows]
    out.sort(key=lambda pair: -pair[1])
    return out[:TOP]
