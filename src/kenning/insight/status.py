"""`kenning status`: a summary of one project's stores and index."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kenning.index.facts import FactIndex


def project_status(facts: FactIndex) -> dict[str, Any]:
    project = facts.project
    views = facts.views()
    by_status = Counter(v.status for v in views)
    by_kind = Counter(v.row.kind for v in views if v.status == "active")
    uncommitted = facts.uncommitted()
    return {
        "root": str(project.root),
        "project store": str(project.project_facts_dir) if project.initialised
        else "not initialised (run `kenning init`)",
        "personal store": str(project.personal_facts_dir),
        "index": str(project.index_path),
        "facts": len(views),
        "active": by_status.get("active", 0),
        "by kind": ", ".join(f"{k} {n}" for k, n in sorted(by_kind.items())) or "-",
        "archived (decayed)": by_status.get("archived", 0),
        "superseded": by_status.get("superseded", 0),
        "forgotten": by_status.get("forgotten", 0),
        "not yet committed": "-" if uncommitted is None else uncommitted,
        "problem files": len(facts.problems()),
        **_code_status(facts.index.code_counts()),
        "embedder": facts.index.meta("embedder_id") or "-",
    }


def _code_status(counts: dict[str, int | None]) -> dict[str, Any]:
    import time

    indexed_at = counts.pop("indexed_at")
    age = "never indexed (run `kenning index`)" if indexed_at is None else _age(
        time.time() - indexed_at)
    return {"indexed files": counts["files"], "chunks": counts["chunks"],
            "symbols": counts["symbols"], "index age": age}


def _age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{int(seconds // size)} {unit} ago"
    return "just now"
