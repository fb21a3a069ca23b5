"""Stop: mark the session as needing extraction; once per session, maybe ask the agent.

Any output here (additionalContext or a block decision) makes Claude Code start another
model turn (docs/design.md), so this handler returns nothing except the one budgeted request of
`nudge.py` (at most once per session, only when the session has evidence of durable
knowledge and saved none; `[extract] ask_agent`). Stdlib only on the usual path.
"""

from __future__ import annotations

from kenning.hooks.base import Ctx
from kenning.hooks.marks import mark


def handle(ctx: Ctx) -> str | None:
    if ctx.agent_id:
        return None
    mark(ctx)
    if _queued_edits(ctx):
        # Files edited this turn: the detached catch-up re-indexes them (under its lock).
        from kenning.hooks.session_start import spawn_background

        spawn_background(ctx)
    from kenning.hooks.nudge import ask

    return ask(ctx)


def _queued_edits(ctx: Ctx) -> bool:
    from kenning.store.editqueue import has_edits

    return has_edits(ctx.local_dir)
