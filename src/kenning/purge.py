"""`forget --purge`: remove every local copy of a fact, for secrets that slipped through."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .atomic import write_atomic
from .paths import Project


def purge_fact(project: Project, fact_id: str) -> list[str]:
    """Delete the fact file(s), scrub the index (rows, FTS, free pages, WAL) and the logs."""
    cleaned: list[str] = []
    for _, directory in project.fact_dirs():
        path = directory / f"{fact_id}.yaml"
        if path.exists():
            path.unlink()
            cleaned.append(str(path))
    if project.index_path.exists():
        _scrub_index(project.index_path, fact_id)
        cleaned.append(str(project.index_path))
    if project.local_dir.is_dir():
        for log in sorted(project.local_dir.glob("*.jsonl")):
            if _scrub_log(log, fact_id):
                cleaned.append(str(log))
    return cleaned


def _scrub_index(index_path: Path, fact_id: str) -> None:
    conn = sqlite3.connect(index_path, timeout=10)
    try:
        for table, column in (("facts", "id"), ("fact_vectors", "id"), ("usage", "fact_id"),
                              ("fact_files", "fact_id")):
            try:
                conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (fact_id,))
            except sqlite3.OperationalError:
                pass
        conn.commit()
        try:
            conn.execute("INSERT INTO facts_fts(facts_fts) VALUES ('optimize')")
            conn.commit()
        except sqlite3.OperationalError:
            pass
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _scrub_log(path: Path, fact_id: str) -> bool:
    needle = fact_id.encode("ascii")
    data = path.read_bytes()
    if needle not in data:
        return False
    kept = b"".join(line for line in data.splitlines(keepends=True) if needle not in line)
    write_atomic(path, kept)
    return True


def history_instructions(fact_id: str) -> str:
    return (
        f"If {fact_id} was ever committed, remove it from git history too, e.g.:\n"
        f"  git filter-repo --invert-paths --path .kenning/facts/{fact_id}.yaml\n"
        "then force-push and ask teammates to re-clone."
    )
