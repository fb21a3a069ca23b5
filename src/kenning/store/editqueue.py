"""The reindex queue, `<local>/reindex-queue.jsonl`: files edited since the last catch-up
(DESIGN §5: an edit queues the file), the one module that writes it. Stdlib only and cheap:
PostToolUse queues through this on every successful edit.
"""

from __future__ import annotations

import os

from kenning.core.lines import append_json

NAME = "reindex-queue.jsonl"


def queue_path(local_dir: str | os.PathLike[str]) -> str:
    return os.path.join(local_dir, NAME)


def queue_edit(local_dir: str | os.PathLike[str], path: str, session: str | None) -> None:
    append_json(queue_path(local_dir), {"path": path, "session": session})


def has_edits(local_dir: str | os.PathLike[str]) -> bool:
    try:
        return os.path.getsize(queue_path(local_dir)) > 0
    except OSError:
        return False


def clear(local_dir: str | os.PathLike[str]) -> None:
    """Empty the queue once a catch-up has re-indexed everything (edits queued meanwhile by a
    concurrent hook are lost: the next full index run picks their files up anyway)."""
    if os.path.exists(queue_path(local_dir)):
        with open(queue_path(local_dir), "wb"):
            pass
