"""The text hooks inject: a fenced, budgeted `<kenning-context>` block. Pure and stdlib only.

Facts are written as plain statements (the docs warn that imperative out-of-band text can
trip prompt-injection defences), each with its id, kind, confidence and why it was chosen.
Text inside a fact cannot close the block or open another tag: every `<` is escaped.
"""

from __future__ import annotations

OPEN = "<kenning-context>"
CLOSE = "</kenning-context>"

# docs/design.md, "The hook contract": per injection 2,000 characters (SessionStart 4,000), per
# session 12,000.
PER_INJECTION = 2000
SESSION_START = 4000
PER_SESSION = 12000
MAX_FACT_CHARS = 500


def escape(text: object) -> str:
    """One line of inert text: no `<` (so no tag can open or close), no line breaks."""
    return " ".join(str(text).split()).replace("<", "&lt;")


def allowance(per_injection: int, used_in_session: int, session_cap: int = PER_SESSION) -> int:
    """Characters this injection may use, given what the session already received."""
    return max(0, min(per_injection, session_cap - max(0, used_in_session)))


def fact_line(fact_id: str, kind: str, confidence: int, text: str, why: str) -> str:
    body = escape(text)
    if len(body) > MAX_FACT_CHARS:
        body = body[: MAX_FACT_CHARS - 1].rstrip() + "…"
    return f"- [{escape(kind)} {confidence / 100:.2f} {escape(fact_id)}; {escape(why)}] {body}"


def render(intro: str, facts: list[tuple[str, str]], tail: list[str], budget: int
           ) -> tuple[str, list[str]]:
    """The block within `budget` characters, and the ids of the facts it holds.

    `facts` are (id, rendered line) best first; lines that do not fit are left out whole.
    `tail` lines (hot files, tool names) follow the facts and are dropped last-first when
    even they do not fit. Returns ("", []) when not even the frame fits.
    """
    head = f"{OPEN}\n{escape(intro)}\n"
    facts = [(fact_id, escape(line)) for fact_id, line in facts]
    frame = len(head) + len(CLOSE)
    if frame > budget:
        return "", []
    tail_lines = [escape(line) for line in tail if line]
    while tail_lines and frame + sum(len(t) + 1 for t in tail_lines) > budget:
        tail_lines.pop()
    room = budget - frame - sum(len(t) + 1 for t in tail_lines)
    chosen: list[str] = []
    ids: list[str] = []
    for fact_id, line in facts:
        if len(line) + 1 <= room:
            chosen.append(line)
            ids.append(fact_id)
            room -= len(line) + 1
    body = "".join(line + "\n" for line in chosen + tail_lines)
    return head + body + CLOSE, ids


def tool_names_line() -> str:
    from kenning.core.mcpnames import MCP_PREFIX, MCP_TOOLS

    return "kenning MCP tools: " + ", ".join(MCP_PREFIX + name for name in MCP_TOOLS) + "."
