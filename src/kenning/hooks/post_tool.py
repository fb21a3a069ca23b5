"""PostToolUse (and PostToolUseFailure): one appended event per tool call. Never blocks.

Imports: stdlib only (DESIGN §7), and only what `base` already loaded.
"""

from __future__ import annotations

from kenning.hooks.base import Ctx
from kenning.store.editqueue import queue_edit
from kenning.store.eventlog import write_event

FILE_TOOLS = {"Read": "read", "Edit": "edit", "Write": "edit", "MultiEdit": "edit",
              "NotebookEdit": "edit", "NotebookRead": "read"}
SEARCH_TOOLS = ("Grep", "Glob")
EDIT_TYPES = ("edit",)


def _redact(text: str) -> str:
    """Search patterns are typed by the agent and may hold a token it was looking for. Only
    search events pay for the scrubber's import (`re`); reads and edits stay stdlib-lean."""
    from kenning.core.redact import redact

    return redact(text)


def _outcome(payload: dict) -> str:
    if payload.get("hook_event_name") == "PostToolUseFailure" or payload.get("error"):
        return "interrupted" if payload.get("is_interrupt") else "error"
    response = payload.get("tool_response")
    if isinstance(response, dict):
        if response.get("success") is False or response.get("is_error"):
            return "error"
        if response.get("interrupted"):
            return "interrupted"
    return "ok"


def event_for(ctx: Ctx) -> dict:
    """The event's fields, as `write_event` takes them (`store.events.Event`'s names)."""
    payload = ctx.payload
    tool = str(payload.get("tool_name") or "")
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        tool_input = {}
    event: dict = {"type": "tool", "tool": tool, "session": ctx.session}
    paths: list[str] = []
    if tool in FILE_TOOLS:
        event["type"] = FILE_TOOLS[tool]
        for key in ("file_path", "notebook_path", "path"):
            rel = ctx.rel(tool_input.get(key))
            if rel:
                paths.append(rel)
                break
    elif tool in SEARCH_TOOLS:
        event["type"] = "search"
        pattern = tool_input.get("pattern")
        if isinstance(pattern, str):
            event["pattern"] = _redact(pattern[:500])
        for key, name in (("glob", "glob"), ("type", "file_type")):
            if isinstance(tool_input.get(key), str):
                event[name] = _redact(tool_input[key][:200])
        rel = ctx.rel(tool_input.get("path"))
        if rel:
            paths.append(rel)
    elif tool.startswith("mcp__"):
        event["type"] = "mcp"
    if paths:
        event["paths"] = paths
    event["outcome"] = _outcome(payload)
    if ctx.agent_id:
        event["agent"] = ctx.agent_id
    if payload.get("tool_use_id"):
        event["tool_use_id"] = str(payload["tool_use_id"])[:100]
    return event


def handle(ctx: Ctx) -> None:
    event = event_for(ctx)
    write_event(ctx.events_path, **event)
    if event["type"] in EDIT_TYPES and event["outcome"] == "ok":
        for path in event.get("paths", ()):
            # The code indexer drains this queue (DESIGN §5: an edit queues the file).
            queue_edit(ctx.local_dir, path, ctx.session)
    return None
