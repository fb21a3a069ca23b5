"""Stop: mark the session as needing extraction. Returns nothing, ever.

Any output here (additionalContext or a block decision) makes Claude Code start another
model turn (DESIGN §7), so this handler has no return value at all. Stdlib only.
"""

from __future__ import annotations

from .base import Ctx
from .marks import mark


def handle(ctx: Ctx) -> None:
    if ctx.agent_id:
        return
    mark(ctx)
