"""The optional hybrid leg of UserPromptSubmit: cosine between the prompt and fact vectors.

Off by default (the stdlib FTS path is the default, docs/design.md). Switched on by
`[hooks] prompt_search = "hybrid"` in the user's config.toml or KENNING_PROMPT_SEARCH=hybrid,
and used only when the plugin's dependencies are ready; it imports numpy and the embedding
model, so it costs ~0.2 s more per prompt (docs/design.md, "Performance budgets").
"""

from __future__ import annotations

import os

from kenning.hooks.base import Ctx
from kenning.hooks.factdb import COLUMNS, Candidate, sqlite3

# Calibrated with the bundled model on tests/fixtures/hooks/relevance.json and the tessera
# development set (bench/relevance.py --mode hybrid): the vectors vouch for a fact alone at
# COSINE_THRESHOLD, and for a fact that shares two prompt words with it (below the FTS gate's
# bar) at AGREE_COSINE. At 0.55 alone (the old rule) 23 % of the 78 tessera unrelated prompts
# got a fact; 0.65 alone with 0.55 on agreement: 6 %, with 37 % of tessera questions given
# their fact against 24 % by the FTS gate alone.
COSINE_THRESHOLD = 0.65
AGREE_COSINE = 0.55
AGREE_RELEVANCE = 0.5
TOP = 8


def _user_config(ctx: Ctx) -> dict:
    """The user's checked settings; {} when absent or invalid (a hook never fails on config:
    it falls back to the defaults)."""
    if not os.path.exists(os.path.join(ctx.home, "config.toml")):
        return {}  # most users have none: skip importing the TOML reader (a fifth of the hook)
    from pathlib import Path

    from kenning.core.errors import KenningError
    from kenning.core.settings import user_settings

    try:
        return user_settings(Path(ctx.home))
    except KenningError:
        return {}


def mode(ctx: Ctx) -> str:
    explicit = os.environ.get("KENNING_PROMPT_SEARCH")
    if explicit:
        return explicit
    return _user_config(ctx).get(("hooks", "prompt_search"), "fts")


def embedder_name(ctx: Ctx) -> str:
    return os.environ.get("KENNING_EMBEDDER") or _user_config(ctx).get((None, "embedder"),
                                                                        "bundled")


def cosine_rows(ctx: Ctx, conn: sqlite3.Connection, prompt: str, now: int,
                lexical: tuple[Candidate, ...] = ()) -> list[tuple[Candidate, float]]:
    """Active facts the vectors vouch for, with their cosine, best first: the nearest one at
    COSINE_THRESHOLD, and any of `lexical` (FTS candidates that share at least two prompt
    words and reach AGREE_RELEVANCE) at AGREE_COSINE. [] when the leg is unavailable.
    `now`: microseconds since the epoch (clock.now_us)."""
    from kenning.plugin import runtime

    if runtime.state() not in ("dev", "ready", "unmanaged"):
        return []
    import site

    site.main()  # the launcher runs with -S; numpy lives in site-packages
    import numpy as np

    from kenning.index import embedder_key
    from kenning.index.embed import load_embedder
    from kenning.index.reader import load_fact_vectors

    name = embedder_name(ctx)
    meta = conn.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()
    if not meta or meta[0] != embedder_key(name):
        return []
    ids, matrix = load_fact_vectors(conn)
    if not ids:
        return []
    query = load_embedder(name).encode([prompt])[0]
    if query.shape[0] != matrix.shape[1]:
        return []
    scores = matrix @ query
    best = int(np.argmax(scores))
    chosen = {ids[best]: float(scores[best])} if scores[best] >= COSINE_THRESHOLD else {}
    position = {fid: n for n, fid in enumerate(ids)}
    for row in lexical:
        at = position.get(row.id)
        if at is not None and row.matched >= 2 and row.score >= AGREE_RELEVANCE \
                and scores[at] >= AGREE_COSINE:
            chosen[row.id] = float(scores[at])
    if not chosen:
        return []
    marks = ",".join("?" for _ in chosen)
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM facts f LEFT JOIN usage u ON u.fact_id = f.id "
        f"WHERE f.status = 'active' AND f.id IN ({marks})", tuple(chosen)).fetchall()
    out = [(Candidate(row, now), chosen[row[0]]) for row in rows]
    out.sort(key=lambda pair: -pair[1])
    return out[:TOP]
