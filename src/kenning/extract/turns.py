"""Pass 2 over a transcript: the live lines, re-read one at a time, become `Turn`s.

Claude Code writes each assistant content block as its own line; lines that share
`message.id` are one turn, and tool results that arrive between those lines are held until
the assistant turn is complete so the order reads as the conversation did. Meta lines,
compaction summaries and text that is not the speaker's own (see `cleaning.py`) are dropped;
a line that no longer parses (the file changed under us) is skipped, never raised.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from kenning.extract.branch import LineIndex, content_blocks, load_line
from kenning.extract.cleaning import (
    MAX_INPUT_CHARS,
    MAX_RESULT_CHARS,
    clean_text,
    clip,
    clip_input,
)
from kenning.extract.model import Turn

_WRITES = ("Write", "Edit", "MultiEdit")


def _result_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b.get("text", "") if isinstance(b, dict) else str(b)
            for b in content
            if not isinstance(b, dict) or b.get("type") == "text"
        )
    return "" if content is None else str(content)


def _envelope(obj: dict) -> dict:
    parent = obj.get("parentUuid")
    return {
        "uuid": obj["uuid"],
        "parent_uuid": parent if isinstance(parent, str) else None,
        "timestamp": obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None,
        "session_id": obj.get("sessionId") if isinstance(obj.get("sessionId"), str) else None,
        "is_sidechain": obj.get("isSidechain") is True,
        "agent_id": obj.get("agentId") if isinstance(obj.get("agentId"), str) else None,
        "cwd": obj.get("cwd") if isinstance(obj.get("cwd"), str) else None,
    }


def _user_turn(obj: dict) -> Turn | None:
    if obj.get("isCompactSummary"):
        texts = [b.get("text", "") if isinstance(b, dict) else str(b)
                 for b in content_blocks(obj)]
        text = clean_text("\n".join(t for t in texts if isinstance(t, str)))
        return Turn(role="summary", text=text, **_envelope(obj)) if text else None
    if obj.get("isMeta") or obj.get("isCompactSummary") or obj.get("isVisibleInTranscriptOnly"):
        return None
    texts: list[str] = []
    results: list[tuple[str, str, bool]] = []
    for block in content_blocks(obj):
        if isinstance(block, str):
            texts.append(block)
        elif not isinstance(block, dict):
            continue
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "tool_result":
            output = clean_text(_result_text(block.get("content")))
            results.append(
                (
                    str(block.get("tool_use_id") or ""),
                    clip(output, MAX_RESULT_CHARS),
                    block.get("is_error") is True,
                )
            )
    text = clean_text("\n".join(texts))
    if not text and not results:
        return None
    role = "tool_result" if results else "user"
    return Turn(role=role, text=text, tool_results=tuple(results), **_envelope(obj))


class _AssistantBuilder:
    """Collects the blocks of one assistant message written over several lines."""

    def __init__(self, obj: dict, message_id: str | None):
        self.envelope = _envelope(obj)
        self.message_id = message_id
        self.texts: list[str] = []
        self.tool_uses: list[tuple[str, str, dict]] = []
        self.add(obj)

    def add(self, obj: dict) -> None:
        for block in content_blocks(obj):
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str):
                self.texts.append(block["text"])
            elif block.get("type") == "tool_use":
                raw_input = block.get("input")
                name = str(block.get("name") or "")
                # a file the agent writes may be a knowledge note (notes.py): read in full
                limit = MAX_RESULT_CHARS if name in _WRITES else MAX_INPUT_CHARS
                tool_input = clip_input(raw_input, 0, limit) if isinstance(raw_input, dict) else {}
                self.tool_uses.append(
                    (str(block.get("id") or ""), str(block.get("name") or ""), tool_input)
                )

    def build(self) -> Turn | None:
        text = clean_text("\n".join(t for t in self.texts if t.strip()))
        if not text and not self.tool_uses:
            return None
        return Turn(role="assistant", text=text, tool_uses=tuple(self.tool_uses), **self.envelope)


def summary_turns(f: BinaryIO, ix: LineIndex) -> list[Turn]:
    """The compaction summaries of the file, whether or not the live branch passes them."""
    out = []
    for offset in ix.summaries:
        f.seek(offset)
        obj = load_line(f.readline())
        turn = _user_turn(obj) if obj is not None and isinstance(obj.get("uuid"), str) else None
        if turn is not None and turn.role == "summary":
            out.append(turn)
    return out


def read_live_turns(f: BinaryIO, ix: LineIndex, live: bytearray) -> Iterator[Turn]:
    """The turns of the lines marked in `live`, in file order, assistant lines merged."""
    open_msg: _AssistantBuilder | None = None
    held: list[Turn] = []  # tool results that arrive between lines of one assistant message

    def flush() -> Iterator[Turn]:
        nonlocal open_msg, held
        if open_msg is not None:
            turn = open_msg.build()
            if turn is not None:
                yield turn
        yield from held
        open_msg, held = None, []

    for idx in range(len(live)):
        if not live[idx]:
            continue
        f.seek(ix.offsets[idx])
        obj = load_line(f.readline())
        if obj is None:
            continue  # the file changed under us; skip rather than fail
        uuid = obj.get("uuid")
        if not isinstance(uuid, str) or ix.by_uuid.get(hash(uuid)) != idx:
            continue  # an earlier copy of a repeated uuid
        kind = obj.get("type")
        if kind == "assistant":
            message = obj.get("message")
            mid = message.get("id") if isinstance(message, dict) else None
            mid = mid if isinstance(mid, str) and mid else None
            if open_msg is not None and mid is not None and open_msg.message_id == mid:
                open_msg.add(obj)
                continue
            yield from flush()
            open_msg = _AssistantBuilder(obj, mid)
        elif kind == "user":
            turn = _user_turn(obj)
            if turn is None:
                continue
            if turn.role == "tool_result" and open_msg is not None:
                held.append(turn)
            else:
                yield from flush()
                yield turn
    yield from flush()
