"""Small git queries by subprocess. Stdlib only."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(root: Path, *args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=check,
        encoding="utf-8", errors="replace",
    )


def uncommitted_count(root: Path, pathspec: str) -> int | None:
    """Files under `pathspec` that are new, modified or deleted relative to HEAD."""
    try:
        result = git(root, "status", "--porcelain", "--untracked-files=all", "--", pathspec)
    except OSError:
        return None
    if result.returncode != 0:
        return None
    return sum(1 for line in result.stdout.splitlines() if line.strip())
