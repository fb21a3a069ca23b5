"""Reading a Claude Code transcript JSONL: the live conversation as `Turn`s, resumably.

Why it is shaped like this:
- Transcripts grow to hundreds of MB and the extractor runs detached next to the user's
  session, so memory must not scale with the file. Pass 1 (`branch.py`) keeps a few bytes
  per line and picks the live branch; pass 2 (`turns.py`) re-reads only those lines.
- The file is written late and in pieces, so a per-session `Cursor` lets a second call read
  only what is new, and `wait_until_stable` lets the caller wait for the writes to settle.
- Nothing in a transcript may crash extraction: bad lines are skipped and counted.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from kenning.core.errors import FileProblemError, KenningError
from kenning.core.safeio import display, open_regular
from kenning.extract.branch import build_index, live_lines
from kenning.extract.cleaning import clean_text
from kenning.extract.model import Turn
from kenning.extract.turns import read_live_turns, summary_turns


@dataclass(frozen=True)
class Cursor:
    """Where the last read stopped: the byte offset just past the last complete line."""

    offset: int = 0
    last_uuid: str | None = None


@dataclass
class Transcript:
    """What one read produced, for callers that want more than the turns."""

    turns: list[Turn]
    cursor: Cursor
    lines: int = 0
    bad_lines: int = 0
    injected_ids: list[str] = field(default_factory=list)
    injected_texts: list[str] = field(default_factory=list)


def _start_offset(f: BinaryIO, size: int, cursor: Cursor | None) -> int:
    """Where to resume; from the top when the file was replaced or cut below the cursor."""
    if cursor is None or cursor.offset <= 0:
        return 0
    if cursor.offset > size:
        return 0
    f.seek(cursor.offset - 1)
    return cursor.offset if f.read(1) in (b"\n", b"}") else 0


def read_transcript(path: str | os.PathLike[str], cursor: Cursor | None = None) -> Transcript:
    """Parse the live branch of the lines after `cursor` (all lines when None).

    Turns from a rewound branch that an earlier call already returned cannot be taken back;
    everything after the cursor follows the branch that is live now.
    """
    try:
        f = open_regular(path)
    except OSError as exc:
        raise KenningError(
            f"cannot read transcript {display(path)}: {exc.strerror}; check the path"
        ) from exc
    except FileProblemError as exc:
        raise KenningError(f"cannot read transcript {exc}") from exc
    with f:
        size = os.fstat(f.fileno()).st_size
        start = _start_offset(f, size, cursor)
        ix = build_index(f, start)
        live = live_lines(ix)
        turns = list(read_live_turns(f, ix, live))
        known = {t.uuid for t in turns}
        turns += [t for t in summary_turns(f, ix) if t.uuid not in known]
        turns += queued_turns(ix.queued)
    last_uuid = ix.last_uuid or (cursor.last_uuid if cursor and start else None)
    return Transcript(
        turns=turns,
        cursor=Cursor(offset=ix.end, last_uuid=last_uuid),
        lines=ix.lines,
        bad_lines=ix.bad_lines,
        injected_ids=list(ix.injected_ids),
        injected_texts=list(ix.injected_texts),
    )


def queued_turns(queued: list[tuple[str, str | None, str | None]]) -> list[Turn]:
    """Messages the user typed while the agent was busy, as user turns. Claude Code keeps them
    as `queue-operation` lines with no uuid, so each cites the line written just before it."""
    out = []
    for n, (text, anchor, session) in enumerate(queued):
        text = clean_text(text)
        if text:
            out.append(Turn(uuid=anchor or f"queued-{n}", parent_uuid=anchor, role="user",
                            text=text, session_id=session))
    return out


def read_new(
    path: str | os.PathLike[str], cursor: Cursor | None = None
) -> tuple[list[Turn], Cursor]:
    """The turns written since `cursor`, and the cursor to pass next time."""
    result = read_transcript(path, cursor)
    return result.turns, result.cursor


def subagent_transcripts(path: str | os.PathLike[str]) -> list[Path]:
    """The subagent transcripts of a session: `<session>/subagents/agent-*.jsonl`."""
    folder = Path(path).with_suffix("") / "subagents"
    return sorted(folder.glob("agent-*.jsonl")) if folder.is_dir() else []


def wait_until_stable(
    path: str | os.PathLike[str],
    quiet_seconds: float = 2.0,
    timeout: float = 30.0,
    poll: float = 0.1,
) -> bool:
    """Wait until the file has not changed for `quiet_seconds`; False if `timeout` came first.

    Claude Code writes the transcript asynchronously and late (the hook can run before the
    last lines land), so extraction waits for the size and mtime to settle.
    """
    deadline = time.monotonic() + timeout
    last: tuple[int, int] | None = None
    quiet_since = time.monotonic()
    while True:
        try:
            st = os.stat(path)
            state = (st.st_size, st.st_mtime_ns)
        except OSError:
            state = (-1, -1)
        now = time.monotonic()
        if state != last:
            last, quiet_since = state, now
        elif state[0] >= 0 and now - quiet_since >= quiet_seconds:
            return True
        if now >= deadline:
            return False
        time.sleep(min(poll, max(0.0, deadline - now)))
