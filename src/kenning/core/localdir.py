"""Where kenning keeps a project's local files, on `os` alone: KENNING_HOME, the project root
and the project id.

Hooks run in a fresh interpreter on every tool call, and pathlib, dataclasses or hashlib
alone cost more than the whole PostToolUse budget (docs/design.md, "Performance budgets").
`kenning.core.paths` states the same rules with pathlib for everything else;
`tests/test_hooks_paths.py` keeps the two in agreement.
"""

from __future__ import annotations

import os
import sys

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
    # The builtin module avoids loading OpenSSL through hashlib (the hook budgets again).
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


def data_dir(root: str) -> str:
    """The project's folder under KENNING_HOME (index, and `local/` for its logs)."""
    return os.path.join(kenning_home(), "projects", project_id(root))


def started_in() -> str:
    """The project Claude Code started in (or the current folder's), when no payload says."""
    return project_root(os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd())
