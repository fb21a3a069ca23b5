"""What every hook shares, on the cheapest imports Python has (os, sys, json).

Hooks run in a fresh interpreter on every tool call: the paths come from
`kenning.core.localdir` (no pathlib, no hashlib), log lines go through
`kenning.core.lines`, errors to `kenning.core.errorlog` (docs/design.md, "The hook contract").
"""

from __future__ import annotations

import json
import os

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


def write_json(path: str, data: object) -> None:
    """Atomic small-file write (temp file + rename)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False)
    os.replace(tmp, path)


def read_json(path: str, default: object = None) -> object:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return default


def plugin_src() -> str:
    """The `src/` folder this code runs from (the plugin's, never an installed copy)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def spawn_detached(argv: list[str], log_path: str | None = None, cwd: str | None = None,
                   env: dict | None = None) -> bool:
    """Start a process that outlives the hook and the session; never raises.

    `KENNING_DISABLE_BACKGROUND=1` turns every spawn off (benchmarks, debugging).
    """
    if os.environ.get("KENNING_DISABLE_BACKGROUND") == "1":
        return False
    try:
        import subprocess

        child_env = dict(os.environ if env is None else env)
        src = plugin_src()
        child_env["PYTHONPATH"] = src + (os.pathsep + child_env["PYTHONPATH"]
                                         if child_env.get("PYTHONPATH") else "")
        out = subprocess.DEVNULL
        handle = None
        if log_path:
            os.makedirs(os.path.dirname(log_path), exist_ok=True)
            handle = open(log_path, "ab")  # noqa: SIM115 - handed to the child
            out = handle
        kwargs: dict = {}
        if os.name == "nt":
            kwargs["creationflags"] = 0x00000008 | 0x00000200  # DETACHED | NEW_PROCESS_GROUP
        else:
            kwargs["start_new_session"] = True
        try:
            subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out, cwd=cwd,
                             env=child_env, close_fds=True, **kwargs)
        finally:
            if handle is not None:
                handle.close()
        return True
    except Exception:  # noqa: BLE001 - a failed spawn must never break the session
        return False
