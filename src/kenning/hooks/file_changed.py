"""FileChanged: a watched file changed outside the agent's own edits. Stdlib only, never blocks.

SessionStart asks Claude Code to watch (`watchPaths`) the project's fact files and the hot
files. A change there that no Edit/Write made (an editor, a formatter, `git pull`, a Bash
command) is logged as one `change` event and queued for re-indexing, as PostToolUse queues
an Edit; the catch-up started at the end of the turn (Stop) re-indexes the code and syncs the
facts.
"""

from __future__ import annotations

from kenning.hooks.base import Ctx
from kenning.store.editqueue import queue_edit
from kenning.store.eventlog import write_event

KINDS = ("change", "add", "unlink")


def handle(ctx: Ctx) -> None:
    rel = ctx.rel(ctx.payload.get("file_path"))
    if not rel or rel.startswith("/") or rel == ".":
        return None  # outside the project: nothing kenning indexes
    kind = ctx.payload.get("event")
    write_event(ctx.events_path, "change", session=ctx.session, paths=[rel],
                change=kind if kind in KINDS else "change")
    queue_edit(ctx.local_dir, rel, ctx.session)
    return None
