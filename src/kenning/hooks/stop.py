"""Stop: mark the session as needing extraction. Returns nothing, ever.

Any output here (additionalContext or a block decision) makes Claude Code start another
model turn (DESIGN §7), so this handler has no return value at all. Stdlib only.
"""

from __future__ import annotations

import os

from .base import Ctx
from .marks import mark


def handle(ctx: Ctx) -> None:
    if ctx.agent_id:
        return
    mark(ctx)
    if _queued_edits(ctx):
        # Files edited this turn: the detached catch-up re-indexes them (under its lock).
        from .session_start import _spawn_background

        _spawn_background(ctx)


def _queued_edits(ctx: Ctx) -> bool:
    try:
        return os.path.getsize(ctx.local("reindex-queue.jsonl")) > 0
    except OSError:
        return False
