"""Which files the code index covers: git's view of the tree, config ignores, size, binaries.

Stdlib only, and cheap: a no-change re-index is one `git ls-files` plus a stat per file.
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

BINARY_SNIFF_BYTES = 8192


@dataclass(frozen=True)
class FileStat:
    path: str  # POSIX, relative to the root
    size: int
    mtime_ns: int


def git_files(root: Path) -> list[str] | None:
    """Tracked plus untracked-but-not-ignored files, or None when `root` is not a git repo."""
    try:
        result = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"],
            capture_output=True, check=False,
        )
    except OSError:
        return None
    if result.returncode != 0:
        return None
    names = result.stdout.decode("utf-8", "surrogateescape").split("\0")
    return sorted({n for n in names if n})


def _gitignore_patterns(directory: Path) -> list[str]:
    try:
        lines = (directory / ".gitignore").read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


def _ignored(rel: str, name: str, patterns: Iterable[str], is_dir: bool) -> bool:
    for pattern in patterns:
        if pattern.startswith("!"):
            continue
        dir_only = pattern.endswith("/")
        pat = pattern.rstrip("/")
        if dir_only and not is_dir:
            continue
        anchored = pat.startswith("/") or "/" in pat
        pat = pat.lstrip("/")
        if fnmatch.fnmatch(rel if anchored else name, pat):
            return True
    return False


def walk_files(root: Path) -> list[str]:
    """Outside git: a walk honouring `.gitignore` files (common patterns, no negation)."""
    found: list[str] = []
    stack: list[tuple[Path, list[str]]] = [(root, [".git", ".venv", "node_modules"])]
    while stack:
        directory, inherited = stack.pop()
        patterns = inherited + _gitignore_patterns(directory)
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            rel = Path(entry.path).relative_to(root).as_posix()
            is_dir = entry.is_dir(follow_symlinks=False)
            if _ignored(rel, entry.name, patterns, is_dir):
                continue
            if is_dir:
                stack.append((Path(entry.path), patterns))
            elif entry.is_file(follow_symlinks=False):
                found.append(rel)
    return sorted(found)


def matches_any(path: str, patterns: Iterable[str]) -> bool:
    """Glob match on the whole relative path, and on the file name for slash-free patterns."""
    name = path.rsplit("/", 1)[-1]
    for pattern in patterns:
        if pattern.endswith("/**"):
            prefix = pattern[:-3]
            if path.startswith(prefix + "/") or f"/{prefix}/" in f"/{path}":
                return True
        if fnmatch.fnmatch(path, pattern):
            return True
        if "/" not in pattern and fnmatch.fnmatch(name, pattern):
            return True
    return False


def candidate_files(root: Path, ignore: Iterable[str], max_bytes: int) -> Iterator[FileStat]:
    """Files to index, with their stat; symlinks leading outside the root are skipped."""
    names = git_files(root)
    if names is None:
        names = walk_files(root)
    ignore = tuple(ignore)
    real_root = os.path.realpath(root)
    for rel in names:
        if matches_any(rel, ignore) or not _utf8(rel):
            continue
        full = root / rel
        try:
            st = full.lstat()
            if os.path.islink(full):
                target = os.path.realpath(full)
                if not target.startswith(real_root + os.sep):
                    continue
                st = full.stat()
        except OSError:
            continue
        if not os.path.isfile(full) or st.st_size > max_bytes or st.st_size == 0:
            continue
        yield FileStat(rel, st.st_size, st.st_mtime_ns)


def _utf8(name: str) -> bool:
    """A name that is not UTF-8 (git and the walk keep its bytes as surrogates) cannot be
    stored or shown: the file is left out, the rest of the tree is indexed."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def read_text(path: Path) -> str | None:
    """The file as text, or None for binaries; undecodable bytes are replaced, not fatal."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        return None
    return data.decode("utf-8", errors="replace")
