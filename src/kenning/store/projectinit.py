"""`kenning init`: opt a project in to a shared `.kenning/` store."""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

from kenning.core.atomic import write_atomic
from kenning.core.gitutil import git
from kenning.core.paths import Project, kenning_home
from kenning.store.facts import FactStore, scan

README = """# .kenning

This folder is the project's shared memory for coding agents, written by
[kenning](https://github.com/kenning-dev/kenning). Commit it like any other file.

- `facts/<id>.yaml`: one fact per file (codebase knowledge, decisions and their rationale).
  Review them in pull requests like code; `kenning list` and `kenning show ID` read them.
- `sessions/<name>.yaml`: saved session summaries.
- `config.toml`: settings the team shares (index ignores).

Merges of fact files go through `kenning merge-fact`; run `kenning init` once in your clone
to register the merge driver (it only touches your local `.git/config`).
"""

GITATTRIBUTES = "facts/*.yaml merge=kenning-fact\n"
# A write killed between its temp file and the rename leaves `.<name>.tmp` behind: readers
# skip it; this keeps git from offering it for commit (and out of the uncommitted count).
GITIGNORE = "# temp files of an interrupted write\n.*.tmp\n"

CONFIG = """# kenning project settings, shared by the team.
[index]
# Extra glob patterns to leave out of the code index.
ignore = []
# Files larger than this are not indexed.
max_file_kb = 512
"""


@dataclass
class InitReport:
    created: list[str] = field(default_factory=list)
    merge_driver: bool = False
    movable: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)


DRIVER_KEY = "merge.kenning-fact.driver"


def driver_script() -> Path:
    return kenning_home() / "bin" / "merge-fact"


def driver_script_text() -> str:
    """A script that runs `kenning merge-fact` with this interpreter and this code.

    `.git/config` names the script, never an interpreter: a plugin's venv holds only the
    dependencies (the code runs from the plugin's `src/`, whose path changes with each plugin
    update), so the script is rewritten by `init` and by each session's catch-up, and the
    path git knows stays the same for a checkout's `.venv`, a plugin and a pip install alike.
    """
    import kenning

    src = os.path.dirname(os.path.dirname(os.path.abspath(kenning.__file__)))
    runner = ('import sys; sys.path.insert(0, sys.argv.pop(1)); sys.argv[0] = "kenning"; '
              "from kenning.cli import main; main()")
    return ("#!/bin/sh\n"
            "# Written by kenning (`kenning init`, each session's catch-up): the git merge\n"
            "# driver for .kenning/facts/*.yaml, with the interpreter that has kenning's\n"
            "# dependencies.\n"
            f"exec {shlex.quote(sys.executable)} -I -c {shlex.quote(runner)} "
            f"{shlex.quote(src)} merge-fact \"$@\"\n")


def write_driver_script() -> Path:
    """(Re)write the driver script when it differs from what this install would write."""
    path = driver_script()
    text = driver_script_text()
    try:
        current = path.read_text(encoding="utf-8")
    except OSError:
        current = None
    if current != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
        path.chmod(0o755)
    elif not os.access(path, os.X_OK):
        path.chmod(0o755)
    return path


def merge_driver_command() -> str:
    return f"{shlex.quote(str(driver_script()))} %O %A %B"


def register_merge_driver(root: Path) -> bool:
    """The driver script, and its entry in the clone's local `.git/config` (once)."""
    write_driver_script()
    want = merge_driver_command()
    if git(root, "config", "--get", DRIVER_KEY).stdout.strip() == want:
        return True
    git(root, "config", "merge.kenning-fact.name", "kenning fact merge")
    return git(root, "config", DRIVER_KEY, want).returncode == 0


def init_project(project: Project, move_facts: bool | None) -> InitReport:
    """Create `.kenning/` (idempotent) and register the merge driver in the local git config.

    `move_facts`: True moves personal codebase and decision facts in, False leaves them,
    None only reports which could move.
    """
    report = InitReport()
    kdir = project.kenning_dir
    for sub in ("facts", "sessions"):
        target = kdir / sub
        if not target.is_dir():
            target.mkdir(parents=True)
            report.created.append(str(target.relative_to(project.root)) + "/")
    for name, content in (("README.md", README), (".gitattributes", GITATTRIBUTES),
                          (".gitignore", GITIGNORE), ("config.toml", CONFIG)):
        path = kdir / name
        if not path.exists():
            write_atomic(path, content)
            report.created.append(str(path.relative_to(project.root)))
    if (project.root / ".git").exists():
        report.merge_driver = register_merge_driver(project.root)
    personal = [s for s in scan(project).facts
                if s.store == "personal" and s.fact.kind in ("codebase", "decision")]
    report.movable = [s.fact.id for s in personal]
    if move_facts:
        store = FactStore(project)
        for stored in personal:
            store.move(stored.fact.id, project.project_facts_dir)
            report.moved.append(stored.fact.id)
    return report
