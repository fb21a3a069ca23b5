"""UserPromptSubmit: facts relevant to the prompt, or nothing.

Imports: stdlib only (sqlite3 FTS on the index). Subagents inject nothing.
"""

from __future__ import annotations

from .. import context
from . import factdb
from .base import Ctx
from .inject import inject_facts

INTRO = "kenning: project facts that match this prompt (kind, confidence, id; why)."
MAX_FACTS = 4


def handle(ctx: Ctx) -> str | None:
    prompt = ctx.payload.get("prompt")
    if ctx.agent_id or not isinstance(prompt, str) or not prompt.strip():
        return None
    conn = factdb.connect(ctx.index_path)
    if conn is None:
        return None
    try:
        rows = factdb.relevant(factdb.prompt_matches(conn, prompt[:4000], factdb.now_utc()))
    finally:
        conn.close()
    lines = [(r.id, context.fact_line(r.id, r.kind, r.current, r.text,
                                      f"prompt match {r.score:.2f}"))
             for r in rows[:MAX_FACTS]]
    if not lines:
        return None
    return inject_facts(ctx, "UserPromptSubmit", INTRO, lines, via="prompt")
