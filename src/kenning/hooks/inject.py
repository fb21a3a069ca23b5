"""Turning chosen facts into one hook's output: budget, dedup per session, logs. Stdlib only.

Shared by UserPromptSubmit and PreToolUse: both inject facts relevant to something (a
prompt, a file), both count as the facts' use (docs/design.md), both are logged.
"""

from __future__ import annotations

from kenning.core import fastjson as json
from kenning.hooks import context
from kenning.hooks.base import Ctx
from kenning.hooks.state import SessionState
from kenning.store import injectlog
from kenning.store.eventlog import write_event


def output(event: str, text: str) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": event,
                                              "additionalContext": text}})


def inject_facts(ctx: Ctx, event: str, intro: str, facts: list[tuple[str, str]],
                 via: str, file_key: str | None = None) -> str | None:
    """Render the not-yet-injected facts within this injection's and the session's budget.

    `facts`: (id, rendered line), best first. `file_key`: PreToolUse's once-per-file key.
    """
    with SessionState(ctx) as state:
        if file_key is not None:
            if file_key in state["files"]:
                return None
            state["files"].append(file_key)
        seen = set(state["facts"])
        fresh = [(fid, line) for fid, line in facts if fid not in seen]
        if not fresh:
            return None
        budget = context.allowance(context.PER_INJECTION, state["chars"])
        text, ids = context.render(intro, fresh, [], budget)
        if not ids:
            return None
        state["chars"] += len(text)
        state["facts"].extend(ids)
    injectlog.record(ctx.local_dir, session=ctx.session, event=event, facts=ids, chars=len(text),
                     detail=file_key)
    # Returned for a prompt or a file: that is use, which postpones decay (docs/design.md).
    write_event(ctx.events_path, "use", session=ctx.session, facts=ids, via=via)
    return output(event, text)
