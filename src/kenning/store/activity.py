"""File activity from the event log: which files were read or edited most since a time.

Stdlib only: SessionStart lists these hot files, and `kenning trace hot` prints them.
"""

from __future__ import annotations

import json
import os

HOT_FILES = 8
# Only the log's tail is read: SessionStart has to stay within its budget on a long history.
EVENT_TAIL_BYTES = 2 * 1024 * 1024


def hot_files(events_path: str, now_iso_cutoff: str, limit: int = HOT_FILES
              ) -> list[tuple[str, int]]:
    """Files read or edited most since the cutoff, from the tail of the event log."""
    try:
        size = os.path.getsize(events_path)
        with open(events_path, "rb") as handle:
            if size > EVENT_TAIL_BYTES:
                handle.seek(size - EVENT_TAIL_BYTES)
                handle.readline()  # drop the partial first line
            data = handle.read()
    except OSError:
        return []
    counts: dict[str, int] = {}
    for raw in data.splitlines():
        if b'"paths"' not in raw:
            continue
        try:
            event = json.loads(raw)
        except ValueError:
            continue
        if event.get("type") not in ("read", "edit") or str(event.get("ts", "")) < now_iso_cutoff:
            continue
        for path in event.get("paths") or ():
            if isinstance(path, str) and not path.startswith("/"):
                counts[path] = counts.get(path, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
