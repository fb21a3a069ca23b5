"""PreToolUse on Read|Edit|Write|MultiEdit|NotebookEdit: facts anchored to that file.

Imports: stdlib only; reads the anchors map written at sync time, never the index.
Once per file per session; subagents inject nothing.
"""

from __future__ import annotations

from kenning.hooks import context
from kenning.hooks.base import Ctx
from kenning.hooks.inject import inject_facts
from kenning.lifecycle import anchors
from kenning.lifecycle import decay as lifecycle

INTRO = "kenning: project facts about this file (kind, confidence, id; why)."


def handle(ctx: Ctx) -> str | None:
    if ctx.agent_id:
        return None
    tool_input = ctx.payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    rel = ctx.rel(tool_input.get("file_path") or tool_input.get("notebook_path"))
    if not rel or rel.startswith("/"):
        return None
    entries = anchors.lookup(ctx.local_dir, rel)
    if not entries:
        return None
    from kenning.core import clock
    from kenning.hooks.factdb import parse_time

    now = clock.now_us()
    scored = []
    for entry in entries:
        if entry.get("state") == "orphaned":
            continue  # the code it was about is gone
        confirmed = parse_time(entry.get("confirmed"))
        current = lifecycle.current_confidence_us(
            int(entry.get("confidence") or 0), now if confirmed is None else confirmed,
            parse_time(entry.get("last_used")), now)
        if current >= lifecycle.INJECT_FLOOR:
            scored.append((current, entry))
    scored.sort(key=lambda pair: -pair[0])
    lines = []
    for current, entry in scored:
        why = f"anchored to {rel}" + (f":{entry['symbol']}" if entry.get("symbol") else "")
        if entry.get("state") == "drifted":
            why += "; the code changed since it was confirmed, verify"
        lines.append((entry["id"], context.fact_line(entry["id"], entry.get("kind", ""),
                                                     current, entry.get("text", ""), why)))
    if not lines:
        return None
    return inject_facts(ctx, "PreToolUse", INTRO, lines, via="file", file_key=rel)
