"""Search across every project registered on this machine (`search --all-projects`)."""

from __future__ import annotations

import dataclasses
from typing import Any

from kenning.core.config import load_config
from kenning.core.paths import kenning_home
from kenning.core.records import Hit
from kenning.memory import Memory
from kenning.store.registry import known_projects


def search_all_projects(query: str, **options: Any) -> list[Hit]:
    """Each project's own ranking, merged by score; paths are prefixed with the project root."""
    limit = options.get("limit", 10)
    hits: list[Hit] = []
    for project in known_projects(kenning_home()):
        memory = Memory(project, load_config(project).embedder)
        try:
            for hit in memory.search(query, **options):
                path = f"{project.root}/{hit.path}" if hit.path else str(project.root)
                hits.append(dataclasses.replace(hit, path=path))
        finally:
            memory.close()
    hits.sort(key=lambda h: -h.score)
    return hits[:limit]
