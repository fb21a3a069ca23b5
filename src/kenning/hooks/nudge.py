"""Stop, once per session: ask the agent itself to record what should outlive the session.

The model in the session is the best extractor there is; the offline rules only see what the
tools printed. So when a session carries evidence of durable knowledge (a long run of tool
calls with failures in it, or requirements read from an issue tracker or agent guide) and
nothing was saved through kenning's tools, Stop returns one short `additionalContext` asking
the agent to save it with `knowledge_add`. That costs one extra model turn, at most once per
session: a marker under the local folder says it was asked, and Stop never asks while
`stop_hook_active` (it is already a continuation) nor when the turn ended on a question to
the user (Stop's `last_assistant_message`; the transcript may lag); a later Stop asks.

`[extract] ask_agent` decides when: "interactive" (default) asks only in sessions a person
is at, because in `claude -p` the extra turn's text would become the script's result;
"always" asks in headless runs too; "never" turns it off. Stdlib only; the config is read
only once the cheap checks have passed (about once per session).
"""

from __future__ import annotations

import os

from kenning.core import fastjson
from kenning.core.clock import now_iso
from kenning.hooks.base import Ctx, safe_name

DIR_NAME = "asked"
TAIL_BYTES = 8 * 1024 * 1024
MIN_TOOL_CALLS = 15
# A call of kenning's save tools: the tool names also appear in injected context and, with
# `alwaysLoad`, in the tool definitions the transcript records, so only a name within a
# tool_use block counts (`"type":"tool_use","id":…,"name":…`, as the API sends it).
SAVED = tuple(f'"name":{sep}"mcp__plugin_kenning_kenning__{tool}"'.encode()
              for tool in ("knowledge_add", "session_save") for sep in ("", " "))
TOOL_USE_WINDOW = 160  # bytes before the name where the block's type must be
REQUIREMENT_READS = (b"gh issue view", b"bd show", b"jira issue", b"linear", b"CLAUDE.md",
                     b"AGENTS.md", b"/docs/adr", b"DESIGN.md")
MESSAGE = (
    "kenning: this session fixed failures or read requirements, and nothing from it was saved "
    "to project memory. Before you stop: if it taught something a later session on this "
    "project would need (a constraint, a decision with its reason, a command that must be run "
    "a certain way, a gotcha and its fix), record each as one self-contained sentence with the "
    "kenning `knowledge_add` tool, using repo-relative paths. Skip status updates, guesses and "
    "anything proved wrong later in the session. If nothing qualifies, just reply \"nothing to "
    "save\". Do not resume the task."
)


def _evidence(transcript: str) -> bool:
    """Long enough, with something durable in it, and nothing saved yet."""
    try:
        with open(transcript, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            handle.seek(max(0, size - TAIL_BYTES))
            data = handle.read(TAIL_BYTES)
    except OSError:
        return False
    if _saved(data):
        return False
    calls = data.count(b'"type":"tool_use"') + data.count(b'"type": "tool_use"')
    if calls < MIN_TOOL_CALLS:
        return False
    failures = data.count(b'"is_error":true') + data.count(b'"is_error": true')
    return failures > 0 or any(marker in data for marker in REQUIREMENT_READS)


def _saved(data: bytes) -> bool:
    for marker in SAVED:
        at = data.find(marker)
        while at >= 0:
            if b'"tool_use"' in data[max(0, at - TOOL_USE_WINDOW):at]:
                return True
            at = data.find(marker, at + 1)
    return False


def awaits_user(last_message: object) -> bool:
    """The turn ended on a question to the user. Asking then would make the agent answer
    kenning instead of waiting for the person. Read from Stop's `last_assistant_message`:
    the transcript is written asynchronously and may not hold the turn's last text yet."""
    if not isinstance(last_message, str):
        return False  # an older Claude Code: no way to tell, ask as before
    lines = [line.strip() for line in last_message.strip().splitlines() if line.strip()]
    return bool(lines) and lines[-1].rstrip("*_`) ").endswith("?")


def _mode(ctx: Ctx) -> str:
    from pathlib import Path

    from kenning.core.config import load_config
    from kenning.core.paths import Project

    return load_config(Project(root=Path(ctx.root), home=Path(ctx.home))).ask_agent


def ask(ctx: Ctx) -> str | None:
    """The Stop output that asks the agent to save, or None (the usual case)."""
    transcript = ctx.payload.get("transcript_path")
    if (not ctx.session or not ctx.initialised or ctx.payload.get("stop_hook_active")
            or not isinstance(transcript, str)):
        return None
    marker = ctx.local(DIR_NAME, safe_name(ctx.session))
    if os.path.exists(marker) or awaits_user(ctx.payload.get("last_assistant_message")):
        return None  # asked already, or the agent waits for an answer: a later Stop may ask
    if not _evidence(transcript):
        return None
    mode = _mode(ctx)
    headless = os.environ.get("CLAUDE_CODE_ENTRYPOINT", "").startswith("sdk")
    if mode == "never" or (mode == "interactive" and headless):
        return None
    os.makedirs(os.path.dirname(marker), exist_ok=True)
    with open(marker, "w", encoding="utf-8") as handle:
        handle.write(now_iso() + "\n")
    return fastjson.dumps({"hookSpecificOutput": {"hookEventName": "Stop",
                                              "additionalContext": MESSAGE}})
