"""Every project kenning has indexed, so `kenning projects` and `--all-projects` can find them."""

from __future__ import annotations

import json
from pathlib import Path

from kenning.core.atomic import write_atomic
from kenning.core.paths import Project


def register(project: Project) -> None:
    """Record the project's root next to its data (idempotent, atomic)."""
    marker = project.data_dir / "project.json"
    record = {"root": str(project.root), "id": project.id}
    try:
        if json.loads(marker.read_text(encoding="utf-8")) == record:
            return
    except (OSError, ValueError):
        pass
    write_atomic(marker, json.dumps(record, indent=1))


def known_projects(home: Path) -> list[Project]:
    """Registered projects whose root still exists."""
    found = []
    for marker in sorted((home / "projects").glob("*/project.json")):
        try:
            root = Path(json.loads(marker.read_text(encoding="utf-8"))["root"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if root.is_dir():
            found.append(Project(root=root, home=home))
    return found
