"""Per-session hook state (characters injected, facts and files already covered), locked.

Hooks of one session can run in parallel (one PreToolUse per parallel tool call), so every
read-modify-write holds an exclusive lock on the session's lock file.
"""

from __future__ import annotations

import os

from kenning.core import fastjson as json
from kenning.core.locks import FileLock
from kenning.hooks.base import Ctx, safe_name, write_json


def _fresh() -> dict:
    return {"chars": 0, "facts": [], "files": []}


class SessionState:
    """`with SessionState(ctx) as state:` — a dict saved back on a clean exit."""

    def __init__(self, ctx: Ctx):
        name = safe_name(ctx.session or "no-session")
        folder = ctx.local("sessions")
        self.path = os.path.join(folder, name + ".json")
        self.lock = FileLock(os.path.join(folder, name + ".lock"))
        self.data: dict = _fresh()

    def __enter__(self) -> dict:
        self.lock.acquire()
        try:
            with open(self.path, encoding="utf-8") as handle:
                loaded = json.load(handle)
            if isinstance(loaded, dict):
                self.data = {**_fresh(), **loaded}
        except (OSError, ValueError):
            pass
        return self.data

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if exc_type is None:
                # counters a crash may lose (they only limit repeats): no fsync on this path
                write_json(self.path, self.data, durable=False)
        finally:
            self.lock.release()

    def reset(self) -> None:
        """`compact` and `clear` wipe what the model saw, so everything may be said again."""
        self.data.clear()
        self.data.update(_fresh())
