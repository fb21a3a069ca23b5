"""The one writer of the local event log, `events.jsonl` (see `store/events.py` to read it).

Stdlib only, and cheap: the PostToolUse hook writes through this on every tool call, so it
takes the fields of `store.events.Event` as keywords instead of importing the record.
Lines are written whole by `core.lines.append_json` (never interleaved, never glued to a
fragment a full disk left).
"""

from __future__ import annotations

from kenning.core.clock import now_iso
from kenning.core.lines import append_json


def write_event(path: str | object, type: str, *, session: str | None = None,
                paths: list[str] | tuple[str, ...] = (), outcome: str | None = None,
                agent: str | None = None, ts: str | None = None, **data: object) -> None:
    """Append one event (the fields of `store.events.Event`; `data` are its kind's own)."""
    record: dict = {"type": type, **data}
    if session:
        record["session"] = session
    if paths:
        record["paths"] = list(paths)
    if outcome:
        record["outcome"] = outcome
    if agent:
        record["agent"] = agent
    record["ts"] = ts or now_iso()
    append(path, record)


def append(path: str | object, record: dict) -> None:
    """Append one record as it is (`core.lines.append_json`). `write_event` is the way in
    for events; tests seed logs with this."""
    append_json(str(path), record)
