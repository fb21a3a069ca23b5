"""UserPromptSubmit: facts relevant to the prompt, or nothing.

Imports: stdlib only (sqlite3 FTS on the index) by default; with the hybrid leg switched on
(`kenning.hooks.semantic`), numpy and the embedding model too. Subagents inject nothing.
"""

from __future__ import annotations

from kenning.core import clock
from kenning.hooks import context, factdb
from kenning.hooks.base import Ctx

INTRO = "kenning: project facts that match this prompt (kind, confidence, id; why)."
# Right or silent: the best fact, and a second only if it matched about as well.
MAX_FACTS = 2


def semantic_mode(ctx: Ctx) -> str:
    from kenning.hooks.semantic import mode

    return mode(ctx)


def _semantic_lines(ctx: Ctx, conn, prompt: str, now, seen: set[str],
                    lexical: list) -> list[tuple[str, str]]:
    """The hybrid leg's facts; on any failure the FTS result stands (and the error is logged)."""
    from kenning.lifecycle.decay import INJECT_FLOOR

    try:
        from kenning.hooks.semantic import cosine_rows

        pairs = cosine_rows(ctx, conn, prompt, now, tuple(lexical))
    except Exception as exc:  # noqa: BLE001 - the optional leg must not cost the FTS result
        from kenning.core.errorlog import log_error

        log_error("hook user-prompt-submit (hybrid leg)", exc, ctx.local_dir)
        return []
    return [(row.id, context.fact_line(row.id, row.kind, row.current, row.text,
                                       f"similar to the prompt, cos {cos:.2f}"))
            for row, cos in pairs if row.id not in seen and row.current >= INJECT_FLOOR]


def _cosines(ctx: Ctx, conn, prompt: str, candidates: list) -> bool:
    """The bundled model's cosines on the candidates (`factdb.add_cosines`); False, and the
    keyword rules decide, when the index has no such vectors or reading them fails."""
    try:
        return factdb.add_cosines(conn, prompt, candidates)
    except Exception as exc:  # noqa: BLE001 - the vectors must not cost the keyword result
        from kenning.core.errorlog import log_error

        log_error("hook user-prompt-submit (prompt vector)", exc, ctx.local_dir)
        return False


def handle(ctx: Ctx) -> str | None:
    prompt = ctx.payload.get("prompt")
    if ctx.agent_id or not isinstance(prompt, str) or not prompt.strip():
        return None
    conn = factdb.connect(ctx.index_path)
    if conn is None:
        return None
    now = clock.now_us()
    try:
        candidates = factdb.prompt_matches(conn, prompt[:4000], now)
        rows = factdb.relevant_by_vectors(candidates, request=factdb.is_request(prompt)) \
            if _cosines(ctx, conn, prompt[:4000], candidates) else factdb.relevant(candidates)
        lines = [(r.id, context.fact_line(r.id, r.kind, r.current, r.text,
                                          f"prompt match {r.score:.2f}")) for r in rows]
        if semantic_mode(ctx) == "hybrid":
            lines += _semantic_lines(ctx, conn, prompt[:4000], now, {r.id for r in rows},
                                     candidates)
    finally:
        conn.close()
    lines = lines[:MAX_FACTS]
    if not lines:
        return None
    # Imported only to inject (most prompts match nothing): the session state, its lock and
    # the logs are a tenth of the hook's imports.
    from kenning.hooks.inject import inject_facts

    return inject_facts(ctx, "UserPromptSubmit", INTRO, lines, via="prompt")
