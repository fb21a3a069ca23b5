"""Search across every project registered on this machine (`search --all-projects`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from kenning.core.paths import Project, kenning_home
from kenning.core.records import Hit
from kenning.store.registry import known_projects


def search_all_projects(query: str, open_memory: Callable[[Project], Any],
                        **options: Any) -> list[Hit]:
    """Each project's own ranking, merged by score; paths are prefixed with the project root.

    `open_memory(project)` gives an object with `search` and `close` (the entry point builds
    it, with that project's own configuration)."""
    limit = options.get("limit", 10)
    hits: list[Hit] = []
    for project in known_projects(kenning_home()):
        memory = open_memory(project)
        try:
            for hit in memory.search(query, **options):
                path = f"{project.root}/{hit.path}" if hit.path else str(project.root)
                hits.append(dataclasses.replace(hit, path=path))
        finally:
            memory.close()
    hits.sort(key=lambda h: -h.score)
    return hits[:limit]
