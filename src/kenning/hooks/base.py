"""What every hook shares, on the cheapest imports Python has (os, sys, json).

Hooks run in a fresh interpreter on every tool call: the paths come from
`kenning.core.localdir` (no pathlib, no hashlib), log lines go through
`kenning.core.lines`, errors to `kenning.core.errorlog` (docs/design.md, "The hook contract").
"""

from __future__ import annotations

import os

from kenning.core import fastjson as json
from kenning.core.localdir import kenning_home, project_id, project_root

MAX_STDIN = 4 * 1024 * 1024


def safe_name(value: str) -> str:
    """A session id as a file name (ids are UUIDs; anything else is made safe)."""
    cleaned = "".join(c if c.isalnum() or c in "-_" else "_" for c in value)[:100]
    return cleaned or "unknown"


class Ctx:
    """One hook call: the payload and every path it may touch (none inside the project)."""

    __slots__ = ("payload", "event", "root", "home", "data_dir", "local_dir", "session",
                 "agent_id")

    def __init__(self, payload: dict, event: str):
        self.payload = payload
        self.event = event
        cwd = payload.get("cwd") or os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()
        self.root = project_root(str(cwd))
        self.home = kenning_home()
        self.data_dir = os.path.join(self.home, "projects", project_id(self.root))
        self.local_dir = os.path.join(self.data_dir, "local")
        session = payload.get("session_id")
        self.session = str(session) if session else None
        agent = payload.get("agent_id")
        self.agent_id = str(agent) if agent else None

    @property
    def index_path(self) -> str:
        return os.path.join(self.data_dir, "index.db")

    @property
    def events_path(self) -> str:
        return os.path.join(self.local_dir, "events.jsonl")

    @property
    def initialised(self) -> bool:
        return os.path.isdir(os.path.join(self.root, ".kenning", "facts"))

    def local(self, *parts: str) -> str:
        return os.path.join(self.local_dir, *parts)

    def rel(self, path: object) -> str | None:
        """A tool's path as POSIX relative to the root when inside it, else absolute."""
        if not isinstance(path, str) or not path:
            return None
        path = path.replace("\\", "/")
        full = path if os.path.isabs(path) else os.path.join(self.root, path)
        full = os.path.normpath(full)
        root = self.root
        if full == root:
            return "."
        if full.startswith(root.rstrip("/") + "/"):
            return full[len(root.rstrip("/")) + 1:].replace(os.sep, "/")
        return full.replace(os.sep, "/")


def write_json(path: str, data: object, durable: bool = True) -> None:
    """Replace a small JSON file atomically (the one atomic writer, `core.atomic`)."""
    from kenning.core.atomic import write_atomic
    from kenning.core.private import scrub

    write_atomic(path, json.dumps(scrub(data), ensure_ascii=False), durable=durable)


def read_json(path: str, default: object = None) -> object:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return default
