"""`kenning init`: opt a project in to a shared `.kenning/` store."""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, field

from .atomic import write_atomic
from .facts import FactStore, scan
from .gitutil import git
from .paths import Project

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


def merge_driver_command() -> str:
    """Absolute interpreter path: the driver must work without kenning on PATH."""
    return f"{shlex.quote(sys.executable)} -m kenning merge-fact %O %A %B"


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
        git(project.root, "config", "merge.kenning-fact.name", "kenning fact merge")
        result = git(project.root, "config", "merge.kenning-fact.driver", merge_driver_command())
        report.merge_driver = result.returncode == 0
    personal = [s for s in scan(project).facts
                if s.store == "personal" and s.fact.kind in ("codebase", "decision")]
    report.movable = [s.fact.id for s in personal]
    if move_facts:
        store = FactStore(project)
        for stored in personal:
            store.move(stored.fact.id, project.project_facts_dir)
            report.moved.append(stored.fact.id)
    return report
