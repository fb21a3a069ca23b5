"""The two values the extract package passes between its modules: `Turn` and `Candidate`.

They live apart from the code that makes them so that the transcript reader, the rules, the
command-fix rule, the LLM extractor and the pipeline can all share them without importing
each other. Frozen dataclasses, stdlib only.
"""

from __future__ import annotations

from dataclasses import dataclass

from kenning.core.records import Anchor


@dataclass(frozen=True)
class Turn:
    """One turn of the live conversation.

    `role` is 'user' (words the user typed, queued messages included), 'assistant' (all
    blocks of one model message), 'tool_result' (a user line carrying tool output) or
    'summary' (a compaction summary Claude Code wrote). `tool_uses` holds
    (tool_use_id, tool name, input dict); `tool_results` holds (tool_use_id, output text,
    is_error). Texts are cleaned: kenning's own injected context, `<private>` spans, system
    reminders and slash-command wrappers are gone.
    """

    uuid: str
    parent_uuid: str | None
    role: str
    text: str
    tool_uses: tuple[tuple[str, str, dict], ...] = ()
    tool_results: tuple[tuple[str, str, bool], ...] = ()
    timestamp: str | None = None
    session_id: str | None = None
    is_sidechain: bool = False
    agent_id: str | None = None
    cwd: str | None = None  # the folder Claude Code ran in when it wrote the line


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """One proposed fact; `evidence` is the uuid of the user or tool-output line."""

    kind: str  # codebase | interaction | decision
    text: str
    rationale: str | None = None
    about: tuple[Anchor, ...] = ()
    evidence: str
    rule: str
    session: str | None = None
