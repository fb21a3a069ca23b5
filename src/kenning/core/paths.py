"""Where everything lives: one project-root rule for hooks, CLI and MCP. Stdlib only."""

from __future__ import annotations

import hashlib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

PROJECT_DIR = ".kenning"


def kenning_home() -> Path:
    """`$KENNING_HOME`, else the platform's user data folder + `kenning`."""
    explicit = os.environ.get("KENNING_HOME")
    if explicit:
        return Path(explicit).expanduser()
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "kenning"
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "kenning"


def project_root(cwd: str | os.PathLike[str] | None = None) -> Path:
    """The realpath of the git top level containing `cwd`, else `cwd` itself.

    Walks up looking for a `.git` entry (a directory in a clone, a file in a worktree or
    submodule), which is what `git rev-parse --show-toplevel` answers, without paying for a
    subprocess on every hook call. A worktree is its own root.
    """
    start = Path(os.path.realpath(cwd if cwd is not None else default_cwd()))
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return start


def default_cwd() -> str:
    """`CLAUDE_PROJECT_DIR` when Claude Code set it, else the process's directory."""
    return os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()


def is_git_repo(root: Path) -> bool:
    return (root / ".git").exists()


def project_id(root: Path) -> str:
    """A readable slug plus a short hash of the root, stable for a path."""
    slug = re.sub(r"[^a-z0-9]+", "-", root.name.lower()).strip("-")[:40] or "root"
    digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:10]
    return f"{slug}-{digest}"


@dataclass(frozen=True)
class Project:
    """Every path kenning uses for one project root."""

    root: Path
    home: Path

    @property
    def id(self) -> str:
        return project_id(self.root)

    @property
    def data_dir(self) -> Path:
        return self.home / "projects" / self.id

    @property
    def local_dir(self) -> Path:
        return self.data_dir / "local"

    @property
    def index_path(self) -> Path:
        return self.data_dir / "index.db"

    @property
    def personal_facts_dir(self) -> Path:
        return self.data_dir / "facts"

    @property
    def personal_sessions_dir(self) -> Path:
        return self.data_dir / "sessions"

    @property
    def kenning_dir(self) -> Path:
        return self.root / PROJECT_DIR

    @property
    def initialised(self) -> bool:
        """True once `kenning init` ran here (or in a clone): the project store is opted in.

        A `.kenning` (or its `facts`, `sessions`) that is a symlink out of the project does
        not count: a cloned repository must not make kenning read or write elsewhere.
        """
        return self.kenning_dir.is_dir() and all(
            _inside(path, self.root)
            for path in (self.kenning_dir, self.kenning_dir / "facts",
                         self.kenning_dir / "sessions"))

    @property
    def project_facts_dir(self) -> Path:
        return self.kenning_dir / "facts"

    @property
    def config_path(self) -> Path:
        return self.kenning_dir / "config.toml"

    def facts_dir_for(self, kind: str) -> Path:
        """Where a new fact of `kind` goes: interaction facts stay personal."""
        if self.initialised and kind != "interaction":
            return self.project_facts_dir
        return self.personal_facts_dir

    @property
    def sessions_dir(self) -> Path:
        if self.initialised:
            return self.kenning_dir / "sessions"
        return self.personal_sessions_dir

    def fact_dirs(self) -> list[tuple[str, Path]]:
        """Every store to read facts from, labelled."""
        dirs = [("personal", self.personal_facts_dir)]
        if self.initialised:
            dirs.insert(0, ("project", self.project_facts_dir))
        return dirs

    @property
    def events_path(self) -> Path:
        return self.local_dir / "events.jsonl"

    @property
    def error_log(self) -> Path:
        return self.local_dir / "errors.log"


def _inside(path: Path, root: Path) -> bool:
    real = os.path.realpath(path)
    return real == str(root) or real.startswith(str(root).rstrip(os.sep) + os.sep)


def current_project(cwd: str | os.PathLike[str] | None = None) -> Project:
    return Project(root=project_root(cwd), home=kenning_home())
