"""`forget --purge`: remove every local copy of a fact, for secrets that slipped through."""

from __future__ import annotations

import html
import json
import sqlite3
from pathlib import Path

from kenning.core.atomic import write_atomic
from kenning.core.errors import KenningError
from kenning.core.paths import Project

MIN_TEXT_NEEDLE = 20


def purge_fact(project: Project, fact_id: str, text: str | None = None) -> list[str]:
    """Delete the fact file(s), scrub the index (rows, FTS, graph, free pages, WAL) and every
    local file that names the fact or quotes its `text`: logs lose those lines, JSON state
    (the anchors map, extraction and hook state) loses those entries, and any other derived
    file holding it (a rendered report) is deleted."""
    cleaned: list[str] = []
    for _, directory in project.fact_dirs():
        path = directory / f"{fact_id}.yaml"
        if path.exists() or path.is_symlink():
            path.unlink()
            cleaned.append(str(path))
    if project.index_path.exists():
        _scrub_index(project.index_path, fact_id)
        cleaned.append(str(project.index_path))
    needles = _needles(fact_id, text)
    for path in _local_files(project):
        if _scrub_file(path, needles):
            cleaned.append(str(path))
    return cleaned


def _needles(fact_id: str, text: str | None) -> list[bytes]:
    """The id, and the text as files hold it: raw, JSON-escaped (both ways), HTML-escaped.
    A short text is too likely to be part of other lines to be a needle of its own."""
    forms = {fact_id}
    if text and len(text) >= MIN_TEXT_NEEDLE:
        forms |= {text, json.dumps(text)[1:-1], json.dumps(text, ensure_ascii=False)[1:-1],
                  html.escape(text)}
    return [f.encode("utf-8") for f in forms if f]


def _local_files(project: Project) -> list[Path]:
    """Files kenning derived for this project: the local folder, and loose files beside the
    index (never the personal fact or session stores, never the index itself)."""
    found = [p for p in project.data_dir.iterdir() if p.is_file()
             and not p.name.startswith(project.index_path.name)] \
        if project.data_dir.is_dir() else []
    if project.local_dir.is_dir():
        found += [p for p in sorted(project.local_dir.rglob("*")) if p.is_file()
                  and not p.is_symlink()]
    return found


def _scrub_file(path: Path, needles: list[bytes]) -> bool:
    data = path.read_bytes()
    if not any(n in data for n in needles):
        return False
    if path.suffix in (".jsonl", ".log"):
        write_atomic(path, b"".join(line for line in data.splitlines(keepends=True)
                                    if not any(n in line for n in needles)))
        return True
    if path.suffix == ".json":
        try:
            value = json.loads(data)
        except ValueError:
            value = None
        if value is not None:
            kept = json.dumps(_scrub_json(value, needles), ensure_ascii=False).encode("utf-8")
            if not any(n in kept for n in needles):
                write_atomic(path, kept)
                return True
    path.unlink()  # a derived file that cannot be edited safely: it is rebuilt on demand
    return True


def _holds(value: object, needles: list[bytes]) -> bool:
    raw = json.dumps(value, ensure_ascii=False).encode("utf-8")
    return any(n in raw for n in needles) or any(
        n in json.dumps(value).encode("ascii") for n in needles)


def _scrub_json(value: object, needles: list[bytes]) -> object:
    """Drop every list item and every mapping entry (key or text value) that holds a needle."""
    if isinstance(value, dict):
        return {k: _scrub_json(v, needles) for k, v in value.items()
                if not _holds(k, needles) and not (isinstance(v, str) and _holds(v, needles))}
    if isinstance(value, list):
        return [_scrub_json(v, needles) for v in value if not _holds(v, needles)]
    return value


def _scrub_index(index_path: Path, fact_id: str) -> None:
    conn = sqlite3.connect(index_path, timeout=10)
    try:
        node = f"fact:{fact_id}"  # the knowledge graph's name for it
        for table, column, value in (
                ("facts", "id", fact_id), ("fact_vectors", "id", fact_id),
                ("usage", "fact_id", fact_id), ("fact_files", "fact_id", fact_id),
                ("graph_nodes", "id", node), ("graph_edges", "src", node),
                ("graph_edges", "dst", node)):
            try:
                conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (value,))
            except sqlite3.OperationalError as exc:
                _unless_missing(exc)
        try:  # other processes (the MCP server) cache fact rows per generation: reload
            conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 "
                         "WHERE key = 'generation'")
        except sqlite3.OperationalError as exc:
            _unless_missing(exc)
        conn.commit()
        try:
            conn.execute("INSERT INTO facts_fts(facts_fts) VALUES ('optimize')")
            conn.commit()
        except sqlite3.OperationalError as exc:
            _unless_missing(exc)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _unless_missing(exc: sqlite3.OperationalError) -> None:
    """An older index may lack a table. Any other error is raised, since the fact's text
    would otherwise stay in the index: a locked one says what to do."""
    if "no such table" in str(exc):
        return
    if "locked" in str(exc):
        raise KenningError("the index stayed locked by another kenning process (the MCP "
                           "server, a catch-up); the fact file is deleted but the index still "
                           "holds its text: stop that process, then run `kenning rebuild`"
                           ) from exc
    raise exc


def history_instructions(fact_id: str) -> str:
    return (
        f"If {fact_id} was ever committed, remove it from git history too, e.g.:\n"
        f"  git filter-repo --invert-paths --path .kenning/facts/{fact_id}.yaml\n"
        "then force-push and ask teammates to re-clone."
    )
