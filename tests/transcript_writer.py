"""A writer of Claude Code transcript lines for tests (shared by the extraction and the
reliability tests)."""

from __future__ import annotations

import json
from pathlib import Path

SESSION = "5560c1e2-8b1f-4d0e-9a51-0c7f3e2b9d44"


class Transcript:
    """Writes Claude Code transcript lines, each a child of the one before."""

    def __init__(self, path: Path, session: str = SESSION):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.session = session
        self.parent: str | None = None
        self.n = 0

    def _write(self, kind: str, message: dict, **extra) -> str:
        self.n += 1
        uuid = f"{self.session[:8]}-{kind[0]}-{self.n}"
        line = {"parentUuid": self.parent, "isSidechain": False, "type": kind,
                "sessionId": self.session, "uuid": uuid, "message": message,
                "timestamp": f"2026-11-29T10:{self.n // 60 % 60:02d}:{self.n % 60:02d}.000Z",
                **extra}
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        self.parent = uuid
        return uuid

    def user(self, text: str, **extra) -> str:
        return self._write("user", {"role": "user", "content": text}, **extra)

    def assistant(self, text: str) -> str:
        return self._write("assistant", {"id": f"msg-{self.n}", "role": "assistant",
                                         "content": [{"type": "text", "text": text}]})

    def bash(self, command: str, output: str, error: bool = False) -> str:
        tid = f"toolu-{self.n}"
        self._write("assistant", {"id": f"msg-{self.n}", "role": "assistant", "content": [
            {"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}]})
        return self._write("user", {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": error}]})
