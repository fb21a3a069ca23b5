"""What every hook shares, on the cheapest imports Python has (os, sys, json, time).

Hooks run in a fresh interpreter on every tool call, so this module deliberately re-states a
few rules from `kenning.core.paths` (project root, project id, KENNING_HOME) without pathlib,
dataclasses or hashlib: those imports alone cost more than the whole PostToolUse budget
(DESIGN §8). `tests/test_hooks_paths.py` keeps the two implementations in agreement.
"""

from __future__ import annotations

import json
import os
import sys

from kenning.core import lines

MCP_PREFIX = "mcp__plugin_kenning_kenning__"
MCP_TOOLS = ("knowledge_search", "knowledge_add", "knowledge_forget", "code_search",
             "session_save", "session_recall")
MAX_STDIN = 4 * 1024 * 1024
_SLUG_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def kenning_home() -> str:
    explicit = os.environ.get("KENNING_HOME")
    if explicit:
        return os.path.expanduser(explicit)
    if sys.platform == "darwin":
        return os.path.join(os.path.expanduser("~"), "Library", "Application Support", "kenning")
    xdg = os.environ.get("XDG_DATA_HOME")
    base = os.path.expanduser(xdg) if xdg else os.path.join(os.path.expanduser("~"), ".local",
                                                              "share")
    return os.path.join(base, "kenning")


def project_root(cwd: str) -> str:
    """Same rule as `kenning.core.paths.project_root`: the nearest folder holding `.git`."""
    start = os.path.realpath(cwd)
    candidate = start
    while True:
        if os.path.exists(os.path.join(candidate, ".git")):
            return candidate
        parent = os.path.dirname(candidate)
        if parent == candidate:
            return start
        candidate = parent


def _sha256_hex(data: bytes) -> str:
    # The builtin module avoids loading OpenSSL through hashlib (DESIGN §8 budgets).
    try:
        if sys.version_info >= (3, 12):
            from _sha2 import sha256  # type: ignore[import-not-found]
        else:
            from _sha256 import sha256  # type: ignore[import-not-found,no-redef]
    except ImportError:
        from hashlib import sha256  # type: ignore[no-redef]
    return sha256(data).hexdigest()


def project_id(root: str) -> str:
    """Same value as `kenning.core.paths.project_id` for the same root."""
    name = os.path.basename(root.rstrip(os.sep)) if root != os.sep else ""
    out: list[str] = []
    for char in name.lower():
        if char in _SLUG_CHARS:
            out.append(char)
        elif not out or out[-1] != "-":
            out.append("-")
    slug = "".join(out).strip("-")[:40] or "root"
    return f"{slug}-{_sha256_hex(root.encode('utf-8'))[:10]}"


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


def append_line(path: str, record: dict) -> None:
    """One JSON line, written whole (`core.lines.append_json`)."""
    lines.append_json(path, record)


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
