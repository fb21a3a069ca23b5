"""Pass 1 over a transcript: a small index of every line, and which lines are live.

Why it is shaped like this:
- Transcripts grow to hundreds of MB, so this pass keeps a few bytes per line (uuid index,
  parent, byte offset, flags), never the line itself; pass 2 (`turns.py`) re-reads only the
  lines marked live.
- The file is a tree, not a list: a rewind starts a new child of an older message, and
  compaction starts a new root (`compact_boundary`) that points back through
  `logicalParentUuid`. Only the chain from the last line back is what the user kept.
  Parallel tool calls hang off that chain as siblings (each result's parent is the
  assistant line that asked for it), so they are added back by message id and parent.
- The file is written late and in pieces: a line without its newline yet is left for the
  next read, and bad lines are skipped and counted, never raised.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from kenning.extract.cleaning import find_injected_ids, injected_texts

_F_SIDECHAIN = 1
_F_ASSISTANT = 2
_F_TOOL_RESULT = 4
_F_BOUNDARY = 8
_MISSING_PARENT = -3  # a parentUuid that names no line of this file


@dataclass
class LineIndex:
    """Pass 1: a few bytes per line, never the line itself."""

    offsets: array = field(default_factory=lambda: array("q"))
    parents: array = field(default_factory=lambda: array("i"))
    flags: bytearray = field(default_factory=bytearray)
    message: array = field(default_factory=lambda: array("i"))
    # Keyed by hash(uuid), not the string: a third less memory on progress-heavy files; a
    # 64-bit collision among one file's lines is not a practical concern.
    by_uuid: dict[int, int] = field(default_factory=dict)
    message_ids: dict[str, int] = field(default_factory=dict)
    pending: dict[int, str] = field(default_factory=dict)  # parents seen after their child
    logical: dict[int, str] = field(default_factory=dict)  # compact boundary -> old leaf
    linked: int = 0
    lines: int = 0
    bad_lines: int = 0
    end: int = 0
    last_uuid: str | None = None
    injected_ids: dict[str, None] = field(default_factory=dict)
    injected_texts: dict[str, None] = field(default_factory=dict)
    # Messages typed while the agent was busy: (text, uuid of the line before, session).
    queued: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    # Compaction summaries, live or not (the branch walk can pass them by): line offsets.
    summaries: list[int] = field(default_factory=list)


def _iter_lines(f: BinaryIO, start: int) -> Iterator[tuple[int, bytes]]:
    """(offset, line) for complete lines from `start`; a final line without a newline counts
    only if it is a whole JSON object (a half-written line never parses)."""
    f.seek(start)
    offset = start
    for raw in f:
        if not raw.endswith(b"\n"):
            stripped = raw.strip()
            if not (stripped.startswith(b"{") and stripped.endswith(b"}")):
                return
            try:
                json.loads(stripped)
            except ValueError:
                return
        yield offset, raw
        offset += len(raw)


def load_line(raw: bytes) -> dict | None:
    """The JSON object on one line, or None when it is not one."""
    try:
        obj = json.loads(raw.decode("utf-8", "replace"))
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def _strings(obj: object, depth: int = 0) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif depth < 12 and isinstance(obj, dict):
        for value in obj.values():
            yield from _strings(value, depth + 1)
    elif depth < 12 and isinstance(obj, list):
        for value in obj:
            yield from _strings(value, depth + 1)


def content_blocks(obj: dict) -> list:
    """The content blocks of one line's message; a plain string is one text block."""
    message = obj.get("message")
    if isinstance(message, dict):
        content = message.get("content")
    else:
        content = message
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return content if isinstance(content, list) else []


def build_index(f: BinaryIO, start: int) -> LineIndex:
    """Index the complete lines from byte `start`, and the kenning context they carry."""
    ix = LineIndex(end=start)
    for offset, raw in _iter_lines(f, start):
        ix.end = offset + len(raw)
        if not raw.strip():
            continue
        ix.lines += 1
        obj = load_line(raw)
        if obj is None:
            ix.bad_lines += 1
            continue
        if b"kenning-context" in raw:
            for s in _strings(obj):
                for fact_id in find_injected_ids(s):
                    ix.injected_ids.setdefault(fact_id, None)
                for sentence in injected_texts(s):
                    ix.injected_texts.setdefault(sentence, None)
        uuid = obj.get("uuid")
        if obj.get("type") == "queue-operation":
            content = obj.get("content")
            if obj.get("operation") == "enqueue" and isinstance(content, str) and content:
                session = obj.get("sessionId")
                ix.queued.append((content, ix.last_uuid,
                                  session if isinstance(session, str) else None))
            continue
        if not isinstance(uuid, str) or not uuid:
            continue
        if obj.get("isCompactSummary") is True:
            ix.summaries.append(offset)
        _add_line(ix, obj, uuid, offset)
    for idx, parent in ix.pending.items():
        resolved = ix.by_uuid.get(hash(parent), _MISSING_PARENT)
        ix.parents[idx] = resolved
        ix.linked += resolved >= 0
    return ix


def _add_line(ix: LineIndex, obj: dict, uuid: str, offset: int) -> None:
    idx = len(ix.offsets)
    ix.offsets.append(offset)
    ix.last_uuid = uuid
    kind = obj.get("type")
    flags = _F_SIDECHAIN if obj.get("isSidechain") is True else 0
    message_no = -1
    if kind == "assistant":
        flags |= _F_ASSISTANT
        message = obj.get("message")
        mid = message.get("id") if isinstance(message, dict) else None
        if isinstance(mid, str) and mid:
            message_no = ix.message_ids.setdefault(mid, len(ix.message_ids))
    elif kind == "user":
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content_blocks(obj)):
            flags |= _F_TOOL_RESULT
    elif kind == "system" and obj.get("subtype") == "compact_boundary":
        flags |= _F_BOUNDARY
        logical = obj.get("logicalParentUuid")
        if isinstance(logical, str):
            ix.logical[idx] = logical
    parent = obj.get("parentUuid")
    parent_idx = -1
    if isinstance(parent, str) and parent:
        parent_idx = ix.by_uuid.get(hash(parent), -2)
        if parent_idx == -2:
            ix.pending[idx] = parent
        else:
            ix.linked += 1
    ix.parents.append(parent_idx)
    ix.flags.append(flags)
    ix.message.append(message_no)
    ix.by_uuid[hash(uuid)] = idx  # a repeated uuid: the later line wins


def _previous_line(ix: LineIndex, idx: int) -> int:
    sidechain = ix.flags[idx] & _F_SIDECHAIN
    for j in range(idx - 1, -1, -1):
        if ix.flags[j] & _F_SIDECHAIN == sidechain:
            return j
    return -1


def live_lines(ix: LineIndex) -> bytearray:
    """1 for each line on the live branch (plus its parallel tool calls and results)."""
    n = len(ix.offsets)
    live = bytearray(n)
    if n == 0:
        return live
    if ix.linked == 0:
        # No line points at another line of this file (old or hand-made transcripts, or a
        # cursor read of one new line): file order is the only order there is.
        return bytearray(b"\x01" * n)
    leaf = next((i for i in range(n - 1, -1, -1) if not ix.flags[i] & _F_SIDECHAIN), n - 1)
    i = leaf
    while 0 <= i < n and not live[i]:
        live[i] = 1
        parent = ix.parents[i]
        if parent < 0 and ix.flags[i] & _F_BOUNDARY:
            # Compaction: continue at the old leaf; if that line is not in this file
            # (cursor read, trimmed file), at the line written just before the boundary.
            logical = ix.by_uuid.get(hash(ix.logical.get(i, "")), -1)
            parent = logical if logical >= 0 else _previous_line(ix, i)
        elif parent == _MISSING_PARENT:
            # The parent named is not in this file (a cursor read, or a copy that left a
            # progress line out): the conversation goes on at the line written before it.
            parent = _previous_line(ix, i)
        i = parent
    live_messages = {ix.message[i] for i in range(n) if live[i] and ix.message[i] >= 0}
    for i in range(n):
        if live[i]:
            continue
        if ix.message[i] >= 0 and ix.message[i] in live_messages:
            live[i] = 1
        elif ix.flags[i] & _F_TOOL_RESULT and ix.parents[i] >= 0 and live[ix.parents[i]]:
            live[i] = 1
    return live
