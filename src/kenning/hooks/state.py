"""Per-session hook state (characters injected, facts and files already covered), locked.

Hooks of one session can run in parallel (one PreToolUse per parallel tool call), so every
read-modify-write holds an exclusive lock on the session's lock file.
"""

from __future__ import annotations

import json
import os

from kenning.hooks.base import Ctx, safe_name, write_json

try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the worst case is a repeated injection
    fcntl = None  # type: ignore[assignment]


def _fresh() -> dict:
    return {"chars": 0, "facts": [], "files": []}


class SessionState:
    """`with SessionState(ctx) as state:` — a dict saved back on a clean exit."""

    def __init__(self, ctx: Ctx):
        name = safe_name(ctx.session or "no-session")
        folder = ctx.local("sessions")
        self.path = os.path.join(folder, name + ".json")
        self.lock_path = os.path.join(folder, name + ".lock")
        self._fd: int | None = None
        self.data: dict = _fresh()

    def __enter__(self) -> dict:
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self._fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        if fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
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
                write_json(self.path, self.data)
        finally:
            if self._fd is not None:
                os.close(self._fd)  # closing releases the flock
                self._fd = None

    def reset(self) -> None:
        """`compact` and `clear` wipe what the model saw, so everything may be said again."""
        self.data.clear()
        self.data.update(_fresh())
