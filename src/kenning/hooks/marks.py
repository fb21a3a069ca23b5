""""Needs extraction" marks: one small file per session under the local folder. Stdlib only.

Stop writes a mark (once per session, cheap: it fires every turn); the extractor's wrapper
removes it after a successful run; SessionStart's catch-up extracts what is still marked.
"""

from __future__ import annotations

import os

from kenning.core.clock import now_iso
from kenning.hooks.base import Ctx, read_json, safe_name, write_json

DIR_NAME = "extract-pending"


def mark_path(local_dir: str, session: str) -> str:
    return os.path.join(local_dir, DIR_NAME, safe_name(session) + ".json")


def mark(ctx: Ctx) -> str | None:
    transcript = ctx.payload.get("transcript_path")
    if not ctx.session or not isinstance(transcript, str) or not transcript:
        return None
    path = mark_path(ctx.local_dir, ctx.session)
    if not os.path.exists(path):
        write_json(path, {"session": ctx.session, "transcript": transcript, "root": ctx.root,
                          "marked": now_iso()})
    return path


def pending(local_dir: str) -> list[dict]:
    folder = os.path.join(local_dir, DIR_NAME)
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return []
    out = []
    for name in names:
        if name.endswith(".json"):
            data = read_json(os.path.join(folder, name))
            if isinstance(data, dict) and data.get("session") and data.get("transcript"):
                out.append(data)
    return out


def clear(local_dir: str, session: str) -> None:
    try:
        os.unlink(mark_path(local_dir, session))
    except FileNotFoundError:
        pass


def count_attempt(local_dir: str, session: str) -> None:
    """One more failed extraction of a marked session (it is retried up to a limit)."""
    path = mark_path(local_dir, session)
    data = read_json(path)
    if isinstance(data, dict):
        data["attempts"] = int(data.get("attempts") or 0) + 1
        write_json(path, data)
